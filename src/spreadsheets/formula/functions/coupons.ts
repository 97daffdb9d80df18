// A bond's coupon calendar (COUPPCD, COUPNCD, COUPNUM, COUPDAYS, COUPDAYBS, COUPDAYSNC): coupon
// dates step back from maturity by 12/frequency months (kept at month end when maturity is one),
// days counted by Excel's five bases (0 US 30/360, 1 actual/actual, 2 actual/360, 3 actual/365,
// 4 European 30/360). PRICE, YIELD and DURATION (bonds.ts) build on it.
import { work } from "../budget.ts";
import { daysInMonth, MAX_DATE_SERIAL, serialFromYmd, ymdFromSerial } from "../../cells/dates.ts";
import { toNumber } from "../coerce.ts";
import { ERR, isError, type FormulaError, type Scalar } from "../values.ts";
import { yearFraction } from "./calendar.ts";
import type { FnTable } from "./spec.ts";

export interface Coupons {
  settlement: number;
  maturity: number;
  frequency: number;
  basis: number;
  /** The coupon dates either side of settlement, and how many fall after it (maturity included). */
  previous: number;
  next: number;
  count: number;
}

/** The coupon date `k` periods before maturity. */
function couponBefore(maturity: number, months: number): number {
  const m = ymdFromSerial(maturity);
  const endOfMonth = m.day === daysInMonth(m.year, m.month);
  const total = m.year * 12 + (m.month - 1) - months;
  const [y, mo] = [Math.floor(total / 12), (total % 12) + 1];
  const last = daysInMonth(y, mo);
  return serialFromYmd(y, mo, endOfMonth ? last : Math.min(m.day, last));
}

/** Days from `start` to `end` as the basis counts them. */
export function dayCount(start: number, end: number, basis: number): number {
  if (basis === 0 || basis === 4) return Math.round((yearFraction(start, end, basis) as number) * 360);
  return end - start;
}

/** The coupon calendar of the arguments (settlement, maturity, frequency, basis), or Excel's #NUM!/#VALUE!. */
export function coupons(settle: Scalar, mature: Scalar, freq: Scalar, base: Scalar | undefined): Coupons | FormulaError {
  const xs: number[] = [];
  for (const v of [settle, mature, freq, base ?? 0]) {
    const n = toNumber(v);
    if (isError(n)) return n;
    xs.push(Math.trunc(n));
  }
  const [settlement, maturity, frequency, basis] = xs as [number, number, number, number];
  if (settlement < 0 || maturity > MAX_DATE_SERIAL || settlement >= maturity) return ERR.NUM;
  if (![1, 2, 4].includes(frequency) || basis < 0 || basis > 4) return ERR.NUM;
  const step = 12 / frequency;
  let count = 1;
  while (couponBefore(maturity, count * step) > settlement) {
    work(1);
    count++;
  }
  return {
    settlement,
    maturity,
    frequency,
    basis,
    previous: couponBefore(maturity, count * step),
    next: couponBefore(maturity, (count - 1) * step),
    count,
  };
}

/** Days in the coupon period that holds settlement. */
export function periodDays(c: Coupons): number {
  if (c.basis === 1) return c.next - c.previous;
  return (c.basis === 3 ? 365 : 360) / c.frequency;
}

export const daysBefore = (c: Coupons): number => dayCount(c.previous, c.settlement, c.basis);

export function daysAfter(c: Coupons): number {
  return c.basis === 0 || c.basis === 4 ? periodDays(c) - daysBefore(c) : c.next - c.settlement;
}

function coupon(f: (c: Coupons) => number) {
  return (args: Scalar[]): Scalar => {
    const c = coupons(args[0] ?? null, args[1] ?? null, args[2] ?? null, args[3]);
    return isError(c) ? c : f(c);
  };
}

const spec = (f: (c: Coupons) => number) => ({ min: 3, max: 4, scalar: coupon(f) });

export const COUPONS: FnTable = {
  COUPPCD: spec((c) => c.previous),
  COUPNCD: spec((c) => c.next),
  COUPNUM: spec((c) => c.count),
  COUPDAYS: spec(periodDays),
  COUPDAYBS: spec(daysBefore),
  COUPDAYSNC: spec(daysAfter),
};
