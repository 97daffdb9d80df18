// Dynamic-array functions: FILTER, SORT, SORTBY, UNIQUE, SEQUENCE, TAKE, DROP, CHOOSEROWS,
// CHOOSECOLS, VSTACK, HSTACK, TOCOL, TOROW, WRAPROWS, WRAPCOLS, EXPAND, TRANSPOSE. Their results
// spill from the formula's cell. Empty results are #CALC! (Excel's "empty array").
import { compare, toBoolean, toNumber } from "../coerce.ts";
import type { EvalContext } from "../context.ts";
import { ERR, isError, type ArrayValue, type FormulaError, type Scalar, type Value } from "../values.ts";
import { scalarArg } from "./args.ts";
import { arrayOf, build, colsOf, flatten, integer, rowsOf } from "./arrays.ts";
import type { FnTable } from "./spec.ts";

type Args = (Value | undefined)[];

const int = (v: Value | undefined, ctx: EvalContext, fallback: number) =>
  integer(v === undefined ? undefined : scalarArg(v, ctx), fallback);

function transpose(a: ArrayValue, ctx: EvalContext): ArrayValue | FormulaError {
  return build(colsOf(a), rowsOf(a), (r, c) => a[c]?.[r] ?? null, ctx);
}

function filter(args: Args, ctx: EvalContext): Value {
  const a = arrayOf(args[0], ctx);
  const include = arrayOf(args[1], ctx);
  if (isError(a)) return a;
  if (isError(include)) return include;
  const byRows = colsOf(include) === 1 && rowsOf(include) === rowsOf(a);
  const byCols = rowsOf(include) === 1 && colsOf(include) === colsOf(a);
  if (!byRows && !byCols) return ERR.VALUE;
  const keep: number[] = [];
  const n = byRows ? rowsOf(a) : colsOf(a);
  for (let i = 0; i < n; i++) {
    const v = byRows ? include[i]?.[0] : include[0]?.[i];
    if (isError(v)) return v;
    const b = typeof v === "string" ? ERR.VALUE : toBoolean(v ?? null);
    if (isError(b)) return b;
    if (b) keep.push(i);
  }
  if (keep.length === 0) return args[2] === undefined ? ERR.CALC : (args[2] as Value);
  return byRows
    ? build(keep.length, colsOf(a), (r, c) => a[keep[r] as number]?.[c] ?? null, ctx)
    : build(rowsOf(a), keep.length, (r, c) => a[r]?.[keep[c] as number] ?? null, ctx);
}

/** Sort order of SORT and SORTBY: numbers, text, booleans, then errors and empties last. */
function order(x: Scalar, y: Scalar): number {
  const rank = (v: Scalar) => (v === null ? 4 : isError(v) ? 3 : 0);
  const rx = rank(x);
  const ry = rank(y);
  if (rx !== 0 || ry !== 0) return rx - ry;
  return compare(x, y);
}

interface Key {
  values: Scalar[];
  descending: boolean;
}

/** Positions 0..n-1 ordered by the keys (a stable sort, as Excel's). */
function sortedPositions(n: number, keys: Key[], ctx: EvalContext): number[] {
  ctx.step(n * Math.max(1, Math.ceil(Math.log2(n + 1))));
  return Array.from({ length: n }, (_, i) => i).sort((i, j) => {
    for (const key of keys) {
      const o = order(key.values[i] ?? null, key.values[j] ?? null);
      if (o !== 0) return key.descending ? -o : o;
    }
    return i - j;
  });
}

function pick(a: ArrayValue, positions: number[], byCol: boolean, ctx: EvalContext): ArrayValue | FormulaError {
  return byCol
    ? build(rowsOf(a), positions.length, (r, c) => a[r]?.[positions[c] as number] ?? null, ctx)
    : build(positions.length, colsOf(a), (r, c) => a[positions[r] as number]?.[c] ?? null, ctx);
}

