// Arguments as whole arrays, for the dynamic-array, lookup and LAMBDA functions: a range is read
// into an array (charged to the budget first, by rangeToArray), a single value is a 1 × 1 array.
import { toNumber } from "../coerce.ts";
import type { EvalContext } from "../context.ts";
import { rangeToArray } from "../ops.ts";
import { ERR, isArray, isError, isLambda, isRange, type ArrayValue, type FormulaError, type Scalar, type Value } from "../values.ts";
import { MAX_COLUMNS, MAX_ROWS } from "../../cells/types.ts";

/** An argument as an array; a reference of several areas is #VALUE!, a LAMBDA #CALC!. */
export function arrayOf(v: Value | undefined, ctx: EvalContext): ArrayValue | FormulaError {
  if (v === undefined || v === null) return [[null]];
  if (isRange(v)) return v.areas ? ERR.VALUE : v.single ? [[ctx.value(v.sid, v.top, v.left)]] : rangeToArray(v, ctx);
  if (isArray(v)) return v;
  if (isLambda(v)) return ERR.CALC;
  return [[v]];
}

export const rowsOf = (a: ArrayValue): number => a.length;
export const colsOf = (a: ArrayValue): number => a[0]?.length ?? 0;

/**
 * An array of `rows` × `cols` from a function of the position; #VALUE! past a sheet's size. Its
 * size is refused before it is allocated (SHEETS_MAX_ARRAY_CELLS) and each row charged as it is
 * filled, so a costly `at` (a LAMBDA's) meets the clock.
 */
export function build(rows: number, cols: number, at: (r: number, c: number) => Scalar, ctx: EvalContext): ArrayValue | FormulaError {
  if (rows < 1 || cols < 1) return ERR.CALC;
  if (rows > MAX_ROWS || cols > MAX_COLUMNS) return ERR.VALUE;
  ctx.cells(rows * cols);
  const out: ArrayValue = new Array(rows);
  for (let r = 0; r < rows; r++) {
    const row: Scalar[] = new Array(cols);
    for (let c = 0; c < cols; c++) row[c] = at(r, c);
    out[r] = row;
    ctx.step(cols);
  }
  return out;
}

/** The array's values row by row (or column by column). */
export function flatten(a: ArrayValue, byColumn = false): Scalar[] {
  const out: Scalar[] = [];
  if (!byColumn) for (const row of a) for (const v of row) out.push(v);
  else for (let c = 0; c < colsOf(a); c++) for (let r = 0; r < rowsOf(a); r++) out.push(a[r]?.[c] ?? null);
  return out;
}

/** A whole number argument (truncated), `fallback` when omitted or empty. */
export function integer(v: Scalar | undefined, fallback: number): number | FormulaError {
  if (v === undefined || v === null) return fallback;
  if (isError(v)) return v;
  const n = toNumber(v);
  return isError(n) ? n : Number.isFinite(n) ? Math.trunc(n) : ERR.NUM;
}
