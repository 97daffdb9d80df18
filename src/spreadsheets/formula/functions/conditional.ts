// The COUNTIF family's walk: which positions of equally shaped ranges meet every criterion.
import { snapshotAt, type EvalContext } from "../context.ts";
import { criterion, criterionKey, type Criterion } from "../criteria.ts";
import { toOperand } from "../ops.ts";
import { ERR, type FormulaError, isArray, isError, isRange, RangeValue, type Scalar, type Value } from "../values.ts";

export interface Condition {
  range: RangeValue;
  test: Criterion;
  /** Names the criterion, for the recalculation's cache of matches. */
  key: string;
}

/** Pairs of (range, criterion) arguments; #VALUE! when a range is not a reference or the shapes differ. */
export function conditions(args: Value[], ctx: EvalContext): Condition[] | FormulaError {
  const out: Condition[] = [];
  for (let i = 0; i + 1 < args.length; i += 2) {
    const range = args[i];
    if (!isRange(range)) return ERR.VALUE;
    const first = out[0]?.range;
    if (first && (first.rows !== range.rows || first.columns !== range.columns)) return ERR.VALUE;
    const operand = toOperand(args[i + 1] as Value, ctx);
    const crit = isArray(operand) ? (operand[0]?.[0] ?? null) : operand;
    out.push({ range, test: criterion(crit), key: criterionKey(crit) });
  }
  return out;
}

const cell = (range: RangeValue, dr: number, dc: number, ctx: EvalContext): Scalar => ctx.value(range.sid, range.top + dr, range.left + dc);

/** Reads cells of a range at offsets: from its snapshot when the run has one (no side effects, as every cell in it is computed), else cell by cell. */
type Reader = (dr: number, dc: number) => Scalar;
export function reader(range: RangeValue, ctx: EvalContext): Reader {
  const snap = ctx.snapshot?.(range);
  return snap ? (dr, dc) => snapshotAt(snap, dr, dc) : (dr, dc) => cell(range, dr, dc, ctx);
}

/**
 * The walk through the run's cache: the first criterion's matching positions, then the other
 * criteria tested in order at each, as the uncached walk does; false when the first range is not cached.
 */
function cachedMatches(conds: Condition[], ctx: EvalContext, fn: (dr: number, dc: number) => void): boolean {
  const [first, ...rest] = conds as [Condition, ...Condition[]];
  const found = ctx.matches?.(first.range, first.key, first.test);
  if (!found) return false;
  const reads = rest.map((c) => reader(c.range, ctx));
  const { offsets, snapshot } = found;
  const width = snapshot.width;
  for (let i = 0; i < offsets.length; i++) {
    const at = offsets[i] as number;
    const dr = Math.floor(at / width);
    const dc = at - dr * width;
    let all = true;
    for (let k = 0; k < rest.length && all; k++) all = (rest[k] as Condition).test.test((reads[k] as Reader)(dr, dc));
    if (all) fn(dr, dc);
  }
  return true;
}

/**
 * Calls `fn(dr, dc)` for each matching position (offsets into the ranges); returns how many more
 * positions match beyond every range's used area, where all cells are empty.
 */
export function eachMatch(conds: Condition[], ctx: EvalContext, fn: (dr: number, dc: number) => void): number {
  const [first, ...rest] = conds as [Condition, ...Condition[]];
  const restMatch = (dr: number, dc: number) => rest.every((c) => c.test.test(cell(c.range, dr, dc, ctx)));
  if (!first.test.matchesEmpty) {
    if (cachedMatches(conds, ctx, fn)) return 0;
    const { top, left } = first.range;
    ctx.forEach(first.range, (v, r, c) => {
      if (first.test.test(v) && restMatch(r - top, c - left)) fn(r - top, c - left);
    });
    return 0;
  }
  let height = 0;
  let width = 0;
  for (const c of conds) {
    const used = ctx.used(c.range.sid);
    if (!used) continue;
    height = Math.max(height, used.bottom - c.range.top + 1);
    width = Math.max(width, used.right - c.range.left + 1);
  }
  height = Math.min(height, first.range.rows);
  width = Math.min(width, first.range.columns);
  ctx.step(height * width * conds.length);
  for (let dr = 0; dr < height; dr++)
    for (let dc = 0; dc < width; dc++) if (first.test.test(cell(first.range, dr, dc, ctx)) && restMatch(dr, dc)) fn(dr, dc);
  const all = conds.every((c) => c.test.matchesEmpty);
  return all ? first.range.rows * first.range.columns - height * width : 0;
}

/** The range SUMIF/AVERAGEIF add up: the given one resized to the criteria range's shape, from its top-left. */
export const resized = (target: RangeValue, like: RangeValue): RangeValue =>
  new RangeValue(target.sid, target.top, target.left, target.top + like.rows - 1, target.left + like.columns - 1);

type Sum = { sum: number; count: number } | FormulaError;

/** Sums (and counts) the numbers of `target` at the matching positions. */
export function sumMatches(conds: Condition[], target: RangeValue, ctx: EvalContext): Sum {
  const [only] = conds;
  // One criterion over copied ranges: the answer depends on the copies alone, so the run keeps it
  // (1,000 AVERAGEIFs over one column with 30 distinct criteria add up 30 times).
  if (conds.length === 1 && only && ctx.remember && ctx.snapshot?.(only.range) && ctx.snapshot(target)) {
    const box = (r: RangeValue) => `${r.sid}:${r.top}:${r.left}:${r.bottom}:${r.right}`;
    return ctx.remember(`sum|${box(only.range)}|${only.key}|${box(target)}`, () => walkSum(conds, target, ctx));
  }
  return walkSum(conds, target, ctx);
}

function walkSum(conds: Condition[], target: RangeValue, ctx: EvalContext): Sum {
  let sum = 0;
  let count = 0;
  let error: FormulaError | null = null;
  const read = reader(target, ctx);
  eachMatch(conds, ctx, (dr, dc) => {
    const v = read(dr, dc);
    if (typeof v === "number") {
      sum += v;
      count++;
    } else if (isError(v)) error ??= v;
  });
  return error ?? { sum, count };
}
