// Cash-flow functions over ranges: MIRR, XNPV and XIRR (dated flows, 365-day years, XIRR by
// Newton's method from Excel's 10% guess). Values and dates pair up cell by cell, empty cells too.
import type { EvalContext } from "../context.ts";
import { toNumber } from "../coerce.ts";
import { ERR, isError, type FormulaError, type Value } from "../values.ts";
import { eachNumber, gridOf, numberArg } from "./args.ts";
import type { FnTable } from "./spec.ts";

/** Every cell of a range or array as a number, in order; #VALUE! for text or empty cells, the first error as is. */
function strictNumbers(v: Value, ctx: EvalContext): number[] | FormulaError {
  const grid = gridOf(v, ctx);
  if (isError(grid)) return grid;
  ctx.step(grid.rows * grid.columns);
  const out: number[] = [];
  for (let r = 0; r < grid.rows; r++)
    for (let c = 0; c < grid.columns; c++) {
      const x = grid.at(r, c);
      if (isError(x)) return x;
      if (typeof x !== "number") {
        const n = typeof x === "string" ? toNumber(x) : ERR.VALUE;
        if (isError(n)) return ERR.VALUE;
        out.push(n);
      } else out.push(x);
    }
  return out;
}

function mirr(args: Value[], ctx: EvalContext): Value {
  const flows: number[] = [];
  const error = eachNumber([args[0] as Value], ctx, (x) => flows.push(x));
  if (error) return error;
  const finance = numberArg(args[1], ctx);
  if (isError(finance)) return finance;
  const reinvest = numberArg(args[2], ctx);
  if (isError(reinvest)) return reinvest;
  const n = flows.length;
  if (finance === -1 || reinvest === -1) return ERR.DIV0;
  let positive = 0;
  let negative = 0;
  flows.forEach((x, t) => {
    if (x > 0) positive += x * Math.pow(1 + reinvest, n - 1 - t);
    else if (x < 0) negative += x / Math.pow(1 + finance, t);
  });
  if (positive === 0 || negative === 0) return ERR.DIV0;
  const result = Math.pow(-positive / negative, 1 / (n - 1)) - 1;
  return Number.isFinite(result) ? result : ERR.NUM;
}

interface Dated {
  values: number[];
  days: number[];
}

function dated(args: Value[], ctx: EvalContext, at: number): Dated | FormulaError {
  const values = strictNumbers(args[at] as Value, ctx);
  if (isError(values)) return values;
  const dates = strictNumbers(args[at + 1] as Value, ctx);
  if (isError(dates)) return dates;
  if (values.length !== dates.length || values.length === 0) return ERR.NUM;
  const first = Math.trunc(dates[0] as number);
  const days = dates.map((d) => Math.trunc(d) - first);
  if (dates.some((d) => d < 0) || days.some((d) => d < 0)) return ERR.NUM;
  return { values, days };
}

const presentValue = (rate: number, { values, days }: Dated): number =>
  values.reduce((sum, v, i) => sum + v / Math.pow(1 + rate, (days[i] as number) / 365), 0);

function xnpv(args: Value[], ctx: EvalContext): Value {
  const rate = numberArg(args[0], ctx);
  if (isError(rate)) return rate;
  const flows = dated(args, ctx, 1);
  if (isError(flows)) return flows;
  if (rate <= -1) return ERR.NUM;
  const total = presentValue(rate, flows);
  return Number.isFinite(total) ? total : ERR.NUM;
}

function xirr(args: Value[], ctx: EvalContext): Value {
  const flows = dated(args, ctx, 0);
  if (isError(flows)) return flows;
  const guess = numberArg(args[2], ctx, 0.1);
  if (isError(guess)) return guess;
  if (!flows.values.some((v) => v > 0) || !flows.values.some((v) => v < 0) || guess <= -1) return ERR.NUM;
  let rate = guess;
  for (let step = 0; step < 100; step++) {
    let value = 0;
    let slope = 0;
    flows.values.forEach((v, i) => {
      const years = (flows.days[i] as number) / 365;
      const discount = Math.pow(1 + rate, years);
      value += v / discount;
      slope -= (years * v) / (discount * (1 + rate));
    });
    if (!Number.isFinite(value) || slope === 0 || !Number.isFinite(slope)) return ERR.NUM;
    let next = rate - value / slope;
    if (next <= -1) next = (rate - 1) / 2;
    if (Math.abs(next - rate) < 1e-10) return next;
    rate = next;
  }
  return ERR.NUM;
}

export const FLOWS: FnTable = {
  MIRR: { min: 3, max: 3, call: mirr },
  XNPV: { min: 3, max: 3, call: xnpv },
  XIRR: { min: 2, max: 3, call: xirr },
};
