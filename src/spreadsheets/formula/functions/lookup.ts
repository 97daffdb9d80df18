// Lookup and reference functions: VLOOKUP, HLOOKUP, XLOOKUP, MATCH, INDEX, ROW(S), COLUMN(S).
// Their one-value arguments (the lookup value, INDEX's row and column) lift over arrays, as in
// Excel 365: =XLOOKUP(E2:E9,A:A,B:B) gives one result a row.
import type { EvalContext } from "../context.ts";
import { ERR, isArray, isError, isRange, RangeValue, type FormulaError, type Scalar, type Value } from "../values.ts";
import { gridOf, numberArg, scalarArg, type Grid } from "./args.ts";
import { build } from "./arrays.ts";
import { findBinary, findDescending, findExact, findNearest, findSorted, type Line } from "./search.ts";
import type { FnTable } from "./spec.ts";

export const column = (g: Grid, c: number): Line => ({ length: g.rows, filled: g.filledRows ?? g.rows, at: (i) => g.at(i, c) });
export const row = (g: Grid, r: number): Line => ({ length: g.columns, filled: g.filledColumns ?? g.columns, at: (i) => g.at(r, i) });

/** Line `k` (a column when `vertical`) of a reference, with the recalculation's exact-match index of it; `line` as it is for values. */
export function indexed(v: Value, vertical: boolean, line: Line, ctx: EvalContext): Line {
  if (!isRange(v) || v.areas || !ctx.exactIndex) return line;
  const part = vertical ? new RangeValue(v.sid, v.top, v.left, v.bottom, v.left) : new RangeValue(v.sid, v.top, v.left, v.top, v.right);
  return { ...line, index: () => ctx.exactIndex?.(part) ?? null };
}

/** The value looked up: an empty cell is 0 (Excel's rule for the lookup functions). */
export function lookupValue(v: Value | undefined, ctx: EvalContext): Scalar {
  const s = scalarArg(v, ctx);
  return s === null ? 0 : s;
}

function vhlookup(vertical: boolean) {
  return (args: Value[], ctx: EvalContext): Value => {
    const value = lookupValue(args[0], ctx);
    if (isError(value)) return value;
    const table = gridOf(args[1] as Value, ctx);
    if (isError(table)) return table;
    const index = numberArg(args[2], ctx);
    if (typeof index !== "number") return index;
    const approx = args[3] === undefined ? true : scalarArg(args[3], ctx);
    if (isError(approx)) return approx;
    const k = Math.trunc(index);
    if (k < 1) return ERR.VALUE;
    if (k > (vertical ? table.columns : table.rows)) return ERR.REF;
    const line = indexed(args[1] as Value, vertical, vertical ? column(table, 0) : row(table, 0), ctx);
    const sorted = approx !== false && approx !== 0 && approx !== null && approx !== "";
    const i = sorted ? findSorted(line, value) : findExact(line, value, true);
    if (i < 0) return ERR.NA;
    return vertical ? table.at(i, k - 1) : table.at(k - 1, i);
  };
}

/** A one-row or one-column argument as a line; #N/A for anything wider (MATCH's rule). */
export function lineOf(v: Value, ctx: EvalContext): Line | FormulaError {
  const g = gridOf(v, ctx);
  if (isError(g)) return g;
  if (g.rows !== 1 && g.columns !== 1) return ERR.NA;
  return g.columns === 1 ? indexed(v, true, column(g, 0), ctx) : indexed(v, false, row(g, 0), ctx);
}

function match(args: Value[], ctx: EvalContext): Value {
  const value = lookupValue(args[0], ctx);
  if (isError(value)) return value;
  const line = lineOf(args[1] as Value, ctx);
  if (isError(line)) return line;
  const type = numberArg(args[2], ctx, 1);
  if (typeof type !== "number") return type;
  const i = type > 0 ? findSorted(line, value) : type < 0 ? findDescending(line, value) : findExact(line, value, true);
  return i < 0 ? ERR.NA : i + 1;
}

/** XLOOKUP's and XMATCH's search: match mode 0 / -1 / 1 / 2 (wildcards), search mode 1 / -1 / 2 / -2 (binary). */
export function xsearch(line: Line, value: Scalar, mode: number, search: number): number | FormulaError {
  if (![0, -1, 1, 2].includes(mode) || ![1, -1, 2, -2].includes(search)) return ERR.VALUE;
  if (search === 2 || search === -2) return findBinary(line, value, mode, search === -2);
  const reverse = search === -1;
  return mode === 0 || mode === 2 ? findExact(line, value, mode === 2, reverse) : findNearest(line, value, mode, reverse);
}

/** The row (or column) `i` of XLOOKUP's return argument: a reference when it is one, else values. */
function slice(v: Value, i: number, vertical: boolean, ctx: EvalContext): Value {
  if (isRange(v))
    return vertical
      ? new RangeValue(v.sid, v.top + i, v.left, v.top + i, v.right)
      : new RangeValue(v.sid, v.top, v.left + i, v.bottom, v.left + i);
  const g = gridOf(v, ctx);
  if (isError(g)) return g;
  if (vertical) return [Array.from({ length: g.columns }, (_, c) => g.at(i, c))];
  return Array.from({ length: g.rows }, (_, r) => [g.at(r, i)]);
}

const optionalNumber = (v: Value | undefined, ctx: EvalContext, fallback: number) =>
  v === undefined || v === null ? fallback : numberArg(v, ctx);