function sort(args: Args, ctx: EvalContext): Value {
  const a = arrayOf(args[0], ctx);
  if (isError(a)) return a;
  const byCol = args[3] === undefined ? false : toBoolean(scalarArg(args[3], ctx));
  if (isError(byCol)) return byCol;
  const indexes = args[1] === undefined ? [[1]] : arrayOf(args[1], ctx);
  const orders = args[2] === undefined ? [[1]] : arrayOf(args[2], ctx);
  if (isError(indexes)) return indexes;
  if (isError(orders)) return orders;
  const idx = flatten(indexes);
  const ord = flatten(orders);
  const keys: Key[] = [];
  for (let k = 0; k < idx.length; k++) {
    const i = integer(idx[k] ?? 1, 1);
    const o = integer(ord[k] ?? ord[0] ?? 1, 1);
    if (isError(i)) return i;
    if (isError(o)) return o;
    if (i < 1 || i > (byCol ? rowsOf(a) : colsOf(a)) || (o !== 1 && o !== -1)) return ERR.VALUE;
    const values = byCol ? (a[i - 1] ?? []) : a.map((row) => row[i - 1] ?? null);
    keys.push({ values, descending: o === -1 });
  }
  return pick(a, sortedPositions(byCol ? colsOf(a) : rowsOf(a), keys, ctx), byCol, ctx);
}

function sortby(args: Args, ctx: EvalContext): Value {
  const a = arrayOf(args[0], ctx);
  if (isError(a)) return a;
  const keys: Key[] = [];
  let byCol: boolean | null = null;
  for (let k = 1; k < args.length; k += 2) {
    const by = arrayOf(args[k], ctx);
    if (isError(by)) return by;
    const o = args[k + 1] === undefined ? 1 : integer(scalarArg(args[k + 1], ctx), 1);
    if (isError(o)) return o;
    if (o !== 1 && o !== -1) return ERR.VALUE;
    const column = colsOf(by) === 1 && rowsOf(by) === rowsOf(a);
    const row = rowsOf(by) === 1 && colsOf(by) === colsOf(a);
    const cols = row && !column;
    if ((!column && !row) || (byCol !== null && byCol !== cols)) return ERR.VALUE;
    byCol = cols;
    keys.push({ values: flatten(by), descending: o === -1 });
  }
  return pick(a, sortedPositions(byCol ? colsOf(a) : rowsOf(a), keys, ctx), byCol === true, ctx);
}

/** A row's (or column's) values as a key: text ignoring case, as UNIQUE compares. */
const keyOf = (values: Scalar[]) =>
  values
    .map((v) => (typeof v === "string" ? `s${v.toLowerCase()}` : isError(v) ? `e${v.error}` : `${typeof v}${String(v)}`))
    .join("\u0000");

function unique(args: Args, ctx: EvalContext): Value {
  const a = arrayOf(args[0], ctx);
  if (isError(a)) return a;
  const byCol = args[1] === undefined || args[1] === null ? false : toBoolean(scalarArg(args[1], ctx));
  const once = args[2] === undefined || args[2] === null ? false : toBoolean(scalarArg(args[2], ctx));
  if (isError(byCol)) return byCol;
  if (isError(once)) return once;
  const n = byCol ? colsOf(a) : rowsOf(a);
  const line = (i: number) => (byCol ? a.map((row) => row[i] ?? null) : (a[i] ?? []));
  const counts = new Map<string, { first: number; count: number }>();
  for (let i = 0; i < n; i++) {
    const key = keyOf(line(i));
    const seen = counts.get(key);
    if (seen) seen.count++;
    else counts.set(key, { first: i, count: 1 });
  }
  const positions = [...counts.values()].filter((e) => !once || e.count === 1).map((e) => e.first);
  if (positions.length === 0) return ERR.CALC;
  return pick(a, positions, byCol, ctx);
}

