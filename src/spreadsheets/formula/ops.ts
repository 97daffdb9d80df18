// The operators: arithmetic, comparison, & and the reference operators, on scalars and, element by
// element, on arrays and multi-cell ranges (Excel's broadcasting: a single row or column stretches,
// cells outside both shapes are #N/A).
import type { EvalContext } from "./context.ts";
import { compare, toNumber, toText } from "./coerce.ts";
import { concatText } from "./text-limit.ts";
import { ERR, isArray, isError, isLambda, isRange, RangeValue, type ArrayValue, type Scalar, type Value } from "./values.ts";

export type BinaryOp = (a: Scalar, b: Scalar) => Scalar;

const finite = (n: number): number | typeof ERR.NUM => (Number.isFinite(n) ? n : ERR.NUM);

function arithmetic(f: (x: number, y: number) => number | Scalar): BinaryOp {
  return (a, b) => {
    const x = toNumber(a);
    if (typeof x !== "number") return x;
    const y = toNumber(b);
    if (typeof y !== "number") return y;
    const r = f(x, y);
    return typeof r === "number" ? finite(r) : r;
  };
}

function power(x: number, y: number): number | Scalar {
  if (x === 0 && y === 0) return ERR.NUM;
  if (x === 0 && y < 0) return ERR.DIV0;
  const r = Math.pow(x, y);
  return Number.isNaN(r) ? ERR.NUM : r;
}

function comparison(test: (order: number) => boolean): BinaryOp {
  return (a, b) => (isError(a) ? a : isError(b) ? b : test(compare(a, b)));
}

export const BINARY: Record<string, BinaryOp> = {
  "+": arithmetic((x, y) => x + y),
  "-": arithmetic((x, y) => x - y),
  "*": arithmetic((x, y) => x * y),
  "/": arithmetic((x, y) => (y === 0 ? ERR.DIV0 : x / y)),
  "^": arithmetic(power),
  "&": (a, b) => {
    const x = toText(a);
    if (typeof x !== "string") return x;
    const y = toText(b);
    return typeof y !== "string" ? y : concatText(x, y);
  },
  "=": comparison((o) => o === 0),
  "<>": comparison((o) => o !== 0),
  "<": comparison((o) => o < 0),
  ">": comparison((o) => o > 0),
  "<=": comparison((o) => o <= 0),
  ">=": comparison((o) => o >= 0),
};

export const negate = (v: Scalar): Scalar => {
  const n = toNumber(v);
  return typeof n === "number" ? (n === 0 ? 0 : -n) : n;
};
export const percent = (v: Scalar): Scalar => {
  const n = toNumber(v);
  return typeof n === "number" ? n / 100 : n;
};

/**
 * A range's cells as an array (reading every cell: for element-wise operations on modest ranges).
 * Its size is refused before anything is read or allocated (SHEETS_MAX_ARRAY_CELLS), and its rows
 * are charged as they are filled.
 */
export function rangeToArray(range: RangeValue, ctx: EvalContext): ArrayValue {
  const used = ctx.used(range.sid);
  const width = range.columns;
  ctx.cells(range.rows * width);
  // Rows allocated at their size (a whole column is a million one-cell rows); cells past the used range are null unread.
  const rows: ArrayValue = new Array(range.rows);
  for (let r = range.top; r <= range.bottom; r++) {
    const row: Scalar[] = new Array(width).fill(null);
    if (used !== null && r >= used.top && r <= used.bottom)
      for (let c = Math.max(range.left, used.left); c <= Math.min(range.right, used.right); c++)
        row[c - range.left] = ctx.value(range.sid, r, c);
    rows[r - range.top] = row;
    ctx.step(width);
  }
  return rows;
}

/**
 * A value as a scalar or an array: single cells are read, multi-cell ranges become arrays. A
 * reference of several areas is #VALUE!, a LAMBDA that is not called #CALC!.
 */
