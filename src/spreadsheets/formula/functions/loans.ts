// Loan and interest functions beyond PMT/FV/PV (finance.ts): NPER, RATE, IPMT, PPMT, CUMIPMT,
// CUMPRINC, ISPMT, EFFECT, NOMINAL, PDURATION, RRI, FVSCHEDULE, DOLLARDE, DOLLARFR, with Excel's
// errors (#NUM! where the loan cannot be paid off or an argument is out of its domain).
import { work } from "../budget.ts";
import type { EvalContext } from "../context.ts";
import { toNumber } from "../coerce.ts";
import { ERR, isError, type Scalar, type Value } from "../values.ts";
import { eachNumber, numberArg } from "./args.ts";
import { finite, fv, pmt } from "./finance.ts";
import type { FnTable } from "./spec.ts";

/**
 * A scalar function of numbers: `defaults[i]` stands for an omitted argument (undefined: required);
 * an empty cell or an omitted middle argument (`NPER(1,,2)`) is 0, as Excel reads it.
 */
export function numeric(defaults: (number | undefined)[], f: (...xs: number[]) => number | Scalar) {
  return (args: Scalar[]): Scalar => {
    const xs: number[] = [];
    for (let i = 0; i < defaults.length; i++) {
      const a = args[i];
      const n = a === undefined ? (defaults[i] ?? 0) : toNumber(a);
      if (isError(n)) return n;
      xs.push(n);
    }
    const out = f(...xs);
    return typeof out === "number" ? finite(out) : out;
  };
}

const due = (type: number): number => (type ? 1 : 0);

function nper(rate: number, payment: number, pv: number, future: number, type: number): number | Scalar {
  if (rate === 0) return payment === 0 ? ERR.NUM : -(pv + future) / payment;
  const paid = payment * (1 + rate * due(type));
  const ratio = (paid - future * rate) / (paid + pv * rate);
  return ratio <= 0 || rate <= -1 ? ERR.NUM : Math.log(ratio) / Math.log(1 + rate);
}

/** RATE by Newton's method from the guess (Excel's 10%), as Excel: #NUM! when it does not settle. */
function rate(periods: number, payment: number, pv: number, future: number, type: number, guess: number): number | Scalar {
  if (periods <= 0) return ERR.NUM;
  const t = due(type);
  const f = (r: number): number => {
    if (Math.abs(r) < 1e-12) return pv + payment * periods + future;
    const growth = Math.pow(1 + r, periods);
    return pv * growth + (payment * (1 + r * t) * (growth - 1)) / r + future;
  };
  let r = guess;
  for (let step = 0; step < 100; step++) {
    const value = f(r);
    const h = Math.max(1e-7, Math.abs(r) * 1e-7);
    const slope = (f(r + h) - f(r - h)) / (2 * h);
    if (!Number.isFinite(value) || !Number.isFinite(slope) || slope === 0) return ERR.NUM;
    const next = r - value / slope;
    if (!Number.isFinite(next) || next <= -1) return ERR.NUM;
    if (Math.abs(next - r) < 1e-10) return next;
    r = next;
  }
  return ERR.NUM;
}

/** The interest part of payment `per` (1-based): the balance after per-1 payments times the rate. */
export function ipmt(rate: number, per: number, periods: number, pv: number, future: number, type: number): number {
  const payment = pmt(rate, periods, pv, future, type);
  if (per === 1) return due(type) ? 0 : -pv * rate;
  const balance = due(type) ? fv(rate, per - 2, payment, pv, 1) - payment : fv(rate, per - 1, payment, pv, 0);
  return balance * rate;
}

function interest(rate: number, per: number, periods: number, pv: number, future: number, type: number, principal: boolean) {
  if (per < 1 || per >= periods + 1) return ERR.NUM;
  const i = ipmt(rate, per, periods, pv, future, type);
  return principal ? pmt(rate, periods, pv, future, type) - i : i;
}

