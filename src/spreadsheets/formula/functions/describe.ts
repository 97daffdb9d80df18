// Descriptive statistics: the variance and deviation families (.S/.P and the A forms), MAXA/MINA/
// AVERAGEA, AVEDEV, DEVSQ, the means (GEOMEAN, HARMEAN, TRIMMEAN), shape (KURT, SKEW, SKEW.P),
// STANDARDIZE, MODE. Numbers are read as Excel's aggregates read them (args.ts): in references
// only numbers count; the A forms count text as 0 and booleans as 1/0 (numeric.ts).
import type { EvalContext } from "../context.ts";
import { ERR, type FormulaError, isError, type Scalar, type Value } from "../values.ts";
import { numbers } from "./args.ts";
import { devsq, finite, meanOf, numbersA, numeric, sumOf } from "./numeric.ts";
import type { FnTable } from "./spec.ts";

type Reader = (args: Value[], ctx: EvalContext) => number[] | FormulaError;

/** A function of the argument list's numbers (read by `read`), its answer checked. */
function ofNumbers(f: (xs: number[]) => Scalar, read: Reader = numbers) {
  return (args: Value[], ctx: EvalContext): Value => {
    const xs = read(args, ctx);
    if (isError(xs)) return xs;
    const r = f(xs);
    return typeof r === "number" ? finite(r) : r;
  };
}

const sample = (xs: number[]): Scalar => (xs.length < 2 ? ERR.DIV0 : devsq(xs) / (xs.length - 1));
const population = (xs: number[]): Scalar => (xs.length < 1 ? ERR.DIV0 : devsq(xs) / xs.length);
const root = (f: (xs: number[]) => Scalar) => (xs: number[]) => {
  const v = f(xs);
  return typeof v === "number" ? Math.sqrt(v) : v;
};

function avedev(xs: number[]): Scalar {
  if (xs.length === 0) return ERR.NUM;
  const m = meanOf(xs);
  return sumOf(xs.map((x) => Math.abs(x - m))) / xs.length;
}

function geomean(xs: number[]): Scalar {
  if (xs.length === 0 || xs.some((x) => x <= 0)) return ERR.NUM;
  return Math.exp(sumOf(xs.map(Math.log)) / xs.length);
}

function harmean(xs: number[]): Scalar {
  if (xs.length === 0 || xs.some((x) => x <= 0)) return ERR.NUM;
  return xs.length / sumOf(xs.map((x) => 1 / x));
}

function kurt(xs: number[]): Scalar {
  const n = xs.length;
  const v = sample(xs);
  if (n < 4 || typeof v !== "number" || v === 0) return ERR.DIV0;
  const m = meanOf(xs);
  const s4 = sumOf(xs.map((x) => ((x - m) * (x - m)) ** 2)) / (v * v);
  return ((n * (n + 1)) / ((n - 1) * (n - 2) * (n - 3))) * s4 - (3 * (n - 1) ** 2) / ((n - 2) * (n - 3));
}

function skew(xs: number[]): Scalar {
  const n = xs.length;
  const v = sample(xs);
  if (n < 3 || typeof v !== "number" || v === 0) return ERR.DIV0;
  const m = meanOf(xs);
  const s = Math.sqrt(v);
  return (n / ((n - 1) * (n - 2))) * sumOf(xs.map((x) => ((x - m) / s) ** 3));
}

function skewP(xs: number[]): Scalar {
  const v = population(xs);
  if (typeof v !== "number" || v === 0) return ERR.DIV0;
  const m = meanOf(xs);
  const s = Math.sqrt(v);
  return sumOf(xs.map((x) => ((x - m) / s) ** 3)) / xs.length;
}

function trimmean(args: Value[], ctx: EvalContext): Value {
  const xs = numbers(args.slice(0, 1), ctx);
  if (isError(xs)) return xs;
  const p = numbers(args.slice(1, 2), ctx);
  if (isError(p)) return p;
  const percent = p[0] ?? 0;
  if (percent < 0 || percent >= 1 || xs.length === 0) return ERR.NUM;
  // Excel drops the same number of points at each end: the count rounded down to a multiple of 2.
  const k = Math.floor((xs.length * percent) / 2);
  xs.sort((a, b) => a - b);
  return meanOf(xs.slice(k, xs.length - k));
}