export function toOperand(v: Value, ctx: EvalContext): Scalar | ArrayValue {
  if (isRange(v)) return v.areas ? ERR.VALUE : v.single ? ctx.value(v.sid, v.top, v.left) : rangeToArray(v, ctx);
  if (isLambda(v)) return ERR.CALC;
  return v;
}

const at = (a: ArrayValue, r: number, c: number): Scalar => {
  const rows = a.length;
  const cols = a[0]?.length ?? 0;
  const rr = rows === 1 ? 0 : r;
  const cc = cols === 1 ? 0 : c;
  return rr < rows && cc < cols ? (a[rr]?.[cc] ?? null) : ERR.NA;
};

/**
 * Applies a scalar function element-wise when any argument is an array (Excel's lifting), else
 * once. The result's size (a column times a row can be far larger than either) is refused before it
 * is made; each row is charged as it is filled, with the characters of the text it holds.
 */
export function lift(args: (Scalar | ArrayValue)[], f: (...xs: Scalar[]) => Scalar, ctx: EvalContext): Scalar | ArrayValue {
  let rows = 0;
  let cols = 0;
  for (const a of args) {
    if (!isArray(a)) continue;
    rows = Math.max(rows, a.length);
    cols = Math.max(cols, a[0]?.length ?? 0);
  }
  if (rows === 0) return f(...(args as Scalar[]));
  ctx.cells(rows * cols);
  const out: ArrayValue = new Array(rows);
  const xs: Scalar[] = args.map((a) => (isArray(a) ? null : a));
  for (let r = 0; r < rows; r++) {
    const row: Scalar[] = new Array(cols);
    let chars = 0;
    for (let c = 0; c < cols; c++) {
      for (let i = 0; i < args.length; i++) {
        const a = args[i];
        if (isArray(a)) xs[i] = at(a, r, c);
      }
      const v = f(...xs);
      if (typeof v === "string") chars += v.length;
      row[c] = v;
    }
    out[r] = row;
    ctx.step(cols + chars);
  }
  return out;
}

export function binary(op: BinaryOp, a: Value, b: Value, ctx: EvalContext): Value {
  const x = toOperand(a, ctx);
  const y = toOperand(b, ctx);
  if (!isArray(x) && !isArray(y)) return op(x, y);
  return lift([x, y], op, ctx);
}

/** The range operator A1:B2 between two references of one sheet: their bounding box. */
export function rangeOp(a: Value, b: Value): Value {
  if (isError(a)) return a;
  if (isError(b)) return b;
  if (!isRange(a) || !isRange(b) || a.sid !== b.sid || a.areas || b.areas) return ERR.VALUE;
  return new RangeValue(a.sid, Math.min(a.top, b.top), Math.min(a.left, b.left), Math.max(a.bottom, b.bottom), Math.max(a.right, b.right));
}

/** The union operator (A1,C1:C3): one reference of several areas, on one sheet. */
export function unionOp(a: Value, b: Value): Value {
  if (isError(a)) return a;
  if (isError(b)) return b;
  if (!isRange(a) || !isRange(b) || a.sid !== b.sid) return ERR.VALUE;
  return RangeValue.of([...(a.areas ?? [a]), ...(b.areas ?? [b])]);
}

/** The intersection operator (a space): the cells both references cover, #NULL! when none. */
export function intersectOp(a: Value, b: Value): Value {
  if (isError(a)) return a;
  if (isError(b)) return b;
  if (!isRange(a) || !isRange(b) || a.areas || b.areas) return ERR.VALUE;
  const top = Math.max(a.top, b.top);
  const left = Math.max(a.left, b.left);
  const bottom = Math.min(a.bottom, b.bottom);
  const right = Math.min(a.right, b.right);
  return a.sid !== b.sid || top > bottom || left > right ? ERR.NULL : new RangeValue(a.sid, top, left, bottom, right);
}
