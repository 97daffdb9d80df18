// Priced bonds with periodic coupons: PRICE, YIELD (closed form with one coupon left, else solved
// by Newton's method from PRICE, as Excel does), DURATION and MDURATION, on the coupon calendar
// of coupons.ts.
import { work } from "../budget.ts";
import { toNumber } from "../coerce.ts";
import { ERR, isError, type FormulaError, type Scalar } from "../values.ts";
import { coupons, type Coupons, daysAfter, daysBefore, periodDays } from "./coupons.ts";
import type { FnTable } from "./spec.ts";

function price(c: Coupons, rate: number, yld: number, redemption: number): number {
  const [e, a, dsc, n, f] = [periodDays(c), daysBefore(c), daysAfter(c), c.count, c.frequency];
  const coupon = (100 * rate) / f;
  if (n === 1) return (redemption + coupon) / (1 + ((dsc / e) * yld) / f) - (coupon * a) / e;
  let total = redemption / Math.pow(1 + yld / f, n - 1 + dsc / e);
  for (let k = 1; k <= n; k++) {
    work(1);
    total += coupon / Math.pow(1 + yld / f, k - 1 + dsc / e);
  }
  return total - (coupon * a) / e;
}

/** Numbers of args[from..] (undefined: the default given), or the first error. */
function numbersFrom(args: Scalar[], from: number, defaults: (number | undefined)[]): number[] | FormulaError {
  const out: number[] = [];
  for (let i = 0; i < defaults.length; i++) {
    const a = args[from + i];
    const n = a === undefined ? (defaults[i] ?? 0) : toNumber(a);
    if (isError(n)) return n;
    out.push(n);
  }
  return out;
}

/** PRICE and YIELD: settlement, maturity, rate, then yield or price, redemption, frequency, basis. */
function bond(solve: boolean) {
  return (args: Scalar[]): Scalar => {
    const xs = numbersFrom(args, 2, [undefined, undefined, undefined]);
    if (isError(xs)) return xs;
    const c = coupons(args[0] ?? null, args[1] ?? null, args[5] ?? null, args[6]);
    if (isError(c)) return c;
    const [rate, given, redemption] = xs as [number, number, number];
    if (rate < 0 || given < 0 || redemption <= 0) return ERR.NUM;
    if (!solve) return price(c, rate, given, redemption);
    if (given === 0) return ERR.NUM;
    const [e, a, dsc, f] = [periodDays(c), daysBefore(c), daysAfter(c), c.frequency];
    if (c.count === 1) {
      const paid = given / 100 + ((a / e) * rate) / f;
      return ((redemption / 100 + rate / f - paid) / paid) * ((f * e) / dsc);
    }
    let y = rate || 0.05;
    for (let step = 0; step < 100; step++) {
      const value = price(c, rate, y, redemption) - given;
      const h = 1e-7;
      const slope = (price(c, rate, y + h, redemption) - price(c, rate, y - h, redemption)) / (2 * h);
      if (!Number.isFinite(slope) || slope === 0) return ERR.NUM;
      const next = y - value / slope;
      if (Math.abs(next - y) < 1e-12) return next;
      y = next <= -f ? (y - f) / 2 : next;
    }
    return ERR.NUM;
  };
}

/** Macaulay duration (modified: divided by 1 + yield/frequency), LibreOffice's and Excel's sum over the coupons. */
function duration(modified: boolean) {
  return (args: Scalar[]): Scalar => {
    const xs = numbersFrom(args, 2, [undefined, undefined]);
    if (isError(xs)) return xs;
    const c = coupons(args[0] ?? null, args[1] ?? null, args[4] ?? null, args[5]);
    if (isError(c)) return c;
    const [rate, yld] = xs as [number, number];
    if (rate < 0 || yld < 0) return ERR.NUM;
    const f = c.frequency;
    const coupon = (100 * rate) / f;
    const growth = 1 + yld / f;
    const shift = daysAfter(c) / periodDays(c) - 1;
    let weighted = 0;
    let value = 0;
    for (let t = 1; t <= c.count; t++) {
      const flow = t === c.count ? coupon + 100 : coupon;
      const discounted = flow / Math.pow(growth, t + shift);
      weighted += (t + shift) * discounted;
      value += discounted;
    }
    const d = weighted / value / f;
    return modified ? d / growth : d;
  };
}

export const BONDS: FnTable = {
  PRICE: { min: 6, max: 7, scalar: bond(false) },
  YIELD: { min: 6, max: 7, scalar: bond(true) },
  DURATION: { min: 5, max: 6, scalar: duration(false) },
  MDURATION: { min: 5, max: 6, scalar: duration(true) },
};