/** The modes in order of first appearance (MODE.MULT), or the first (MODE, MODE.SNGL); #N/A when no value repeats. */
function modes(xs: number[]): number[] {
  const counts = new Map<number, number>();
  let best = 1;
  for (const x of xs) {
    const c = (counts.get(x) ?? 0) + 1;
    counts.set(x, c);
    if (c > best) best = c;
  }
  if (best < 2) return [];
  return [...counts].filter(([, c]) => c === best).map(([x]) => x);
}

/** MODE's direct arguments must be numbers: text (even "1") or a boolean written in the call is #VALUE!, as in Excel. */
function directProblem(args: Value[]): FormulaError | null {
  for (const a of args) {
    if (isError(a)) return a;
    if (typeof a === "string" || typeof a === "boolean") return ERR.VALUE;
  }
  return null;
}

function mode(args: Value[], ctx: EvalContext): Value {
  const problem = directProblem(args);
  if (problem) return problem;
  const xs = numbers(args, ctx);
  if (isError(xs)) return xs;
  return modes(xs)[0] ?? ERR.NA;
}

function modeMult(args: Value[], ctx: EvalContext): Value {
  const problem = directProblem(args);
  if (problem) return problem;
  const xs = numbers(args, ctx);
  if (isError(xs)) return xs;
  const found = modes(xs);
  return found.length === 0 ? ERR.NA : found.map((x) => [x]);
}

function extremeA(which: "min" | "max") {
  return ofNumbers((xs) => {
    if (xs.length === 0) return 0;
    let r = xs[0] as number;
    for (const x of xs) if (which === "min" ? x < r : x > r) r = x;
    return r;
  }, numbersA);
}

function standardize(x: number, mean: number, sd: number): Scalar {
  return sd <= 0 ? ERR.NUM : (x - mean) / sd;
}

export const DESCRIBE: FnTable = {
  VAR: { min: 1, max: 255, call: ofNumbers(sample) },
  VARP: { min: 1, max: 255, call: ofNumbers(population) },
  "VAR.P": { min: 1, max: 255, call: ofNumbers(population) },
  VARA: { min: 1, max: 255, call: ofNumbers(sample, numbersA) },
  VARPA: { min: 1, max: 255, call: ofNumbers(population, numbersA) },
  STDEVP: { min: 1, max: 255, call: ofNumbers(root(population)) },
  "STDEV.P": { min: 1, max: 255, call: ofNumbers(root(population)) },
  STDEVA: { min: 1, max: 255, call: ofNumbers(root(sample), numbersA) },
  STDEVPA: { min: 1, max: 255, call: ofNumbers(root(population), numbersA) },
  MAXA: { min: 1, max: 255, call: extremeA("max") },
  MINA: { min: 1, max: 255, call: extremeA("min") },
  AVERAGEA: { min: 1, max: 255, call: ofNumbers((xs) => (xs.length === 0 ? ERR.DIV0 : meanOf(xs)), numbersA) },
  AVEDEV: { min: 1, max: 255, call: ofNumbers(avedev) },
  DEVSQ: { min: 1, max: 255, call: ofNumbers((xs) => (xs.length === 0 ? ERR.NUM : devsq(xs))) },
  GEOMEAN: { min: 1, max: 255, call: ofNumbers(geomean) },
  HARMEAN: { min: 1, max: 255, call: ofNumbers(harmean) },
  TRIMMEAN: { min: 2, max: 2, call: trimmean },
  KURT: { min: 1, max: 255, call: ofNumbers(kurt) },
  SKEW: { min: 1, max: 255, call: ofNumbers(skew) },
  "SKEW.P": { min: 1, max: 255, call: ofNumbers(skewP) },
  STANDARDIZE: { min: 3, max: 3, scalar: numeric(standardize) },
  MODE: { min: 1, max: 255, call: mode },
  "MODE.SNGL": { min: 1, max: 255, call: mode },
  "MODE.MULT": { min: 1, max: 255, call: modeMult },
};
