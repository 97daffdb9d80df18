// Counting and statistics: COUNT*, AVERAGE*, MIN, MAX, MEDIAN, STDEV.S …
import type { EvalContext } from "../context.ts";
import { textToNumber } from "../coerce.ts";
import { ERR, isArray, isError, isRange, type Scalar, type Value } from "../values.ts";
import { numberArg, numbers, totalsOf } from "./args.ts";
import { conditions, eachMatch, resized, sumMatches } from "./conditional.ts";
import type { FnTable } from "./spec.ts";

function count(args: Value[], ctx: EvalContext): Value {
  let n = 0;
  for (const arg of args) {
    if (isRange(arg)) ctx.forEach(arg, (v) => void (typeof v === "number" && n++));
    else if (isArray(arg)) n += arg.flat().filter((v) => typeof v === "number").length;
    else if (typeof arg === "number" || typeof arg === "boolean" || (typeof arg === "string" && textToNumber(arg) !== null)) n++;
  }
  return n;
}

function counta(args: Value[], ctx: EvalContext): Value {
  let n = 0;
  for (const arg of args) {
    if (isRange(arg)) ctx.forEach(arg, () => void n++);
    else if (isArray(arg)) n += arg.flat().filter((v) => v !== null).length;
    else if (arg !== null) n++;
  }
  return n;
}

function countblank(args: Value[], ctx: EvalContext): Value {
  const range = args[0];
  if (!isRange(range)) return ERR.VALUE;
  let filled = 0;
  ctx.forEach(range, (v) => void (v !== "" && filled++));
  return range.rows * range.columns - filled;
}

function countifs(args: Value[], ctx: EvalContext): Value {
  if (args.length % 2 !== 0) return ERR.VALUE;
  const conds = conditions(args, ctx);
  if (isError(conds)) return conds;
  let n = 0;
  const beyond = eachMatch(conds, ctx, () => void n++);
  return n + beyond;
}

function average(args: Value[], ctx: EvalContext): Value {
  const totals = totalsOf(args, ctx);
  return isError(totals) ? totals : totals.count === 0 ? ERR.DIV0 : totals.sum / totals.count;
}

function averageif(args: Value[], ctx: EvalContext): Value {
  const conds = conditions(args.slice(0, 2), ctx);
  if (isError(conds) || !conds[0]) return isError(conds) ? conds : ERR.VALUE;
  const target = args[2] === undefined ? conds[0].range : args[2];
  if (!isRange(target)) return ERR.VALUE;
  const r = sumMatches(conds, resized(target, conds[0].range), ctx);
  return isError(r) ? r : r.count === 0 ? ERR.DIV0 : r.sum / r.count;
}

function averageifs(args: Value[], ctx: EvalContext): Value {
  const [target, ...rest] = args;
  if (!isRange(target) || rest.length % 2 !== 0) return ERR.VALUE;
  const conds = conditions(rest, ctx);
  if (isError(conds)) return conds;
  if (conds[0] && (conds[0].range.rows !== target.rows || conds[0].range.columns !== target.columns)) return ERR.VALUE;
  const r = sumMatches(conds, target, ctx);
  return isError(r) ? r : r.count === 0 ? ERR.DIV0 : r.sum / r.count;
}

function extreme(which: "min" | "max") {
  return (args: Value[], ctx: EvalContext): Value => {
    const totals = totalsOf(args, ctx);
    return isError(totals) ? totals : totals.count === 0 ? 0 : totals[which];
  };
}

function median(args: Value[], ctx: EvalContext): Value {
  const xs = numbers(args, ctx);
  if (isError(xs)) return xs;
  if (xs.length === 0) return ERR.NUM;
  xs.sort((a, b) => a - b);
  const mid = xs.length >> 1;
  return xs.length % 2 ? (xs[mid] as number) : ((xs[mid - 1] as number) + (xs[mid] as number)) / 2;
}

function variance(args: Value[], ctx: EvalContext): number | Scalar {
  const xs = numbers(args, ctx);
  if (isError(xs)) return xs;
  if (xs.length < 2) return ERR.DIV0;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return xs.reduce((a, x) => a + (x - mean) * (x - mean), 0) / (xs.length - 1);
}

function stdev(args: Value[], ctx: EvalContext): Value {
  const v = variance(args, ctx);
  return typeof v === "number" ? Math.sqrt(v) : v;
}

function kth(largest: boolean) {
  return (args: Value[], ctx: EvalContext): Value => {
    const xs = numbers(args.slice(0, 1), ctx);
    if (isError(xs)) return xs;
    const k = numberArg(args[1], ctx);
    if (typeof k !== "number") return k;
    const i = Math.ceil(k);
    if (i < 1 || i > xs.length) return ERR.NUM;
    xs.sort((a, b) => (largest ? b - a : a - b));
    return xs[i - 1] as number;
  };
}

export const STATS: FnTable = {
  COUNT: { min: 1, max: 255, call: count },
  COUNTA: { min: 1, max: 255, call: counta },
  COUNTBLANK: { min: 1, max: 1, call: countblank },
  COUNTIF: { min: 2, max: 2, call: countifs },
  COUNTIFS: { min: 2, max: 254, call: countifs },
  AVERAGE: { min: 1, max: 255, call: average },
  AVERAGEIF: { min: 2, max: 3, call: averageif },
  AVERAGEIFS: { min: 3, max: 255, call: averageifs },
  MIN: { min: 1, max: 255, call: extreme("min") },
  MAX: { min: 1, max: 255, call: extreme("max") },
  MEDIAN: { min: 1, max: 255, call: median },
  "STDEV.S": { min: 1, max: 255, call: stdev },
  STDEV: { min: 1, max: 255, call: stdev },
  "VAR.S": { min: 1, max: 255, call: (args, ctx) => variance(args, ctx) },
  LARGE: { min: 2, max: 2, call: kth(true) },
  SMALL: { min: 2, max: 2, call: kth(false) },
};