function xlookup(args: (Value | undefined)[], ctx: EvalContext): Value {
  const value = lookupValue(args[0], ctx);
  if (isError(value)) return value;
  const lookIn = gridOf(args[1] as Value, ctx);
  if (isError(lookIn)) return lookIn;
  if (lookIn.rows !== 1 && lookIn.columns !== 1) return ERR.VALUE;
  const results = gridOf(args[2] as Value, ctx);
  if (isError(results)) return results;
  // A one-cell lookup_array goes with a one-row return_array (a row back) or a one-column one.
  const vertical = lookIn.columns === 1 && (lookIn.rows > 1 || results.rows === 1);
  if ((vertical ? results.rows : results.columns) !== (vertical ? lookIn.rows : lookIn.columns)) return ERR.VALUE;
  const mode = optionalNumber(args[4], ctx, 0);
  const search = optionalNumber(args[5], ctx, 1);
  if (typeof mode !== "number") return mode;
  if (typeof search !== "number") return search;
  const i = xsearch(
    indexed(args[1] as Value, vertical, vertical ? column(lookIn, 0) : row(lookIn, 0), ctx),
    value,
    Math.trunc(mode),
    Math.trunc(search),
  );
  if (isError(i)) return i;
  // An omitted if_not_found (`,,` included) is #N/A; one given, even an empty cell, is the answer.
  if (i < 0) return args[3] === undefined ? ERR.NA : (args[3] as Value);
  return slice(args[2] as Value, i, vertical, ctx);
}

/** INDEX's area: the area_num'th of a reference of several areas (1 without one). */
function areaOf(ref: Value, areaArg: Value | undefined, ctx: EvalContext): Value {
  if (!isRange(ref) || !ref.areas) {
    const n = areaArg === undefined || areaArg === null ? 1 : numberArg(areaArg, ctx);
    if (typeof n !== "number") return n;
    return Math.trunc(n) === 1 ? ref : Math.trunc(n) < 1 ? ERR.VALUE : ERR.REF;
  }
  const n = areaArg === undefined || areaArg === null ? 1 : numberArg(areaArg, ctx);
  if (typeof n !== "number") return n;
  const k = Math.trunc(n);
  if (k < 1) return ERR.VALUE;
  return ref.areas[k - 1] ?? ERR.REF;
}

function index(args: (Value | undefined)[], ctx: EvalContext): Value {
  const ref = areaOf(args[0] as Value, args[3], ctx);
  if (isError(ref)) return ref;
  const g = gridOf(ref, ctx);
  if (isError(g)) return g;
  const a = numberArg(args[1] ?? null, ctx, 0);
  const b = numberArg(args[2] ?? null, ctx, 0);
  if (typeof a !== "number") return a;
  if (typeof b !== "number") return b;
  let r = Math.trunc(a);
  let c = Math.trunc(b);
  // One number for a one-row range or array is its column.
  if (args[2] === undefined && g.rows === 1 && g.columns > 1) [r, c] = [0, r];
  if (r < 0 || c < 0) return ERR.VALUE;
  if (r > g.rows || c > g.columns) return ERR.REF;
  if (isRange(ref)) {
    const top = r === 0 ? ref.top : ref.top + r - 1;
    const left = c === 0 ? ref.left : ref.left + c - 1;
    return new RangeValue(ref.sid, top, left, r === 0 ? ref.bottom : top, c === 0 ? ref.right : left);
  }
  if (r > 0 && (c > 0 || g.columns === 1)) return g.at(r - 1, Math.max(c, 1) - 1);
  if (r > 0) return build(1, g.columns, (_, i) => g.at(r - 1, i), ctx);
  if (c > 0) return build(g.rows, 1, (i) => g.at(i, c - 1), ctx);
  return isArray(ref) ? ref : g.at(0, 0);
}

/** ROW / COLUMN: of the formula's cell, or the numbers of a reference's rows (a column) or columns (a row). */
const position =
  (which: "row" | "col") =>
  (args: Value[], ctx: EvalContext): Value => {
    const ref = args[0];
    if (ref === undefined || ref === null) return (which === "row" ? ctx.row : ctx.col) + 1;
    if (!isRange(ref)) return isError(ref) ? ref : ERR.VALUE;
    if (which === "row") return ref.rows === 1 ? ref.top + 1 : build(ref.rows, 1, (r) => ref.top + r + 1, ctx);
    return ref.columns === 1 ? ref.left + 1 : build(1, ref.columns, (_, c) => ref.left + c + 1, ctx);
  };

const size =
  (which: "rows" | "columns") =>
  (args: Value[], ctx: EvalContext): Value => {
    const g = gridOf(args[0] as Value, ctx);
    return isError(g) ? g : g[which];
  };

export const LOOKUP: FnTable = {
  VLOOKUP: { min: 3, max: 4, call: vhlookup(true), liftArgs: [0] },
  HLOOKUP: { min: 3, max: 4, call: vhlookup(false), liftArgs: [0] },
  XLOOKUP: { min: 3, max: 6, call: xlookup as FnTable[string]["call"], keepOmitted: true, liftArgs: [0] },
  MATCH: { min: 2, max: 3, call: match, liftArgs: [0] },
  INDEX: { min: 2, max: 4, call: index as FnTable[string]["call"], keepOmitted: true, liftArgs: [1, 2], areas: true },
  ROW: { min: 0, max: 1, call: position("row") },
  COLUMN: { min: 0, max: 1, call: position("col") },
  ROWS: { min: 1, max: 1, call: size("rows") },
  COLUMNS: { min: 1, max: 1, call: size("columns") },
};
