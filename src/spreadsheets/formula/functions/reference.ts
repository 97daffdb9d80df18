// More Lookup & Reference: LOOKUP (vector and array forms), XMATCH, INDIRECT and OFFSET (within
// the workbook, volatile: recomputed on every write, so what they reach is read again), AREAS,
// ADDRESS, GETPIVOTDATA (no pivot tables here: #REF!), and the .xlsx spellings of "@" and "#"
// (SINGLE, ANCHORARRAY).
import { quoteSheetName } from "../../cells/a1.ts";
import { columnName } from "../../cells/cells.ts";
import { MAX_COLUMNS, MAX_ROWS } from "../../cells/types.ts";
import { implicitIntersection } from "../compile-refs.ts";
import type { EvalContext } from "../context.ts";
import { toBoolean, toText } from "../coerce.ts";
import { ERR, isError, isRange, RangeValue, type FormulaError, type Scalar, type Value } from "../values.ts";
import { gridOf, numberArg, scalarArg } from "./args.ts";
import { integer } from "./arrays.ts";
import { column, lineOf, lookupValue, row, xsearch } from "./lookup.ts";
import { findSorted } from "./search.ts";
import type { FnTable } from "./spec.ts";

/** LOOKUP: approximate (binary) search in sorted data, the result from the same position of another vector. */
function lookup(args: Value[], ctx: EvalContext): Value {
  const value = lookupValue(args[0], ctx);
  if (isError(value)) return value;
  const g = gridOf(args[1] as Value, ctx);
  if (isError(g)) return g;
  if (args[2] === undefined) {
    // Array form: search the first row of a wide array or the first column of a tall one; answer from the last.
    const wide = g.columns > g.rows;
    const i = findSorted(wide ? row(g, 0) : column(g, 0), value);
    if (i < 0) return ERR.NA;
    return wide ? g.at(g.rows - 1, i) : g.at(i, g.columns - 1);
  }
  if (g.rows !== 1 && g.columns !== 1) return ERR.NA;
  const i = findSorted(g.columns === 1 ? column(g, 0) : row(g, 0), value);
  if (i < 0) return ERR.NA;
  const result = args[2];
  if (isRange(result) && !result.areas) {
    // Excel reads a shorter result vector on, past its end, in its own direction.
    const down = result.rows > 1 || result.columns === 1;
    return down
      ? new RangeValue(result.sid, result.top + i, result.left, result.top + i, result.left)
      : new RangeValue(result.sid, result.top, result.left + i, result.top, result.left + i);
  }
  const r = gridOf(result, ctx);
  if (isError(r)) return r;
  if (r.rows !== 1 && r.columns !== 1) return ERR.NA;
  const line = r.columns === 1 ? column(r, 0) : row(r, 0);
  return i < line.length ? line.at(i) : ERR.NA;
}

function xmatch(args: (Value | undefined)[], ctx: EvalContext): Value {
  const value = lookupValue(args[0], ctx);
  if (isError(value)) return value;
  const line = lineOf(args[1] as Value, ctx);
  if (isError(line)) return line === ERR.NA ? ERR.VALUE : line;
  const mode = integer(scalarArg(args[2] ?? null, ctx), 0);
  const search = integer(scalarArg(args[3] ?? null, ctx), 1);
  if (isError(mode)) return mode;
  if (isError(search)) return search;
  const i = xsearch(line, value, mode, search);
  return isError(i) ? i : i < 0 ? ERR.NA : i + 1;
}

function indirect(args: Value[], ctx: EvalContext): Value {
  const text = toText(scalarArg(args[0], ctx));
  if (isError(text)) return text;
  const a1 = args[1] === undefined || args[1] === null ? true : toBoolean(scalarArg(args[1], ctx));
  if (isError(a1)) return a1;
  return ctx.reference ? ctx.reference(text, a1) : ERR.REF;
}

