// The French accounting system's depreciation, AMORLINC (linear, the first period prorated) and
// AMORDEGRC (declining, the rate times a coefficient for the asset's life, amounts rounded), as
// LibreOffice and Excel compute them; the first period runs from purchase to the first period's
// end by YEARFRAC's basis (basis 2 is #NUM!, as in Excel).
import { work } from "../budget.ts";
import { ERR, type Scalar } from "../values.ts";
import { yearFraction } from "./calendar.ts";
import { numeric } from "./loans.ts";
import type { FnTable } from "./spec.ts";

type Args = [cost: number, bought: number, first: number, salvage: number, period: number, rate: number, basis: number];

function invalid([cost, bought, first, salvage, period, rate, basis]: Args): boolean {
  const b = Math.trunc(basis);
  return cost < 0 || salvage < 0 || salvage > cost || period < 0 || rate <= 0 || first < bought || b < 0 || b > 4 || b === 2;
}

const firstPart = (a: Args): number => yearFraction(Math.trunc(a[1]), Math.trunc(a[2]), Math.trunc(a[6])) as number;

function amorlinc(...xs: number[]): number | Scalar {
  const a = xs as Args;
  if (invalid(a)) return ERR.NUM;
  const [cost, , , salvage, periodIn, rate] = a;
  const period = Math.trunc(periodIn);
  const full = cost * rate;
  const first = firstPart(a) * rate * cost;
  const whole = Math.trunc((cost - salvage - first) / full);
  const out = period === 0 ? first : period <= whole ? full : period === whole + 1 ? cost - salvage - full * whole - first : 0;
  return out > 0 ? out : 0;
}

function amordegrc(...xs: number[]): number | Scalar {
  const a = xs as Args;
  if (invalid(a)) return ERR.NUM;
  const [costIn, , , salvage, periodIn, rateIn] = a;
  const period = Math.trunc(periodIn);
  const life = 1 / rateIn;
  const coefficient = life < 3 ? 1 : life < 5 ? 1.5 : life <= 6 ? 2 : 2.5;
  const rate = rateIn * coefficient;
  let amount = Math.round(firstPart(a) * rate * costIn);
  let cost = costIn - amount;
  let rest = cost - salvage;
  for (let n = 0; n < period; n++) {
    work(1);
    amount = Math.round(rate * cost);
    rest -= amount;
    if (rest < 0) return period - n <= 1 ? Math.round(cost * 0.5) : 0;
    cost -= amount;
  }
  return amount;
}

const U = undefined;

export const AMORTIZATION: FnTable = {
  AMORLINC: { min: 6, max: 7, scalar: numeric([U, U, U, U, U, U, 0], amorlinc) },
  AMORDEGRC: { min: 6, max: 7, scalar: numeric([U, U, U, U, U, U, 0], amordegrc) },
};