function sequence(args: Args, ctx: EvalContext): Value {
  const rows = int(args[0], ctx, 1);
  const cols = int(args[1], ctx, 1);
  if (isError(rows)) return rows;
  if (isError(cols)) return cols;
  const start = args[2] === undefined || args[2] === null ? 1 : scalarNumber(args[2], ctx);
  const step = args[3] === undefined || args[3] === null ? 1 : scalarNumber(args[3], ctx);
  if (isError(start)) return start;
  if (isError(step)) return step;
  if (rows < 0 || cols < 0) return ERR.VALUE;
  return build(rows, cols, (r, c) => start + (r * cols + c) * step, ctx);
}

function scalarNumber(v: Value, ctx: EvalContext): number | FormulaError {
  return toNumber(scalarArg(v, ctx));
}

/** TAKE / DROP: rows (and columns) from the start, or from the end for a negative count. */
function takeDrop(take: boolean) {
  return (args: Args, ctx: EvalContext): Value => {
    const a = arrayOf(args[0], ctx);
    if (isError(a)) return a;
    const span = (v: Value | undefined, size: number): [number, number] | FormulaError => {
      if (v === undefined || v === null) return [0, size];
      const n = int(v, ctx, 0);
      if (isError(n)) return n;
      const k = Math.min(Math.abs(n), size);
      if (take) return n >= 0 ? [0, k] : [size - k, size];
      return n >= 0 ? [k, size] : [0, size - k];
    };
    const r = span(args[1], rowsOf(a));
    const c = span(args[2], colsOf(a));
    if (isError(r)) return r;
    if (isError(c)) return c;
    return build(r[1] - r[0], c[1] - c[0], (i, j) => a[r[0] + i]?.[c[0] + j] ?? null, ctx);
  };
}

function choose(byCol: boolean) {
  return (args: Args, ctx: EvalContext): Value => {
    const a = arrayOf(args[0], ctx);
    if (isError(a)) return a;
    const size = byCol ? colsOf(a) : rowsOf(a);
    const picks: number[] = [];
    for (const arg of args.slice(1)) {
      const list = arrayOf(arg, ctx);
      if (isError(list)) return list;
      for (const v of flatten(list)) {
        const n = integer(v, 0);
        if (isError(n)) return n;
        if (n === 0 || Math.abs(n) > size) return ERR.VALUE;
        picks.push(n > 0 ? n - 1 : size + n);
      }
    }
    return pick(a, picks, byCol, ctx);
  };
}

function stack(vertical: boolean) {
  return (args: Args, ctx: EvalContext): Value => {
    const arrays: ArrayValue[] = [];
    for (const arg of args) {
      const a = arrayOf(arg, ctx);
      if (isError(a)) return a;
      arrays.push(a);
    }
    const along = arrays.reduce((n, a) => n + (vertical ? rowsOf(a) : colsOf(a)), 0);
    const across = Math.max(...arrays.map((a) => (vertical ? colsOf(a) : rowsOf(a))));
    const at: [ArrayValue, number][] = [];
    for (const a of arrays) for (let i = 0; i < (vertical ? rowsOf(a) : colsOf(a)); i++) at.push([a, i]);
    const cell = (i: number, j: number): Scalar => {
      const [a, k] = at[i] as [ArrayValue, number];
      const v = vertical ? a[k]?.[j] : a[j]?.[k];
      return v === undefined ? ERR.NA : v;
    };
    return vertical ? build(along, across, cell, ctx) : build(across, along, (r, c) => cell(c, r), ctx);
  };
}

