// Depreciation functions: SLN, SYD, DB (fixed-declining, Excel's rate rounded to 3 decimals), DDB
// and VDB (double-declining, VDB switching to straight line when that is larger, as Excel does).
import { work } from "../budget.ts";
import { type Scalar } from "../values.ts";
import { ERR } from "../values.ts";
import { numeric } from "./loans.ts";
import type { FnTable } from "./spec.ts";

const sln = (cost: number, salvage: number, life: number): number | Scalar => (life === 0 ? ERR.DIV0 : (cost - salvage) / life);

function syd(cost: number, salvage: number, life: number, per: number): number | Scalar {
  if (life <= 0 || per <= 0 || per > life) return ERR.NUM;
  return ((cost - salvage) * (life - per + 1) * 2) / (life * (life + 1));
}

function db(cost: number, salvage: number, lifeIn: number, periodIn: number, monthIn: number): number | Scalar {
  const [life, period, month] = [Math.trunc(lifeIn), Math.trunc(periodIn), Math.trunc(monthIn)];
  if (cost < 0 || salvage < 0 || life <= 0 || period <= 0 || month < 1 || month > 12) return ERR.NUM;
  if (period > life + 1 || (period === life + 1 && month === 12)) return ERR.NUM;
  if (cost === 0) return 0;
  const rate = Math.round((1 - Math.pow(salvage / cost, 1 / life)) * 1000) / 1000;
  let total = (cost * rate * month) / 12;
  if (period === 1) return total;
  for (let p = 2; p <= period; p++) {
    work(1);
    const depreciation = p === life + 1 ? ((cost - total) * rate * (12 - month)) / 12 : (cost - total) * rate;
    if (p === period) return depreciation;
    total += depreciation;
  }
  return ERR.NUM;
}

/** One period's double-declining depreciation (LibreOffice's and Excel's closed form, fractional periods allowed). */
function ddbPeriod(cost: number, salvage: number, life: number, period: number, factor: number): number {
  let rate = factor / life;
  let before: number;
  if (rate >= 1) {
    rate = 1;
    before = period === 1 ? cost : 0;
  } else before = cost * Math.pow(1 - rate, period - 1);
  const after = cost * Math.pow(1 - rate, period);
  const value = after < salvage ? before - salvage : before - after;
  return value < 0 ? 0 : value;
}

function ddb(cost: number, salvage: number, life: number, period: number, factor: number): number | Scalar {
  if (cost < 0 || salvage < 0 || life <= 0 || period <= 0 || factor <= 0 || period > life) return ERR.NUM;
  return ddbPeriod(cost, salvage, life, period, factor);
}

/** Depreciation over whole periods 1..`period` of an asset with `remaining` life, switching to straight line. */
function vdbWhole(cost: number, salvage: number, life: number, remaining: number, period: number, factor: number): number {
  let total = 0;
  const end = Math.ceil(period);
  let left = cost - salvage;
  let straight = 0;
  let switched = false;
  for (let i = 1; i <= end; i++) {
    work(1);
    let term: number;
    if (!switched) {
      const declining = ddbPeriod(cost, salvage, life, i, factor);
      straight = left / (remaining - (i - 1));
      if (straight > declining) {
        term = straight;
        switched = true;
      } else {
        term = declining;
        left -= declining;
      }
    } else term = straight;
    if (i === end) term *= period + 1 - end;
    total += term;
  }
  return total;
}

function vdb(cost: number, salvage: number, life: number, start: number, end: number, factor: number, noSwitch: number) {
  if (start < 0 || end < start || end > life || cost < 0 || salvage > cost || factor <= 0) return ERR.NUM;
  const first = Math.floor(start);
  const last = Math.ceil(end);
  if (noSwitch) {
    let total = 0;
    for (let i = first + 1; i <= last; i++) {
      work(1);
      let term = ddbPeriod(cost, salvage, life, i, factor);
      if (i === first + 1) term *= Math.min(end, first + 1) - start;
      else if (i === last) term *= end + 1 - last;
      total += term;
    }
    return total;
  }
  let part = 0;
  if (start !== first) {
    const value = cost - vdbWhole(cost, salvage, life, life, first, factor);
    part += (start - first) * vdbWhole(value, salvage, life, life - first, 1, factor);
  }
  if (end !== last) {
    const value = cost - vdbWhole(cost, salvage, life, life, last - 1, factor);
    part += (last - end) * vdbWhole(value, salvage, life, life - (last - 1), 1, factor);
  }
  const remaining = cost - vdbWhole(cost, salvage, life, life, first, factor);
  return vdbWhole(remaining, salvage, life, life - first, last - first, factor) - part;
}

const U = undefined;

export const DEPRECIATION: FnTable = {
  SLN: { min: 3, max: 3, scalar: numeric([U, U, U], sln) },
  SYD: { min: 4, max: 4, scalar: numeric([U, U, U, U], syd) },
  DB: { min: 4, max: 5, scalar: numeric([U, U, U, U, 12], db) },
  DDB: { min: 4, max: 5, scalar: numeric([U, U, U, U, 2], ddb) },
  VDB: { min: 5, max: 7, scalar: numeric([U, U, U, U, U, 2, 0], vdb) },
};
