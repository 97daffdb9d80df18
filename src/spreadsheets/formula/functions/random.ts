// Random numbers: RAND, RANDBETWEEN, RANDARRAY — volatile, so every write recomputes them, as Excel
// recomputes them on every recalculation.
import type { EvalContext } from "../context.ts";
import { toBoolean, toNumber } from "../coerce.ts";
import { MAX_COLUMNS, MAX_ROWS } from "../../cells/types.ts";
import { ERR, isError, type Scalar, type Value } from "../values.ts";
import { scalarArg } from "./args.ts";
import { numeric } from "./numeric.ts";
import type { FnTable } from "./spec.ts";

function between(lo: number, hi: number): Scalar {
  const a = Math.ceil(lo);
  const b = Math.floor(hi);
  if (a > b) return ERR.NUM;
  return a + Math.floor(Math.random() * (b - a + 1));
}

function randarray(args: Value[], ctx: EvalContext): Value {
  const read = (i: number, fallback: number) => {
    const v = scalarArg(args[i], ctx);
    return v === null ? fallback : toNumber(v);
  };
  const [rows, cols, min, max] = [read(0, 1), read(1, 1), read(2, 0), read(3, 1)];
  for (const x of [rows, cols, min, max]) if (isError(x)) return x;
  const whole = args[4] === undefined ? false : toBoolean(scalarArg(args[4], ctx));
  if (isError(whole)) return whole;
  const [r, c, lo, hi] = [Math.trunc(rows as number), Math.trunc(cols as number), min as number, max as number];
  if (r === 0 || c === 0) return ERR.CALC;
  if (r < 0 || c < 0 || r > MAX_ROWS || c > MAX_COLUMNS || lo > hi) return ERR.VALUE;
  if (whole && (!Number.isInteger(lo) || !Number.isInteger(hi))) return ERR.VALUE;
  ctx.cells(r * c);
  ctx.step(r * c);
  const next = whole ? () => lo + Math.floor(Math.random() * (hi - lo + 1)) : () => lo + Math.random() * (hi - lo);
  return Array.from({ length: r }, () => Array.from({ length: c }, next));
}

export const RANDOM: FnTable = {
  RAND: { min: 0, max: 0, scalar: () => Math.random(), volatile: true },
  RANDBETWEEN: { min: 2, max: 2, scalar: numeric(between), volatile: true },
  RANDARRAY: { min: 0, max: 5, call: randarray, volatile: true },
};
