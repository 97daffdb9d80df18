// Financial functions: PMT, FV, PV, NPV, IRR (Excel's conventions: money paid out is negative,
// type 1 means payments at the start of each period).
import type { EvalContext } from "../context.ts";
import { toNumber } from "../coerce.ts";
import { ERR, isError, isArray, isRange, type Scalar, type Value } from "../values.ts";
import { eachNumber, numberArg } from "./args.ts";
import type { FnTable } from "./spec.ts";

export function numbersOf(args: Scalar[], defaults: number[]): number[] | Scalar {
  const xs: number[] = [];
  for (let i = 0; i < defaults.length; i++) {
    const a = args[i];
    const n = a === undefined || a === null ? (defaults[i] as number) : toNumber(a);
    if (isError(n)) return n;
    if (Number.isNaN(n)) return ERR.VALUE;
    xs.push(n);
  }
  return xs;
}

export const finite = (n: number): Scalar => (Number.isFinite(n) ? n : ERR.NUM);

function money(f: (...xs: number[]) => number, defaults: number[]) {
  return (args: Scalar[]): Scalar => {
    const xs = numbersOf(args, defaults);
    return Array.isArray(xs) ? finite(f(...xs)) : xs;
  };
}

export function pmt(rate: number, nper: number, pv: number, fv: number, type: number): number {
  if (nper === 0) return NaN;
  if (rate === 0) return -(pv + fv) / nper;
  const growth = Math.pow(1 + rate, nper);
  return -(rate * (fv + pv * growth)) / ((1 + rate * (type ? 1 : 0)) * (growth - 1));
}

export function fv(rate: number, nper: number, payment: number, pv: number, type: number): number {
  if (rate === 0) return -(pv + payment * nper);
  const growth = Math.pow(1 + rate, nper);
  return -(pv * growth + (payment * (1 + rate * (type ? 1 : 0)) * (growth - 1)) / rate);
}

function pv(rate: number, nper: number, payment: number, future: number, type: number): number {
  if (rate === 0) return -(future + payment * nper);
  const growth = Math.pow(1 + rate, nper);
  return -(future + (payment * (1 + rate * (type ? 1 : 0)) * (growth - 1)) / rate) / growth;
}

function npv(args: Value[], ctx: EvalContext): Value {
  const rate = numberArg(args[0], ctx);
  if (isError(rate)) return rate;
  if (rate === -1) return ERR.DIV0;
  let total = 0;
  let i = 1;
  const error = eachNumber(args.slice(1), ctx, (x) => (total += x / Math.pow(1 + rate, i++)));
  return error ?? finite(total);
}

/** IRR by Newton's method from the guess (Excel's 10%), to a relative step of 1e-12, at most 100 steps. */
function irr(args: Value[], ctx: EvalContext): Value {
  const flows: number[] = [];
  const source = args[0] as Value;
  if (!isRange(source) && !isArray(source)) return ERR.VALUE;
  const error = eachNumber([source], ctx, (x) => flows.push(x));
  if (error) return error;
  if (!flows.some((x) => x > 0) || !flows.some((x) => x < 0)) return ERR.NUM;
  const guess = numberArg(args[1], ctx, 0.1);
  if (isError(guess)) return guess;
  let rate = guess;
  for (let step = 0; step < 100; step++) {
    let value = 0;
    let slope = 0;
    for (let t = 0; t < flows.length; t++) {
      const discount = Math.pow(1 + rate, t);
      value += (flows[t] as number) / discount;
      slope -= (t * (flows[t] as number)) / (discount * (1 + rate));
    }
    if (slope === 0 || !Number.isFinite(value)) return ERR.NUM;
    const next = rate - value / slope;
    if (!Number.isFinite(next) || next <= -1) return ERR.NUM;
    if (Math.abs(next - rate) <= 1e-12 * Math.max(1, Math.abs(rate))) return next;
    rate = next;
  }
  return ERR.NUM;
}

export const FINANCE: FnTable = {
  PMT: { min: 3, max: 5, scalar: money(pmt, [NaN, NaN, NaN, 0, 0]) },
  FV: { min: 3, max: 5, scalar: money(fv, [NaN, NaN, NaN, 0, 0]) },
  PV: { min: 3, max: 5, scalar: money(pv, [NaN, NaN, NaN, 0, 0]) },
  NPV: { min: 2, max: 255, call: npv },
  IRR: { min: 1, max: 2, call: irr },
};
