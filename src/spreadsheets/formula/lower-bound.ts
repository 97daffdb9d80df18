// The binary search the exact-lookup index (exact-index.ts) and the dependency graph
// (workbook/graph.ts) share: where a value would go in an ascending list of numbers.

/** The first position in `sorted` (ascending) whose value is not below `value`; its length when none is. */
export function lowerBound(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
