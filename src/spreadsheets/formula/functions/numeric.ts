// Building blocks shared by the numeric function families (trig, arithmetic, statistics,
// distributions, engineering): scalar arguments converted as Excel converts them, results that are
// not finite numbers turned into #NUM!, and argument lists read as Excel's aggregates read them.
import type { EvalContext } from "../context.ts";
import { toNumber } from "../coerce.ts";
import { rangeToArray } from "../ops.ts";
import { ERR, type ArrayValue, type FormulaError, isArray, isError, isRange, type Scalar, type Value } from "../values.ts";

export type Num = number | FormulaError;

/** A result as a cell keeps it: NaN and ±Infinity are #NUM!. */
export const finite = (n: number): Num => (Number.isFinite(n) ? n : ERR.NUM);

/**
 * A scalar function of numbers (the `scalar` calling convention): each argument converted (text
 * that reads as a number, TRUE as 1, an empty cell as 0; the first error met is the answer),
 * omitted trailing arguments take `defaults`, the result is checked to be finite.
 */
export function numeric(f: (...xs: number[]) => Scalar, defaults: number[] = []) {
  return (args: Scalar[]): Scalar => {
    const xs: number[] = [];
    for (let i = 0; i < Math.max(args.length, defaults.length); i++) {
      const a = args[i];
      const n = a === undefined ? (defaults[i] as number) : toNumber(a);
      if (typeof n !== "number") return n;
      xs.push(n);
    }
    const r = f(...xs);
    return typeof r === "number" ? finite(r) : r;
  };
}

/** Excel's integer arguments: truncated toward zero. */
export const trunc = (x: number): number => Math.trunc(x) || 0;

/** A rectangle of an argument's values: a reference read in full (charged), an array, a scalar as 1×1. */
export interface Cells {
  rows: number;
  columns: number;
  values: Scalar[];
  /** The argument was a reference or an array (so text and booleans in it are skipped, not converted). */
  fromRange: boolean;
}

export function cellsOf(v: Value, ctx: EvalContext): Cells | FormulaError {
  if (isRange(v)) {
    const a = rangeToArray(v, ctx);
    return { rows: v.rows, columns: v.columns, values: a.flat(), fromRange: true };
  }
  if (isArray(v)) return arrayCells(v);
  if (isError(v)) return v;
  return { rows: 1, columns: 1, values: [v], fromRange: false };
}

function arrayCells(a: ArrayValue): Cells {
  return { rows: a.length, columns: a[0]?.length ?? 0, values: a.flat(), fromRange: true };
}

/**
 * Two arguments read as pairs of numbers (CORREL, SLOPE, COVARIANCE …): both must hold as many
 * values (else #N/A); a pair counts when both of its values are numbers; an error in either is the answer.
 */
export function pairs(a: Value, b: Value, ctx: EvalContext): { xs: number[]; ys: number[] } | FormulaError {
  const x = cellsOf(a, ctx);
  if (isError(x)) return x;
  const y = cellsOf(b, ctx);
  if (isError(y)) return y;
  if (x.values.length !== y.values.length) return ERR.NA;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < x.values.length; i++) {
    const u = scalarNumber(x.values[i] ?? null, x.fromRange);
    const w = scalarNumber(y.values[i] ?? null, y.fromRange);
    if (isError(u)) return u;
    if (isError(w)) return w;
    if (u === null || w === null) continue;
    xs.push(u);
    ys.push(w);
  }
  return { xs, ys };
}

/** A value inside a reference or array as a number, or null when it is skipped; typed values convert. */
function scalarNumber(v: Scalar, fromRange: boolean): number | null | FormulaError {
  if (typeof v === "number") return v;
  if (isError(v)) return v;
  if (fromRange || v === null) return null;
  return toNumber(v);
}

/**
 * The values of the "A" functions (AVERAGEA, MAXA, VARA …): inside references and arrays text
 * counts as 0 and booleans as 1 or 0, empty cells are skipped; typed arguments convert (text that
 * does not read as a number is #VALUE!).
 */
export function numbersA(args: Value[], ctx: EvalContext): number[] | FormulaError {
  return gather(args, ctx, true, (v, out) => {
    if (typeof v === "number") out.push(v);
    else if (typeof v === "boolean") out.push(v ? 1 : 0);
    else if (typeof v === "string") out.push(0);
    else if (isError(v)) return v;
    return null;
  });
}

export const sumOf = (xs: number[]): number => {
  let s = 0;
  for (const x of xs) s += x;
  return s;
};

export const meanOf = (xs: number[]): number => sumOf(xs) / xs.length;

/** Σ(x − mean)², computed around the mean in two passes (as Excel does, for accuracy). */
export function devsq(xs: number[]): number {
  const m = meanOf(xs);
  let s = 0;
  for (const x of xs) s += (x - m) * (x - m);
  return s;
}

/**
 * Numbers for the functions that take nothing else (GCD, LCM, MULTINOMIAL, SERIESSUM's
 * coefficients): inside references and arrays empty cells are skipped, but text or a boolean is
 * #VALUE!; typed arguments convert.
 */
export function strictNumbers(args: Value[], ctx: EvalContext): number[] | FormulaError {
  return gather(args, ctx, false, (v, out) => {
    if (typeof v === "number") out.push(v);
    else if (v !== null) return isError(v) ? v : ERR.VALUE;
    return null;
  });
}

/**
 * The numbers of `args` as numbersA and strictNumbers read them: each value inside a reference or
 * array given to `take` (an error it answers stops that walk, and is the answer), each typed
 * argument converted (null skipped when `skipNull`).
 */
function gather(
  args: Value[],
  ctx: EvalContext,
  skipNull: boolean,
  take: (v: Scalar, out: number[]) => FormulaError | null,
): number[] | FormulaError {
  const out: number[] = [];
  let error: FormulaError | null = null;
  const inRange = (v: Scalar): boolean => {
    const met = take(v, out);
    if (met === null) return true;
    error = met;
    return false;
  };
  for (const arg of args) {
    if (isRange(arg)) ctx.forEach(arg, inRange);
    else if (isArray(arg)) {
      ctx.step(arg.length * (arg[0]?.length ?? 0));
      for (const row of arg) for (const v of row) if (!inRange(v)) break;
    } else if (arg !== null || !skipNull) {
      const n = toNumber(arg);
      if (isError(n)) return n;
      out.push(n);
    }
    if (error) return error;
  }
  return out;
}

/** A quotient or product cleaned to the 15 significant digits Excel computes with (1.3/0.2 is 6.5, not 6.4999…). */
export const clean15 = (x: number): number => (Number.isFinite(x) && x !== 0 ? Number(x.toPrecision(15)) : x);
