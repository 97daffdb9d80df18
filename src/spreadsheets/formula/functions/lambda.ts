// Functions that call a LAMBDA: MAP, REDUCE, SCAN, BYROW, BYCOL, MAKEARRAY. LET, LAMBDA and
// ISOMITTED are syntax the compiler builds (../compile-lambda.ts), listed here for the function table.
import { invoke } from "../compile-lambda.ts";
import type { EvalContext } from "../context.ts";
import { ERR, isArray, isError, isLambda, isRange, OMITTED, RangeValue, type ArrayValue, type Scalar, type Value } from "../values.ts";
import { scalarArg } from "./args.ts";
import { arrayOf, build, colsOf, integer, rowsOf } from "./arrays.ts";
import type { FnTable } from "./spec.ts";

/** Written as calls but compiled as syntax: what the function table lists besides FUNCTIONS. */
export const SYNTAX_FUNCTIONS = ["LET", "LAMBDA", "ISOMITTED"] as const;

/** One value of a LAMBDA's result, where one is wanted: a nested array or a range is #CALC!, as in Excel. */
function one(v: Value, ctx: EvalContext): Scalar {
  if (isRange(v)) return v.single && !v.areas ? ctx.value(v.sid, v.top, v.left) : ERR.CALC;
  if (isArray(v)) return v.length === 1 && v[0]?.length === 1 ? (v[0][0] ?? null) : ERR.CALC;
  return isLambda(v) ? ERR.CALC : v;
}

const lambdaArg = (v: Value | undefined): Value | null => (v !== undefined && isLambda(v) ? v : null);

function map(args: Value[], ctx: EvalContext): Value {
  const fn = lambdaArg(args[args.length - 1]);
  if (!fn) return ERR.VALUE;
  const arrays: ArrayValue[] = [];
  for (const arg of args.slice(0, -1)) {
    const a = arrayOf(arg, ctx);
    if (isError(a)) return a;
    arrays.push(a);
  }
  const rows = Math.max(...arrays.map(rowsOf));
  const cols = Math.max(...arrays.map(colsOf));
  // Arrays of another size are padded with #N/A (a single value repeats), as Excel's MAP does.
  const at = (a: ArrayValue, r: number, c: number): Scalar =>
    rowsOf(a) === 1 && colsOf(a) === 1 ? (a[0]?.[0] ?? null) : r < rowsOf(a) && c < colsOf(a) ? (a[r]?.[c] ?? null) : ERR.NA;
  return build(
    rows,
    cols,
    (r, c) =>
      one(
        invoke(
          fn,
          arrays.map((a) => at(a, r, c)),
          ctx,
        ),
        ctx,
      ),
    ctx,
  );
}

/** REDUCE and SCAN: an accumulator through the array's values, row by row. */
function fold(scan: boolean) {
  return (args: (Value | undefined)[], ctx: EvalContext): Value => {
    const fn = lambdaArg(args[2]);
    if (!fn) return ERR.VALUE;
    const a = arrayOf(args[1], ctx);
    if (isError(a)) return a;
    let acc: Value = args[0] === undefined ? (OMITTED as unknown as Value) : (args[0] as Value);
    const steps: Scalar[] = [];
    for (const row of a)
      for (const v of row) {
        acc = invoke(fn, [acc, v], ctx);
        if (scan) steps.push(one(acc, ctx));
      }
    if (!scan) return acc === (OMITTED as unknown) ? ERR.CALC : acc;
    return build(rowsOf(a), colsOf(a), (r, c) => steps[r * colsOf(a) + c] ?? null, ctx);
  };
}

/** BYROW / BYCOL: the LAMBDA given each row (column), a reference when the array is one, one value back each. */
function by(rows: boolean) {
  return (args: Value[], ctx: EvalContext): Value => {
    const fn = lambdaArg(args[1]);
    if (!fn) return ERR.VALUE;
    const src = args[0] as Value;
    if (isRange(src) && !src.areas) {
      const n = rows ? src.rows : src.columns;
      const line = (i: number) =>
        rows
          ? new RangeValue(src.sid, src.top + i, src.left, src.top + i, src.right)
          : new RangeValue(src.sid, src.top, src.left + i, src.bottom, src.left + i);
      const at = (i: number) => one(invoke(fn, [line(i)], ctx), ctx);
      return rows ? build(n, 1, (r) => at(r), ctx) : build(1, n, (_, c) => at(c), ctx);
    }
    const a = arrayOf(src, ctx);
    if (isError(a)) return a;
    const line = (i: number): ArrayValue => (rows ? [a[i] ?? []] : a.map((row) => [row[i] ?? null]));
    const at = (i: number) => one(invoke(fn, [line(i)], ctx), ctx);
    return rows ? build(rowsOf(a), 1, (r) => at(r), ctx) : build(1, colsOf(a), (_, c) => at(c), ctx);
  };
}

function makearray(args: Value[], ctx: EvalContext): Value {
  const fn = lambdaArg(args[2]);
  if (!fn) return ERR.VALUE;
  const rows = integer(scalarArg(args[0], ctx), 0);
  const cols = integer(scalarArg(args[1], ctx), 0);
  if (isError(rows)) return rows;
  if (isError(cols)) return cols;
  if (rows < 1 || cols < 1) return ERR.VALUE;
  return build(rows, cols, (r, c) => one(invoke(fn, [r + 1, c + 1], ctx), ctx), ctx);
}

export const LAMBDAS: FnTable = {
  MAP: { min: 2, max: 254, call: map, lambda: true },
  REDUCE: { min: 3, max: 3, call: fold(false) as FnTable[string]["call"], lambda: true, keepOmitted: true },
  SCAN: { min: 3, max: 3, call: fold(true) as FnTable[string]["call"], lambda: true, keepOmitted: true },
  BYROW: { min: 2, max: 2, call: by(true), lambda: true },
  BYCOL: { min: 2, max: 2, call: by(false), lambda: true },
  MAKEARRAY: { min: 3, max: 3, call: makearray, lambda: true },
};
