// Matrix functions: MMULT, MINVERSE, MDETERM, MUNIT. Every cell must be a number (#VALUE!
// otherwise, empty cells included, as in Excel); MINVERSE of a singular matrix is #NUM!.
import type { EvalContext } from "../context.ts";
import { toNumber } from "../coerce.ts";
import { MAX_COLUMNS, MAX_ROWS } from "../../cells/types.ts";
import { ERR, type FormulaError, isError, type Value } from "../values.ts";
import { scalarArg } from "./args.ts";
import { cellsOf } from "./numeric.ts";
import type { FnTable } from "./spec.ts";

type Matrix = number[][];

function matrixOf(v: Value, ctx: EvalContext): Matrix | FormulaError {
  const c = cellsOf(v, ctx);
  if (isError(c)) return c;
  const out: Matrix = [];
  for (let r = 0; r < c.rows; r++) {
    const row: number[] = [];
    for (let col = 0; col < c.columns; col++) {
      const x = c.values[r * c.columns + col] ?? null;
      if (isError(x)) return x;
      if (typeof x !== "number") return ERR.VALUE;
      row.push(x);
    }
    out.push(row);
  }
  return out;
}

function mmult(args: Value[], ctx: EvalContext): Value {
  const a = matrixOf(args[0] ?? null, ctx);
  if (isError(a)) return a;
  const b = matrixOf(args[1] ?? null, ctx);
  if (isError(b)) return b;
  const inner = a[0]?.length ?? 0;
  if (inner !== b.length) return ERR.VALUE;
  const width = b[0]?.length ?? 0;
  ctx.cells(a.length * width);
  ctx.step(a.length * width * inner);
  return a.map((row) =>
    Array.from({ length: width }, (_, j) => {
      let s = 0;
      for (let k = 0; k < inner; k++) s += (row[k] as number) * ((b[k] as number[])[j] as number);
      return Number.isFinite(s) ? s : ERR.NUM;
    }),
  );
}

/** LU decomposition with partial pivoting, in place: the determinant, and the inverse when asked. */
function eliminate(m: Matrix, invert: boolean): { det: number; inverse: Matrix | null } {
  const n = m.length;
  const a = m.map((row, i) => [...row, ...(invert ? Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)) : [])]);
  let det = 1;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++)
      if (Math.abs((a[r] as number[])[col] as number) > Math.abs((a[pivot] as number[])[col] as number)) pivot = r;
    const p = (a[pivot] as number[])[col] as number;
    if (p === 0) return { det: 0, inverse: null };
    if (pivot !== col) {
      [a[pivot], a[col]] = [a[col] as number[], a[pivot] as number[]];
      det = -det;
    }
    det *= p;
    const pivotRow = a[col] as number[];
    for (let r = invert ? 0 : col + 1; r < n; r++) {
      if (r === col) continue;
      const row = a[r] as number[];
      const f = (row[col] as number) / p;
      if (f !== 0) for (let c = col; c < row.length; c++) row[c] = (row[c] as number) - f * (pivotRow[c] as number);
    }
  }
  const inverse = invert ? a.map((row, i) => row.slice(n).map((x) => x / ((a[i] as number[])[i] as number))) : null;
  return { det, inverse };
}

function square(args: Value[], ctx: EvalContext): Matrix | FormulaError {
  const m = matrixOf(args[0] ?? null, ctx);
  if (isError(m)) return m;
  if (m.length === 0 || m.length !== (m[0]?.length ?? 0)) return ERR.VALUE;
  ctx.step(m.length ** 3);
  return m;
}

function mdeterm(args: Value[], ctx: EvalContext): Value {
  const m = square(args, ctx);
  if (isError(m)) return m;
  const { det } = eliminate(m, false);
  return Number.isFinite(det) ? det : ERR.NUM;
}

function minverse(args: Value[], ctx: EvalContext): Value {
  const m = square(args, ctx);
  if (isError(m)) return m;
  const { det, inverse } = eliminate(m, true);
  if (!inverse || det === 0 || !Number.isFinite(det)) return ERR.NUM;
  return inverse.map((row) => row.map((x) => (Number.isFinite(x) ? x + 0 : ERR.NUM)));
}

function munit(args: Value[], ctx: EvalContext): Value {
  const n = toNumber(scalarArg(args[0], ctx));
  if (isError(n)) return n;
  const size = Math.trunc(n);
  if (size < 1 || size > Math.min(MAX_ROWS, MAX_COLUMNS)) return ERR.VALUE;
  ctx.cells(size * size);
  ctx.step(size * size);
  return Array.from({ length: size }, (_, i) => Array.from({ length: size }, (_, j) => (i === j ? 1 : 0)));
}

export const MATRIX: FnTable = {
  MMULT: { min: 2, max: 2, call: mmult },
  MDETERM: { min: 1, max: 1, call: mdeterm },
  MINVERSE: { min: 1, max: 1, call: minverse },
  MUNIT: { min: 1, max: 1, call: munit },
};