function offset(args: Value[], ctx: EvalContext): Value {
  const ref = args[0];
  if (isError(ref)) return ref;
  if (!isRange(ref) || ref.areas) return ERR.VALUE;
  const n = (v: Value | undefined, fallback: number): number | FormulaError => {
    if (v === undefined || v === null) return fallback;
    const x = numberArg(v, ctx);
    return typeof x === "number" ? Math.trunc(x) : x;
  };
  const [rows, cols, height, width] = [n(args[1], 0), n(args[2], 0), n(args[3], ref.rows), n(args[4], ref.columns)];
  for (const x of [rows, cols, height, width]) if (isError(x)) return x;
  const [r, c, h, w] = [rows, cols, height, width] as number[];
  if (h === 0 || w === 0) return ERR.REF;
  const top = ref.top + (r as number);
  const left = ref.left + (c as number);
  // A negative height or width reaches up or left from the moved corner (as Excel does).
  const [t, b] = (h as number) > 0 ? [top, top + (h as number) - 1] : [top + (h as number) + 1, top];
  const [l, rt] = (w as number) > 0 ? [left, left + (w as number) - 1] : [left + (w as number) + 1, left];
  if (t < 0 || l < 0 || b >= MAX_ROWS || rt >= MAX_COLUMNS) return ERR.REF;
  return new RangeValue(ref.sid, t, l, b, rt);
}

function areas(args: Value[]): Value {
  const ref = args[0];
  if (isError(ref)) return ref;
  if (!isRange(ref)) return ERR.VALUE;
  return ref.areas ? ref.areas.length : 1;
}

/** ADDRESS(row, column, [abs_num], [a1], [sheet_text]). */
function address(args: Scalar[]): Scalar {
  const r = integer(args[0] ?? null, NaN);
  const c = integer(args[1] ?? null, NaN);
  const abs = integer(args[2] ?? null, 1);
  const a1 = args[3] === undefined || args[3] === null ? true : toBoolean(args[3]);
  for (const x of [r, c, abs, a1]) if (isError(x)) return x;
  const [row, col, mode] = [r, c, abs] as [number, number, number];
  if (!(row >= 1 && row <= MAX_ROWS && col >= 1 && col <= MAX_COLUMNS) || !(mode >= 1 && mode <= 4)) return ERR.VALUE;
  const rowAbs = mode === 1 || mode === 2;
  const colAbs = mode === 1 || mode === 3;
  const cell = a1
    ? `${colAbs ? "$" : ""}${columnName(col - 1)}${rowAbs ? "$" : ""}${row}`
    : `R${rowAbs ? row : `[${row}]`}C${colAbs ? col : `[${col}]`}`;
  if (args[4] === undefined || args[4] === null) return cell;
  const sheet = toText(args[4]);
  if (isError(sheet)) return sheet;
  return `${sheet === "" ? "" : sheetPrefix(sheet, a1 === true)}!${cell}`;
}

/**
 * The sheet as ADDRESS writes it: quoted when it needs to be. Excel leaves a "[Book1]Sheet1" with a
 * workbook prefix unquoted in A1 style ("[Book1]Sheet1!$C2", its cached value in POI's corpus) but
 * quotes it in R1C1 style ("'[Book1]Sheet1'!R2C3", Microsoft's example).
 */
function sheetPrefix(sheet: string, a1: boolean): string {
  const book = /^(\[[^\]\s']+\])(.+)$/.exec(sheet);
  if (a1 && book && quoteSheetName(book[2] as string) === book[2]) return sheet;
  return quoteSheetName(sheet);
}

export const REFERENCE: FnTable = {
  LOOKUP: { min: 2, max: 3, call: lookup, liftArgs: [0] },
  XMATCH: { min: 2, max: 4, call: xmatch as FnTable[string]["call"], keepOmitted: true, liftArgs: [0] },
  INDIRECT: { min: 1, max: 2, call: indirect, liftArgs: [0, 1], volatile: true },
  OFFSET: { min: 3, max: 5, call: offset, liftArgs: [1, 2, 3, 4], volatile: true },
  AREAS: { min: 1, max: 1, call: areas, areas: true },
  ADDRESS: { min: 2, max: 5, scalar: address },
  // No pivot tables are kept: Excel's answer for data it cannot find.
  GETPIVOTDATA: { min: 2, max: 254, call: () => ERR.REF },
  SINGLE: { min: 1, max: 1, call: (args, ctx) => implicitIntersection(args[0] as Value, ctx) },
  ANCHORARRAY: {
    min: 1,
    max: 1,
    call: (args, ctx) => {
      const ref = args[0];
      if (isError(ref)) return ref;
      if (!isRange(ref) || ref.areas) return ERR.REF;
      return ctx.spillRange ? ctx.spillRange(ref.sid, ref.top, ref.left) : ERR.REF;
    },
  },
};
