// Reading function arguments the way Excel's aggregate functions do: inside a reference or an
// array only numbers count (text, booleans and empty cells are skipped, errors propagate); an
// argument written directly counts when it converts (TRUE is 1, "3" is 3, "x" is #VALUE!).
import { newTotals, type EvalContext, type Totals } from "../context.ts";
import { toNumber, toText } from "../coerce.ts";
import { toOperand } from "../ops.ts";
import { ERR, type FormulaError, isArray, isError, isRange, type Scalar, type Value } from "../values.ts";

/** Calls `fn` with each number of the arguments; returns the first error met, or null. */
export function eachNumber(args: Value[], ctx: EvalContext, fn: (n: number) => void): FormulaError | null {
  let error: FormulaError | null = null;
  for (const arg of args) {
    if (isRange(arg)) {
      ctx.forEach(arg, (v) => {
        if (typeof v === "number") fn(v);
        else if (isError(v)) return (void (error = v), false);
      });
    } else if (isArray(arg)) {
      for (const row of arg)
        for (const v of row) {
          if (typeof v === "number") fn(v);
          else if (isError(v)) return v;
        }
    } else if (arg !== null) {
      const n = toNumber(arg);
      if (typeof n !== "number") return n;
      fn(n);
    }
    if (error) return error;
  }
  return null;
}

/** Totals of the arguments' numbers (ranges through the context's fast path), or the first error. */
export function totalsOf(args: Value[], ctx: EvalContext): Totals | FormulaError {
  const totals = newTotals();
  const add = (n: number) => {
    totals.sum += n;
    totals.count++;
    if (n < totals.min) totals.min = n;
    if (n > totals.max) totals.max = n;
  };
  for (const arg of args) {
    // Argument by argument, so the first error in Excel's order is the one returned.
    if (isRange(arg)) ctx.totals(arg, totals);
    else totals.error ??= eachNumber([arg], ctx, add);
    if (totals.error) return totals.error;
  }
  return totals;
}

/** The numbers of the arguments as a list, or the first error. */
export function numbers(args: Value[], ctx: EvalContext): number[] | FormulaError {
  const out: number[] = [];
  const error = eachNumber(args, ctx, (n) => out.push(n));
  return error ?? out;
}

/** Every value of the arguments, cells of references included (their empty cells too, as null, when `withEmpty`). */
export function eachValue(args: Value[], ctx: EvalContext, fn: (v: Scalar) => void, withEmpty = false): void {
  for (const arg of args) {
    if (isRange(arg) && withEmpty) {
      for (let r = arg.top; r <= arg.bottom; r++) {
        ctx.step(arg.columns);
        for (let c = arg.left; c <= arg.right; c++) fn(ctx.value(arg.sid, r, c));
      }
    } else if (isRange(arg)) ctx.forEach(arg, (v) => void fn(v));
    else if (isArray(arg)) for (const row of arg) for (const v of row) fn(v);
    else fn(arg);
  }
}

/** A scalar argument: a single cell is read; a larger reference is #VALUE! (no implicit intersection here). */
export function scalarArg(v: Value | undefined, ctx: EvalContext): Scalar {
  if (v === undefined) return null;
  const s = toOperand(v, ctx);
  return isArray(s) ? (s[0]?.[0] ?? null) : s;
}

export function numberArg(v: Value | undefined, ctx: EvalContext, fallback?: number): number | FormulaError {
  if (v === undefined || (v === null && fallback !== undefined)) return fallback ?? 0;
  return toNumber(scalarArg(v, ctx));
}

export function textArg(v: Value | undefined, ctx: EvalContext): string | FormulaError {
  return toText(scalarArg(v, ctx));
}

/** A 2-D view of a reference or array argument for the lookup functions, read cell by cell (each read a step of the budget). */
export interface Grid {
  rows: number;
  columns: number;
  /** Of a reference: the rows (columns) from its top (left) within the sheet's used area; beyond them every cell is empty. */
  filledRows?: number;
  filledColumns?: number;
  at(row: number, col: number): Scalar;
}

export function gridOf(v: Value, ctx: EvalContext): Grid | FormulaError {
  if (isRange(v)) {
    const used = ctx.used(v.sid);
    const rows = v.rows;
    return {
      rows,
      columns: v.columns,
      filledRows: used ? Math.max(0, Math.min(rows, used.bottom - v.top + 1)) : 0,
      filledColumns: used ? Math.max(0, Math.min(v.columns, used.right - v.left + 1)) : 0,
      at: (r, c) => {
        ctx.step(1);
        const row = v.top + r;
        const col = v.left + c;
        return used === null || row > used.bottom || col > used.right ? null : ctx.value(v.sid, row, col);
      },
    };
  }
  if (isArray(v))
    return {
      rows: v.length,
      columns: v[0]?.length ?? 0,
      at: (r, c) => {
        ctx.step(1);
        return v[r]?.[c] ?? null;
      },
    };
  if (isError(v)) return v;
  return { rows: 1, columns: 1, at: () => v };
}

export const VALUE_ERROR = ERR.VALUE;
