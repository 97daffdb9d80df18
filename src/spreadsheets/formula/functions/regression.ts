// Correlation and regression: CORREL/PEARSON/RSQ, SLOPE/INTERCEPT/STEYX, FORECAST(.LINEAR),
// COVAR/COVARIANCE.*, FISHER(INV), and the least-squares arrays LINEST/LOGEST/TREND/GROWTH.
// Paired functions read their two arguments as pairs of numbers (numeric.ts `pairs`): sizes that
// differ are #N/A; the array functions need every known value to be a number (#VALUE!) and
// matching sizes (#REF!), as Excel's do.
import type { EvalContext } from "../context.ts";
import { toBoolean } from "../coerce.ts";
import { ERR, type ArrayValue, type FormulaError, isError, type Scalar, type Value } from "../values.ts";
import { numberArg, scalarArg } from "./args.ts";
import { leastSquares, type Fit } from "./least-squares.ts";
import { cellsOf, finite, meanOf, numeric, pairs, type Cells } from "./numeric.ts";
import type { FnTable } from "./spec.ts";

interface Moments {
  n: number;
  sxx: number;
  syy: number;
  sxy: number;
  mx: number;
  my: number;
}

/** Sums of squares of the pairs (y first, as SLOPE and its kin take them). */
function moments(yArg: Value, xArg: Value, ctx: EvalContext): Moments | FormulaError {
  const p = pairs(yArg, xArg, ctx);
  if (isError(p)) return p;
  const ys = p.xs;
  const xs = p.ys;
  const n = xs.length;
  if (n === 0) return ERR.DIV0;
  const mx = meanOf(xs);
  const my = meanOf(ys);
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    const dy = (ys[i] as number) - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  return { n, sxx, syy, sxy, mx, my };
}

function paired(f: (m: Moments) => Scalar, yIndex = 0) {
  return (args: Value[], ctx: EvalContext): Value => {
    const m = moments(args[yIndex] ?? null, args[yIndex + 1] ?? null, ctx);
    if (isError(m)) return m;
    const r = f(m);
    return typeof r === "number" ? finite(r) : r;
  };
}

const correl = (m: Moments): Scalar => (m.sxx === 0 || m.syy === 0 ? ERR.DIV0 : m.sxy / Math.sqrt(m.sxx * m.syy));
const slope = (m: Moments): Scalar => (m.sxx === 0 ? ERR.DIV0 : m.sxy / m.sxx);
const intercept = (m: Moments): Scalar => (m.sxx === 0 ? ERR.DIV0 : m.my - (m.sxy / m.sxx) * m.mx);

function rsq(m: Moments): Scalar {
  const r = correl(m);
  return typeof r === "number" ? r * r : r;
}

function steyx(m: Moments): Scalar {
  if (m.n < 3 || m.sxx === 0) return ERR.DIV0;
  return Math.sqrt((m.syy - (m.sxy * m.sxy) / m.sxx) / (m.n - 2));
}

/** Covariance: the pairs are x then y, but the sum of products is symmetric. */
const covariance = (sample: boolean) => (m: Moments) => (sample && m.n < 2 ? ERR.DIV0 : m.sxy / (sample ? m.n - 1 : m.n));

function forecast(args: Value[], ctx: EvalContext): Value {
  const x = numberArg(args[0], ctx);
  if (isError(x)) return x;
  const m = moments(args[1] ?? null, args[2] ?? null, ctx);
  if (isError(m)) return m;
  if (m.sxx === 0) return ERR.DIV0;
  return finite(m.my + (m.sxy / m.sxx) * (x - m.mx));
}

/** Known values read for the array functions: every one must be a number. */
function allNumbers(c: Cells): number[] | FormulaError {
  const out: number[] = [];
  for (const v of c.values) {
    if (typeof v === "number") out.push(v);
    else return isError(v) ? v : ERR.VALUE;
  }
  return out;
}

interface Known {
  /** Observations × predictors. */
  xs: number[][];
  y: number[];
  /** Predictors run down columns (y is a column) or across rows (y is a row). */
  byColumn: boolean;
  k: number;
}

/** A block of x values as observations × predictors, in the orientation the known y's set. */
function observations(c: Cells, values: number[], byColumn: boolean, k: number): number[][] {
  if (k === 1) return values.map((v) => [v]);
  if (byColumn) return Array.from({ length: c.rows }, (_, r) => values.slice(r * c.columns, (r + 1) * c.columns));
  return Array.from({ length: c.columns }, (_, col) => Array.from({ length: c.rows }, (_, r) => values[r * c.columns + col] as number));
}

function known(yArg: Value, xArg: Value | undefined, ctx: EvalContext, log: boolean): Known | FormulaError {
  const yc = cellsOf(yArg, ctx);
  if (isError(yc)) return yc;
  const yRaw = allNumbers(yc);
  if (isError(yRaw)) return yRaw;
  if (log && yRaw.some((v) => v <= 0)) return ERR.NUM;
  const y = log ? yRaw.map(Math.log) : yRaw;
  const n = y.length;
  const byColumn = yc.columns === 1;
  if (xArg === undefined || xArg === null) return { xs: y.map((_, i) => [i + 1]), y, byColumn, k: 1 };
  const xc = cellsOf(xArg, ctx);
  if (isError(xc)) return xc;
  const xv = allNumbers(xc);
  if (isError(xv)) return xv;
  let k: number;
  if (xc.rows === yc.rows && xc.columns === yc.columns) k = 1;
  else if (byColumn && xc.rows === n) k = xc.columns;
  else if (yc.rows === 1 && xc.columns === n) k = xc.rows;
  else return ERR.REF;
  return { xs: observations(xc, xv, byColumn, k), y, byColumn, k };
}

