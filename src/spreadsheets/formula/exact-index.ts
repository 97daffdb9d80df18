// An index of a line of values (a column or a row) for the exact lookups of VLOOKUP, MATCH and
// XLOOKUP: text by its lower case, numbers sorted (a match is within Excel's 15-digit tolerance, so
// a map of exact numbers would miss some), booleans by value. It answers what findExact's walk
// answers, the first (or last) position whose value matches, for one recalculation's many lookups.
import { approxEqual } from "./coerce.ts";
import { lowerBound } from "./lower-bound.ts";
import type { Scalar } from "./values.ts";

/** First and last position of a key. */
type Span = [number, number];

/** Widens a number's window so every value approxEqual could accept lies inside it. */
const SLACK = 4 * 3.552713678800501e-15;

export class ExactIndex {
  private readonly texts = new Map<string, Span>();
  private readonly bools: (Span | undefined)[] = [undefined, undefined];
  private readonly numbers: Float64Array;
  private readonly numberAt: Int32Array;

  /** `values[i]` is the line's value at position i. */
  constructor(values: readonly Scalar[]) {
    const positions: number[] = [];
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      // NaN matches nothing (and would break the order).
      if (typeof v === "number") {
        if (v === v) positions.push(i);
      } else if (typeof v === "string") ExactIndex.note(this.texts, v.toLowerCase(), i);
      else if (typeof v === "boolean") {
        const span = this.bools[v ? 1 : 0];
        if (span) span[1] = i;
        else this.bools[v ? 1 : 0] = [i, i];
      }
    }
    positions.sort((a, b) => (values[a] as number) - (values[b] as number) || a - b);
    this.numbers = Float64Array.from(positions, (i) => values[i] as number);
    this.numberAt = Int32Array.from(positions);
  }

  private static note(map: Map<string, Span>, key: string, i: number): void {
    const span = map.get(key);
    if (span) span[1] = i;
    else map.set(key, [i, i]);
  }

  /** The first (`reverse`: last) position whose value equals `value` as a lookup compares (same type, text ignoring case, no wildcards), or -1. */
  find(value: Scalar, reverse: boolean): number {
    if (typeof value === "string") return this.texts.get(value.toLowerCase())?.[reverse ? 1 : 0] ?? -1;
    if (typeof value === "boolean") return this.bools[value ? 1 : 0]?.[reverse ? 1 : 0] ?? -1;
    if (typeof value === "number") return this.findNumber(value, reverse);
    return -1;
  }

  private findNumber(value: number, reverse: boolean): number {
    const { numbers, numberAt } = this;
    const slack = Number.isFinite(value) ? Math.abs(value) * SLACK : 0;
    const from = value - slack;
    const to = value + slack;
    let best = -1;
    for (let k = lowerBound(numbers, from); k < numbers.length && (numbers[k] as number) <= to; k++) {
      if (!approxEqual(numbers[k] as number, value)) continue;
      const at = numberAt[k] as number;
      if (best < 0 || (reverse ? at > best : at < best)) best = at;
    }
    return best;
  }
}
