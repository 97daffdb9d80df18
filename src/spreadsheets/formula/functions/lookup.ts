// Lookup and reference functions: VLOOKUP, HLOOKUP, XLOOKUP, MATCH, INDEX, ROW(S), COLUMN(S).
import type { EvalContext } from "../context.ts";
import { compare } from "../coerce.ts";
import { wildcardRegExp } from "../criteria.ts";
import { ERR, isArray, isError, isRange, RangeValue, type FormulaError, type Scalar, type Value } from "../values.ts";
import { gridOf, numberArg, scalarArg, type Grid } from "./args.ts";
import type { FnTable } from "./spec.ts";

/** A line of cells to search: a column or a row of a grid. */
interface Line {
  length: number;
  at(i: number): Scalar;
}

const sameType = (a: Scalar, b: Scalar) => typeof a === typeof b && a !== null && b !== null;

/** Exact matcher: same type, text ignoring case, with wildcards when `wildcards` and the text has them. */
function exact(value: Scalar, wildcards: boolean): (v: Scalar) => boolean {
  const regex = wildcards && typeof value === "string" ? wildcardRegExp(value) : null;
  if (regex) return (v) => typeof v === "string" && regex.test(v);
  return (v) => sameType(v, value) && compare(v, value) === 0;
}

function findExact(line: Line, value: Scalar, wildcards: boolean, reverse = false): number {
  const is = exact(value, wildcards);
  if (reverse) {
    for (let i = line.length - 1; i >= 0; i--) if (is(line.at(i))) return i;
  } else for (let i = 0; i < line.length; i++) if (is(line.at(i))) return i;
  return -1;
}

/** Sorted ascending: the last position whose value is ≤ `value`, of the same type (Excel's binary search). */
function findSorted(line: Line, value: Scalar): number {
  let lo = 0;
  let hi = line.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = line.at(mid);
    if (v !== null && compare(v, value) <= 0) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  while (found >= 0 && !sameType(line.at(found), value)) found--;
  return found;
}

/** Sorted descending (MATCH type -1): the last position whose value is ≥ `value`. */
function findDescending(line: Line, value: Scalar): number {
  let found = -1;
  for (let i = 0; i < line.length; i++) {
    const v = line.at(i);
    if (!sameType(v, value)) continue;
    if (compare(v, value) >= 0) found = i;
    else break;
  }
  return found;
}

const column = (g: Grid, c: number): Line => ({ length: g.rows, at: (i) => g.at(i, c) });
const row = (g: Grid, r: number): Line => ({ length: g.columns, at: (i) => g.at(r, i) });

function lookupValue(v: Value | undefined, ctx: EvalContext): Scalar {
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
    const line = vertical ? column(table, 0) : row(table, 0);
    const sorted = approx !== false && approx !== 0 && approx !== null;
    const i = sorted ? findSorted(line, value) : findExact(line, value, true);
    if (i < 0) return ERR.NA;
    return vertical ? table.at(i, k - 1) : table.at(k - 1, i);
  };
}

