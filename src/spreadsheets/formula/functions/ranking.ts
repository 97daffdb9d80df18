// Order statistics: RANK (.EQ/.AVG), PERCENTILE and QUARTILE (.INC/.EXC), PERCENTRANK (.INC/.EXC),
// FREQUENCY and PROB. Only the numbers of a reference or array take part (text and booleans in it
// are skipped), as in Excel.
import type { EvalContext } from "../context.ts";
import { ERR, isError, type Scalar, type Value } from "../values.ts";
import { numberArg, numbers } from "./args.ts";
import { clean15, pairs } from "./numeric.ts";
import type { FnTable } from "./spec.ts";

const ascending = (a: number, b: number) => a - b;

function rank(average: boolean) {
  return (args: Value[], ctx: EvalContext): Value => {
    const x = numberArg(args[0], ctx);
    if (isError(x)) return x;
    const xs = numbers(args.slice(1, 2), ctx);
    if (isError(xs)) return xs;
    const order = numberArg(args[2], ctx, 0);
    if (isError(order)) return order;
    let before = 0;
    let same = 0;
    for (const v of xs) {
      if (v === x) same++;
      else if (order === 0 ? v > x : v < x) before++;
    }
    if (same === 0) return ERR.NA;
    return before + 1 + (average ? (same - 1) / 2 : 0);
  };
}

/** The value at a 0-based fractional position of sorted numbers, interpolated. */
function at(xs: number[], position: number): number {
  const p = clean15(position);
  const i = Math.floor(p);
  const lo = xs[i] as number;
  const hi = xs[Math.min(i + 1, xs.length - 1)] as number;
  return lo + (p - i) * (hi - lo);
}

function sortedAndK(args: Value[], ctx: EvalContext): { xs: number[]; k: number } | Scalar {
  const xs = numbers(args.slice(0, 1), ctx);
  if (isError(xs)) return xs;
  const k = numberArg(args[1], ctx);
  if (isError(k)) return k;
  if (xs.length === 0) return ERR.NUM;
  xs.sort(ascending);
  return { xs, k };
}

function percentile(exclusive: boolean, scale: number) {
  return (args: Value[], ctx: EvalContext): Value => {
    const read = sortedAndK(args, ctx);
    if (read === null || typeof read !== "object" || isError(read)) return read;
    const { xs } = read;
    const n = xs.length;
    const k = scale === 1 ? read.k : Math.trunc(read.k) / scale;
    if (!exclusive) return k < 0 || k > 1 ? ERR.NUM : at(xs, k * (n - 1));
    if (k <= 0 || k >= 1) return ERR.NUM;
    const position = clean15(k * (n + 1));
    if (position < 1 || position > n) return ERR.NUM;
    return at(xs, position - 1);
  };
}

function percentrank(exclusive: boolean) {
  return (args: Value[], ctx: EvalContext): Value => {
    const read = sortedAndK(args, ctx);
    if (read === null || typeof read !== "object" || isError(read)) return read;
    const { xs, k: x } = read;
    const digits = numberArg(args[2], ctx, 3);
    if (isError(digits)) return digits;
    const significance = Math.trunc(digits);
    const n = xs.length;
    if (significance < 1) return ERR.NUM;
    if (x < (xs[0] as number) || x > (xs[n - 1] as number)) return ERR.NA;
    let below = 0;
    while (below < n && (xs[below] as number) < x) below++;
    let position = below;
    if (xs[below] !== x) {
      const lo = xs[below - 1] as number;
      position = below - 1 + (x - lo) / ((xs[below] as number) - lo);
    }
    const r = exclusive ? (position + 1) / (n + 1) : n === 1 ? 1 : position / (n - 1);
    const scale = 10 ** significance;
    return Math.floor(clean15(r * scale)) / scale;
  };
}

function frequency(args: Value[], ctx: EvalContext): Value {
  const data = numbers(args.slice(0, 1), ctx);
  if (isError(data)) return data;
  const bins = numbers(args.slice(1, 2), ctx);
  if (isError(bins)) return bins;
  const order = bins.map((b, i) => [b, i] as const).sort((a, b) => a[0] - b[0]);
  const counts = new Array<number>(bins.length + 1).fill(0);
  for (const x of data) {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((order[mid] as readonly [number, number])[0] < x) lo = mid + 1;
      else hi = mid;
    }
    const slot = lo < order.length ? (order[lo] as readonly [number, number])[1] : bins.length;
    counts[slot] = (counts[slot] as number) + 1;
  }
  return counts.map((c) => [c]);
}

function prob(args: Value[], ctx: EvalContext): Value {
  const p = pairs(args[0] ?? null, args[1] ?? null, ctx);
  if (isError(p)) return p;
  const lower = numberArg(args[2], ctx);
  if (isError(lower)) return lower;
  const upper = args[3] === undefined ? lower : numberArg(args[3], ctx);
  if (isError(upper)) return upper;
  let total = 0;
  let within = 0;
  for (let i = 0; i < p.xs.length; i++) {
    const pr = p.ys[i] as number;
    if (pr < 0 || pr > 1) return ERR.NUM;
    total += pr;
    const x = p.xs[i] as number;
    if (x >= lower && x <= upper) within += pr;
  }
  return Math.abs(total - 1) > 1e-7 ? ERR.NUM : within;
}

export const RANKING: FnTable = {
  RANK: { min: 2, max: 3, call: rank(false) },
  "RANK.EQ": { min: 2, max: 3, call: rank(false) },
  "RANK.AVG": { min: 2, max: 3, call: rank(true) },
  PERCENTILE: { min: 2, max: 2, call: percentile(false, 1) },
  "PERCENTILE.INC": { min: 2, max: 2, call: percentile(false, 1) },
  "PERCENTILE.EXC": { min: 2, max: 2, call: percentile(true, 1) },
  QUARTILE: { min: 2, max: 2, call: percentile(false, 4) },
  "QUARTILE.INC": { min: 2, max: 2, call: percentile(false, 4) },
  "QUARTILE.EXC": { min: 2, max: 2, call: percentile(true, 4) },
  PERCENTRANK: { min: 2, max: 3, call: percentrank(false) },
  "PERCENTRANK.INC": { min: 2, max: 3, call: percentrank(false) },
  "PERCENTRANK.EXC": { min: 2, max: 3, call: percentrank(true) },
  FREQUENCY: { min: 2, max: 2, call: frequency },
  PROB: { min: 3, max: 4, call: prob },
};
