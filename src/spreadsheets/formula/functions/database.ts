// The database functions (DSUM, DCOUNT, DAVERAGE, DGET, DMAX, DMIN, DPRODUCT, DSTDEV(P), DVAR(P),
// DCOUNTA): a table with a header row, a field (header text or 1-based column), and a criteria
// range whose header names the fields; its rows are alternatives (OR), the cells of a row all
// apply (AND). A text criterion without an operator matches the start of a cell ("Ap" matches
// "Apple"), as Excel's advanced filter does; the others are COUNTIF's criteria.
import type { EvalContext } from "../context.ts";
import { toText } from "../coerce.ts";
import { criterion, type Criterion } from "../criteria.ts";
import { ERR, type FormulaError, isError, type Scalar, type Value } from "../values.ts";
import { type Grid, gridOf, scalarArg } from "./args.ts";
import type { FnTable } from "./spec.ts";

const headerIndex = (db: Grid, name: string): number => {
  for (let c = 0; c < db.columns; c++) {
    const h = toText(db.at(0, c));
    if (!isError(h) && h.toLowerCase() === name.toLowerCase()) return c;
  }
  return -1;
};

/** The field's column, -1 when omitted (DCOUNT/DCOUNTA then count records), or #VALUE!. */
function fieldColumn(db: Grid, field: Scalar): number | FormulaError {
  if (field === null) return -1;
  if (isError(field)) return field;
  if (typeof field === "number") {
    const c = Math.trunc(field) - 1;
    return c >= 0 && c < db.columns ? c : ERR.VALUE;
  }
  const c = headerIndex(db, String(field));
  return c < 0 ? ERR.VALUE : c;
}

function criterionOf(v: Scalar): Criterion {
  if (typeof v === "string" && !/^[<>=]/.test(v) && !/^[+-]?\d/.test(v.trim())) return criterion(`${v}*`);
  return criterion(v);
}

/** Each criteria row as (column, criterion) pairs; a header that names no field makes its cells match nothing. */
function criteriaRows(db: Grid, crit: Grid): [number, Criterion][][] {
  const columns = Array.from({ length: crit.columns }, (_, c) => {
    const h = toText(crit.at(0, c));
    return isError(h) || h === "" ? -2 : headerIndex(db, h);
  });
  const rows: [number, Criterion][][] = [];
  for (let r = 1; r < crit.rows; r++) {
    const row: [number, Criterion][] = [];
    for (let c = 0; c < crit.columns; c++) {
      const v = crit.at(r, c);
      if (v === null || v === "" || columns[c] === -2) continue;
      row.push([columns[c] as number, criterionOf(v)]);
    }
    rows.push(row);
  }
  return rows;
}

/** The field's values (the whole record's first cell when the field is omitted) of the matching records. */
function matching(args: Value[], ctx: EvalContext): { values: Scalar[]; byRecord: boolean } | FormulaError {
  const db = gridOf(args[0] as Value, ctx);
  if (isError(db)) return db;
  const crit = gridOf(args[2] as Value, ctx);
  if (isError(crit)) return crit;
  if (db.rows < 1 || crit.rows < 2) return ERR.VALUE;
  const column = fieldColumn(db, scalarArg(args[1], ctx));
  if (isError(column)) return column;
  const rows = criteriaRows(db, crit);
  ctx.step(db.rows * Math.max(1, rows.length));
  const values: Scalar[] = [];
  for (let r = 1; r < db.rows; r++) {
    const hit = rows.some((row) => row.every(([c, test]) => c >= 0 && test.test(db.at(r, c))));
    if (hit) values.push(column < 0 ? true : db.at(r, column));
  }
  return { values, byRecord: column < 0 };
}

function numbersOf(values: Scalar[]): number[] | FormulaError {
  const out: number[] = [];
  for (const v of values) {
    if (isError(v)) return v;
    if (typeof v === "number") out.push(v);
  }
  return out;
}

function variance(xs: number[], sample: boolean): number | FormulaError {
  const n = xs.length;
  if (n - (sample ? 1 : 0) <= 0) return ERR.DIV0;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  return xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - (sample ? 1 : 0));
}

type Reduce = (xs: number[]) => number | FormulaError;

function numeric(reduce: Reduce) {
  return (args: Value[], ctx: EvalContext): Value => {
    const m = matching(args, ctx);
    if (isError(m)) return m;
    const xs = numbersOf(m.values);
    return isError(xs) ? xs : reduce(xs);
  };
}

const sqrtOf = (v: number | FormulaError): number | FormulaError => (isError(v) ? v : Math.sqrt(v));

function count(all: boolean) {
  return (args: Value[], ctx: EvalContext): Value => {
    const m = matching(args, ctx);
    if (isError(m)) return m;
    if (m.byRecord) return m.values.length;
    return m.values.filter((v) => (all ? v !== null && v !== "" : typeof v === "number")).length;
  };
}

function dget(args: Value[], ctx: EvalContext): Value {
  const m = matching(args, ctx);
  if (isError(m)) return m;
  if (m.byRecord) return ERR.VALUE;
  if (m.values.length === 0) return ERR.VALUE;
  return m.values.length > 1 ? ERR.NUM : (m.values[0] ?? null);
}

const spec = (call: (args: Value[], ctx: EvalContext) => Value) => ({ min: 3, max: 3, call });

export const DATABASE: FnTable = {
  DSUM: spec(numeric((xs) => xs.reduce((a, b) => a + b, 0))),
  DAVERAGE: spec(numeric((xs) => (xs.length === 0 ? ERR.DIV0 : xs.reduce((a, b) => a + b, 0) / xs.length))),
  DMAX: spec(numeric((xs) => xs.reduce((a, b) => Math.max(a, b), xs.length === 0 ? 0 : -Infinity))),
  DMIN: spec(numeric((xs) => xs.reduce((a, b) => Math.min(a, b), xs.length === 0 ? 0 : Infinity))),
  DPRODUCT: spec(numeric((xs) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a * b, 1)))),
  DVAR: spec(numeric((xs) => variance(xs, true))),
  DVARP: spec(numeric((xs) => variance(xs, false))),
  DSTDEV: spec(numeric((xs) => sqrtOf(variance(xs, true)))),
  DSTDEVP: spec(numeric((xs) => sqrtOf(variance(xs, false)))),
  DCOUNT: spec(count(false)),
  DCOUNTA: spec(count(true)),
  DGET: spec(dget),
};
