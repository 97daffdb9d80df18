// Arithmetic and aggregate functions: SUM and its conditional forms, SUMPRODUCT, rounding, MOD …
import type { EvalContext } from "../context.ts";
import { rangeToArray } from "../ops.ts";
import { ERR, type FormulaError, isArray, isError, isRange, type ArrayValue, type Scalar, type Value } from "../values.ts";
import { eachNumber, totalsOf } from "./args.ts";
import { conditions, resized, sumMatches } from "./conditional.ts";
import { finite, numeric } from "./numeric.ts";
import { roundDigits, type RoundMode } from "./rounding.ts";
import type { FnTable } from "./spec.ts";

function sum(args: Value[], ctx: EvalContext): Value {
  const totals = totalsOf(args, ctx);
  return isError(totals) ? totals : totals.sum;
}

function product(args: Value[], ctx: EvalContext): Value {
  let total = 1;
  let any = false;
  const error = eachNumber(args, ctx, (n) => ((total *= n), (any = true)));
  return error ?? (any ? finite(total) : 0);
}

function sumif(args: Value[], ctx: EvalContext): Value {
  const conds = conditions(args.slice(0, 2), ctx);
  if (isError(conds)) return conds;
  const target = args[2] === undefined ? conds[0]?.range : args[2];
  if (!isRange(target) || !conds[0]) return ERR.VALUE;
  const r = sumMatches(conds, resized(target, conds[0].range), ctx);
  return isError(r) ? r : r.sum;
}

function sumifs(args: Value[], ctx: EvalContext): Value {
  const [target, ...rest] = args;
  if (!isRange(target) || rest.length % 2 !== 0) return ERR.VALUE;
  const conds = conditions(rest, ctx);
  if (isError(conds)) return conds;
  if (conds[0] && (conds[0].range.rows !== target.rows || conds[0].range.columns !== target.columns)) return ERR.VALUE;
  const r = sumMatches(conds, target, ctx);
  return isError(r) ? r : r.sum;
}

/** The argument as an array for SUMPRODUCT, references clipped to `height` rows (rows beyond hold nothing). */
function asArray(v: Value, ctx: EvalContext): ArrayValue | FormulaError {
  if (isRange(v)) return rangeToArray(v, ctx);
  if (isArray(v)) return v;
  if (isError(v)) return v;
  return [[v]];
}

function sumproduct(args: Value[], ctx: EvalContext): Value {
  const arrays: ArrayValue[] = [];
  for (const arg of args) {
    const a = asArray(arg, ctx);
    if (isError(a)) return a;
    if (arrays[0] && (arrays[0].length !== a.length || (arrays[0][0]?.length ?? 0) !== (a[0]?.length ?? 0))) return ERR.VALUE;
    arrays.push(a);
  }
  const first = arrays[0] as ArrayValue;
  let total = 0;
  for (let r = 0; r < first.length; r++) {
    const width = first[r]?.length ?? 0;
    for (let c = 0; c < width; c++) {
      let p = 1;
      for (const a of arrays) {
        const v = a[r]?.[c] ?? null;
        if (isError(v)) return v;
        p *= typeof v === "number" ? v : 0;
      }
      total += p;
    }
  }
  return total;
}

const rounder = (mode: RoundMode) => numeric((x, d) => roundDigits(x, d, mode), [0, 0]);

function mod(n: number, d: number): Scalar {
  if (d === 0) return ERR.DIV0;
  const q = Math.floor(n / d);
  const r = n - d * q;
  // Excel's result has the divisor's sign; one ulp of binary error must not flip it into a whole divisor.
  return Math.abs(r - d) < Math.abs(d) * 1e-15 ? 0 : r;
}

function power(x: number, y: number): Scalar {
  if (x === 0 && y === 0) return ERR.NUM;
  if (x === 0 && y < 0) return ERR.DIV0;
  const r = Math.pow(x, y);
  return Number.isNaN(r) ? ERR.NUM : r;
}

export const MATH: FnTable = {
  SUM: { min: 1, max: 255, call: sum },
  PRODUCT: { min: 1, max: 255, call: product },
  SUMIF: { min: 2, max: 3, call: sumif },
  SUMIFS: { min: 3, max: 255, call: sumifs },
  SUMPRODUCT: { min: 1, max: 255, call: sumproduct },
  ROUND: { min: 2, max: 2, scalar: rounder("half") },
  ROUNDUP: { min: 2, max: 2, scalar: rounder("up") },
  ROUNDDOWN: { min: 2, max: 2, scalar: rounder("down") },
  TRUNC: { min: 1, max: 2, scalar: rounder("down") },
  INT: { min: 1, max: 1, scalar: numeric((x) => Math.floor(x)) },
  MOD: { min: 2, max: 2, scalar: numeric(mod) },
  ABS: { min: 1, max: 1, scalar: numeric((x) => Math.abs(x)) },
  SIGN: { min: 1, max: 1, scalar: numeric((x) => Math.sign(x)) },
  POWER: { min: 2, max: 2, scalar: numeric(power) },
  SQRT: { min: 1, max: 1, scalar: numeric((x) => (x < 0 ? ERR.NUM : Math.sqrt(x))) },
  EXP: { min: 1, max: 1, scalar: numeric((x) => Math.exp(x)) },
  LN: { min: 1, max: 1, scalar: numeric((x) => (x <= 0 ? ERR.NUM : Math.log(x))) },
  LOG10: { min: 1, max: 1, scalar: numeric((x) => (x <= 0 ? ERR.NUM : Math.log10(x))) },
  PI: { min: 0, max: 0, scalar: () => Math.PI },
};