function flag(v: Value | undefined, ctx: EvalContext, fallback: boolean): boolean | FormulaError {
  if (v === undefined) return fallback;
  const s = scalarArg(v, ctx);
  return s === null ? fallback : toBoolean(s);
}

function fitted(args: Value[], ctx: EvalContext, log: boolean, constIndex: number): { kn: Known; fit: Fit } | FormulaError {
  const kn = known(args[0] ?? null, args[1], ctx, log);
  if (isError(kn)) return kn;
  const constant = flag(args[constIndex], ctx, true);
  if (isError(constant)) return constant;
  const fit = leastSquares(kn.xs, kn.y, constant);
  return fit ? { kn, fit } : ERR.NUM;
}

const cell = (x: number): Scalar => (Number.isFinite(x) ? x : ERR.NUM);

function linest(log: boolean) {
  return (args: Value[], ctx: EvalContext): Value => {
    const got = fitted(args, ctx, log, 2);
    if (isError(got)) return got;
    const stats = flag(args[3], ctx, false);
    if (isError(stats)) return stats;
    const { fit } = got;
    const out = (x: number) => cell(log ? Math.exp(x) : x);
    const first: Scalar[] = [...fit.coef.map(out).reverse(), out(fit.intercept)];
    if (!stats) return [first];
    const width = first.length;
    const pad = (row: Scalar[]) => [...row, ...new Array<Scalar>(width - row.length).fill(ERR.NA)];
    return [
      first,
      [...fit.se.map(cell).reverse(), fit.seIntercept === null ? ERR.NA : cell(fit.seIntercept)],
      pad([cell(fit.r2), cell(fit.sey)]),
      pad([cell(fit.f), fit.df]),
      pad([cell(fit.ssreg), cell(fit.ssresid)]),
    ];
  };
}

function trend(log: boolean) {
  return (args: Value[], ctx: EvalContext): Value => {
    const got = fitted(args, ctx, log, 3);
    if (isError(got)) return got;
    const { kn, fit } = got;
    let points = kn.xs;
    let shape = { rows: kn.byColumn ? points.length : 1, columns: kn.byColumn ? 1 : points.length };
    const newArg = args[2];
    if (newArg !== undefined && newArg !== null) {
      const nc = cellsOf(newArg, ctx);
      if (isError(nc)) return nc;
      const nv = allNumbers(nc);
      if (isError(nv)) return nv;
      if (kn.k > 1 && (kn.byColumn ? nc.columns : nc.rows) !== kn.k) return ERR.REF;
      points = observations(nc, nv, kn.byColumn, kn.k);
      shape =
        kn.k === 1
          ? { rows: nc.rows, columns: nc.columns }
          : kn.byColumn
            ? { rows: nc.rows, columns: 1 }
            : { rows: 1, columns: nc.columns };
    } else if (kn.k === 1 && args[1] !== undefined && args[1] !== null) {
      const xc = cellsOf(args[1], ctx);
      if (!isError(xc)) shape = { rows: xc.rows, columns: xc.columns };
    }
    const values = points.map((row) => {
      let v = fit.intercept;
      row.forEach((x, j) => (v += (fit.coef[j] as number) * x));
      return cell(log ? Math.exp(v) : v);
    });
    const out: ArrayValue = [];
    for (let r = 0; r < shape.rows; r++) out.push(values.slice(r * shape.columns, (r + 1) * shape.columns));
    return out;
  };
}

function fisher(x: number): Scalar {
  return x <= -1 || x >= 1 ? ERR.NUM : 0.5 * Math.log((1 + x) / (1 - x));
}

export const REGRESSION: FnTable = {
  CORREL: { min: 2, max: 2, call: paired(correl) },
  PEARSON: { min: 2, max: 2, call: paired(correl) },
  RSQ: { min: 2, max: 2, call: paired(rsq) },
  SLOPE: { min: 2, max: 2, call: paired(slope) },
  INTERCEPT: { min: 2, max: 2, call: paired(intercept) },
  STEYX: { min: 2, max: 2, call: paired(steyx) },
  COVAR: { min: 2, max: 2, call: paired(covariance(false)) },
  "COVARIANCE.P": { min: 2, max: 2, call: paired(covariance(false)) },
  "COVARIANCE.S": { min: 2, max: 2, call: paired(covariance(true)) },
  FORECAST: { min: 3, max: 3, call: forecast },
  "FORECAST.LINEAR": { min: 3, max: 3, call: forecast },
  FISHER: { min: 1, max: 1, scalar: numeric(fisher) },
  FISHERINV: { min: 1, max: 1, scalar: numeric((y) => Math.tanh(y)) },
  LINEST: { min: 1, max: 4, call: linest(false) },
  LOGEST: { min: 1, max: 4, call: linest(true) },
  TREND: { min: 1, max: 4, call: trend(false) },
  GROWTH: { min: 1, max: 4, call: trend(true) },
};