function cumulative(principal: boolean) {
  return (rate: number, periods: number, pv: number, start: number, end: number, type: number): number | Scalar => {
    const [s, e] = [Math.trunc(start), Math.trunc(end)];
    if (rate <= 0 || periods <= 0 || pv <= 0 || s < 1 || e < 1 || s > e || e > periods || (type !== 0 && type !== 1)) return ERR.NUM;
    let total = 0;
    for (let per = s; per <= e; per++) {
      work(1);
      const i = ipmt(rate, per, periods, pv, 0, type);
      total += principal ? pmt(rate, periods, pv, 0, type) - i : i;
    }
    return total;
  };
}

function effect(nominal: number, perYear: number): number | Scalar {
  const p = Math.trunc(perYear);
  return nominal <= 0 || p < 1 ? ERR.NUM : Math.pow(1 + nominal / p, p) - 1;
}

function nominal(effective: number, perYear: number): number | Scalar {
  const p = Math.trunc(perYear);
  return effective <= 0 || p < 1 ? ERR.NUM : p * (Math.pow(1 + effective, 1 / p) - 1);
}

const pduration = (r: number, pv: number, future: number): number | Scalar =>
  r <= 0 || pv <= 0 || future <= 0 ? ERR.NUM : (Math.log(future) - Math.log(pv)) / Math.log(1 + r);

const rri = (periods: number, pv: number, future: number): number | Scalar =>
  periods <= 0 || (pv === 0 && future !== 0) ? ERR.NUM : Math.pow(future / pv, 1 / periods) - 1;

const ispmt = (r: number, per: number, periods: number, pv: number): number | Scalar =>
  periods === 0 ? ERR.DIV0 : pv * r * (per / periods - 1);

/** DOLLARDE / DOLLARFR: the fraction's digits are the power of ten the fractional part is scaled by. */
function dollar(toDecimal: boolean) {
  return (price: number, fraction: number): number | Scalar => {
    const f = Math.trunc(fraction);
    if (f < 0) return ERR.NUM;
    if (f === 0) return ERR.DIV0;
    const whole = Math.trunc(price);
    const scale = Math.pow(10, Math.ceil(Math.log10(f)));
    const part = price - whole;
    return toDecimal ? whole + (part * scale) / f : whole + (part * f) / scale;
  };
}

function fvschedule(args: Value[], ctx: EvalContext): Value {
  const principal = numberArg(args[0], ctx);
  if (isError(principal)) return principal;
  let total = principal;
  const error = eachNumber([args[1] as Value], ctx, (r) => (total *= 1 + r));
  return error ?? finite(total);
}

export const LOANS: FnTable = {
  NPER: { min: 3, max: 5, scalar: numeric([undefined, undefined, undefined, 0, 0], nper) },
  RATE: { min: 3, max: 6, scalar: numeric([undefined, undefined, undefined, 0, 0, 0.1], rate) },
  IPMT: { min: 4, max: 6, scalar: numeric([undefined, undefined, undefined, undefined, 0, 0], (...xs) => interest(...(xs as Six), false)) },
  PPMT: { min: 4, max: 6, scalar: numeric([undefined, undefined, undefined, undefined, 0, 0], (...xs) => interest(...(xs as Six), true)) },
  CUMIPMT: { min: 6, max: 6, scalar: numeric([undefined, undefined, undefined, undefined, undefined, undefined], cumulative(false)) },
  CUMPRINC: { min: 6, max: 6, scalar: numeric([undefined, undefined, undefined, undefined, undefined, undefined], cumulative(true)) },
  ISPMT: { min: 4, max: 4, scalar: numeric([undefined, undefined, undefined, undefined], ispmt) },
  EFFECT: { min: 2, max: 2, scalar: numeric([undefined, undefined], effect) },
  NOMINAL: { min: 2, max: 2, scalar: numeric([undefined, undefined], nominal) },
  PDURATION: { min: 3, max: 3, scalar: numeric([undefined, undefined, undefined], pduration) },
  RRI: { min: 3, max: 3, scalar: numeric([undefined, undefined, undefined], rri) },
  DOLLARDE: { min: 2, max: 2, scalar: numeric([undefined, undefined], dollar(true)) },
  DOLLARFR: { min: 2, max: 2, scalar: numeric([undefined, undefined], dollar(false)) },
  FVSCHEDULE: { min: 2, max: 2, call: fvschedule },
};

type Six = [number, number, number, number, number, number];