function lineOf(v: Value, ctx: EvalContext): Line | FormulaError {
  const g = gridOf(v, ctx);
  if (isError(g)) return g;
  if (g.rows !== 1 && g.columns !== 1) return ERR.NA;
  return g.columns === 1 ? column(g, 0) : row(g, 0);
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

/** XLOOKUP's match modes -1 / 1: the exact match, else the next smaller / larger value. */
function findNearest(line: Line, value: Scalar, mode: number, reverse: boolean): number {
  let best = -1;
  for (let n = 0; n < line.length; n++) {
    const i = reverse ? line.length - 1 - n : n;
    const v = line.at(i);
    if (!sameType(v, value)) continue;
    const order = compare(v, value);
    if (order === 0) return i;
    if ((mode < 0 && order < 0) || (mode > 0 && order > 0)) {
      if (best < 0 || (mode < 0 ? compare(v, line.at(best)) > 0 : compare(v, line.at(best)) < 0)) best = i;
    }
  }
  return best;
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

function xlookup(args: Value[], ctx: EvalContext): Value {
  const value = lookupValue(args[0], ctx);
  if (isError(value)) return value;
  const lookIn = gridOf(args[1] as Value, ctx);
  if (isError(lookIn)) return lookIn;
  if (lookIn.rows !== 1 && lookIn.columns !== 1) return ERR.VALUE;
  const vertical = lookIn.columns === 1;
  const results = gridOf(args[2] as Value, ctx);
  if (isError(results)) return results;
  if ((vertical ? results.rows : results.columns) !== (vertical ? lookIn.rows : lookIn.columns)) return ERR.VALUE;
  const mode = numberArg(args[4], ctx, 0);
  const search = numberArg(args[5], ctx, 1);
  if (typeof mode !== "number") return mode;
  if (typeof search !== "number") return search;
  if (![0, -1, 1, 2].includes(mode) || ![1, -1, 2, -2].includes(search)) return ERR.VALUE;
  const line = vertical ? column(lookIn, 0) : row(lookIn, 0);
  const reverse = search === -1 || search === -2;
  const i = mode === 0 || mode === 2 ? findExact(line, value, mode === 2, reverse) : findNearest(line, value, mode, reverse);
  if (i < 0) return args[3] === undefined ? ERR.NA : (args[3] as Value);
  return slice(args[2] as Value, i, vertical, ctx);
}

function index(args: Value[], ctx: EvalContext): Value {
  const ref = args[0] as Value;
  const g = gridOf(ref, ctx);
  if (isError(g)) return g;
  const a = numberArg(args[1], ctx, 0);
  const b = numberArg(args[2], ctx, 0);
  if (typeof a !== "number") return a;
  if (typeof b !== "number") return b;
  let r = Math.trunc(a);
  let c = Math.trunc(b);
  if (args[2] === undefined && g.rows === 1) {
    c = r;
    r = 1;
  } else if (args[2] === undefined && g.columns === 1) c = 1;
  if (r < 0 || c < 0 || r > g.rows || c > g.columns) return ERR.REF;
  if (isRange(ref)) {
    const top = r === 0 ? ref.top : ref.top + r - 1;
    const bottom = r === 0 ? ref.bottom : top;
    const left = c === 0 ? ref.left : ref.left + c - 1;
    const right = c === 0 ? ref.right : left;
    return new RangeValue(ref.sid, top, left, bottom, right);
  }
  if (r > 0 && c > 0) return g.at(r - 1, c - 1);
  if (r > 0) return [Array.from({ length: g.columns }, (_, i) => g.at(r - 1, i))];
  if (c > 0) return Array.from({ length: g.rows }, (_, i) => [g.at(i, c - 1)]);
  return isArray(ref) ? ref : ERR.VALUE;
}

const position =
  (which: "row" | "col") =>
  (args: Value[], ctx: EvalContext): Value => {
    const ref = args[0];
    if (ref === undefined) return (which === "row" ? ctx.row : ctx.col) + 1;
    if (!isRange(ref)) return isError(ref) ? ref : ERR.VALUE;
    return (which === "row" ? ref.top : ref.left) + 1;
  };

const size =
  (which: "rows" | "columns") =>
  (args: Value[], ctx: EvalContext): Value => {
    const g = gridOf(args[0] as Value, ctx);
    return isError(g) ? g : g[which];
  };

export const LOOKUP: FnTable = {
  VLOOKUP: { min: 3, max: 4, call: vhlookup(true) },
  HLOOKUP: { min: 3, max: 4, call: vhlookup(false) },
  XLOOKUP: { min: 3, max: 6, call: xlookup },
  MATCH: { min: 2, max: 3, call: match },
  INDEX: { min: 2, max: 3, call: index },
  ROW: { min: 0, max: 1, call: position("row") },
  COLUMN: { min: 0, max: 1, call: position("col") },
  ROWS: { min: 1, max: 1, call: size("rows") },
  COLUMNS: { min: 1, max: 1, call: size("columns") },
};