/** TOCOL / TOROW: ignore 0 nothing, 1 blanks, 2 errors, 3 both; scan by rows or by columns. */
function toLine(column: boolean) {
  return (args: Args, ctx: EvalContext): Value => {
    const a = arrayOf(args[0], ctx);
    if (isError(a)) return a;
    const ignore = int(args[1], ctx, 0);
    const byCol = args[2] === undefined || args[2] === null ? false : toBoolean(scalarArg(args[2], ctx));
    if (isError(ignore)) return ignore;
    if (isError(byCol)) return byCol;
    if (ignore < 0 || ignore > 3) return ERR.VALUE;
    const values = flatten(a, byCol).filter((v) => !((ignore & 1 && v === null) || (ignore & 2 && isError(v))));
    if (values.length === 0) return ERR.CALC;
    return column ? build(values.length, 1, (r) => values[r] ?? null, ctx) : build(1, values.length, (_, c) => values[c] ?? null, ctx);
  };
}

function wrap(byRows: boolean) {
  return (args: Args, ctx: EvalContext): Value => {
    const a = arrayOf(args[0], ctx);
    if (isError(a)) return a;
    if (rowsOf(a) !== 1 && colsOf(a) !== 1) return ERR.VALUE;
    const count = int(args[1], ctx, 0);
    if (isError(count)) return count;
    if (count < 1) return ERR.NUM;
    const pad = args[2] === undefined ? ERR.NA : scalarArg(args[2], ctx);
    const values = flatten(a);
    const lines = Math.ceil(values.length / count);
    const at = (line: number, i: number) => values[line * count + i] ?? pad;
    return byRows ? build(lines, count, at, ctx) : build(count, lines, (r, c) => at(c, r), ctx);
  };
}

function expand(args: Args, ctx: EvalContext): Value {
  const a = arrayOf(args[0], ctx);
  if (isError(a)) return a;
  const rows = int(args[1], ctx, rowsOf(a));
  const cols = int(args[2], ctx, colsOf(a));
  if (isError(rows)) return rows;
  if (isError(cols)) return cols;
  if (rows < rowsOf(a) || cols < colsOf(a)) return ERR.VALUE;
  const pad = args[3] === undefined ? ERR.NA : scalarArg(args[3], ctx);
  return build(rows, cols, (r, c) => (r < rowsOf(a) && c < colsOf(a) ? (a[r]?.[c] ?? null) : pad), ctx);
}

const call = (f: (args: Args, ctx: EvalContext) => Value) => f as NonNullable<FnTable[string]["call"]>;

export const DYNAMIC: FnTable = {
  FILTER: { min: 2, max: 3, call: call(filter), keepOmitted: true },
  SORT: { min: 1, max: 4, call: call(sort), keepOmitted: true },
  SORTBY: { min: 2, max: 253, call: call(sortby), keepOmitted: true },
  UNIQUE: { min: 1, max: 3, call: call(unique), keepOmitted: true },
  SEQUENCE: { min: 1, max: 4, call: call(sequence), keepOmitted: true },
  TAKE: { min: 2, max: 3, call: call(takeDrop(true)), keepOmitted: true },
  DROP: { min: 2, max: 3, call: call(takeDrop(false)), keepOmitted: true },
  CHOOSEROWS: { min: 2, max: 254, call: call(choose(false)) },
  CHOOSECOLS: { min: 2, max: 254, call: call(choose(true)) },
  VSTACK: { min: 1, max: 254, call: call(stack(true)) },
  HSTACK: { min: 1, max: 254, call: call(stack(false)) },
  TOCOL: { min: 1, max: 3, call: call(toLine(true)), keepOmitted: true },
  TOROW: { min: 1, max: 3, call: call(toLine(false)), keepOmitted: true },
  WRAPROWS: { min: 2, max: 3, call: call(wrap(true)), keepOmitted: true },
  WRAPCOLS: { min: 2, max: 3, call: call(wrap(false)), keepOmitted: true },
  EXPAND: { min: 2, max: 4, call: call(expand), keepOmitted: true },
  TRANSPOSE: {
    min: 1,
    max: 1,
    call: (args, ctx) => {
      const a = arrayOf(args[0], ctx);
      return isError(a) ? a : transpose(a, ctx);
    },
  },
};
