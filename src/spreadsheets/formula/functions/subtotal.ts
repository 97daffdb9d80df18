// SUBTOTAL and AGGREGATE: one of several aggregates over references, skipping cells whose formula
// calls SUBTOTAL or AGGREGATE (so a column of subtotals is not counted twice); AGGREGATE can also
// skip error values. The workbook model has no hidden rows, so the "ignore hidden rows" codes
// (101–111, AGGREGATE options 1, 3, 5, 7) compute as their plain forms: nothing is hidden.
import type { EvalContext } from "../context.ts";
import { ERR, type FormulaError, isArray, isError, isRange, type Scalar, type Value } from "../values.ts";
import { numberArg } from "./args.ts";
import { DESCRIBE } from "./describe.ts";
import { MATH } from "./math.ts";
import { RANKING } from "./ranking.ts";
import type { FnSpec, FnTable } from "./spec.ts";
import { STATS } from "./stats.ts";

/** The aggregate functions by their SUBTOTAL/AGGREGATE number. */
const BY_NUMBER: (FnSpec | undefined)[] = [
  undefined,
  STATS.AVERAGE,
  STATS.COUNT,
  STATS.COUNTA,
  STATS.MAX,
  STATS.MIN,
  MATH.PRODUCT,
  STATS["STDEV.S"],
  DESCRIBE["STDEV.P"],
  MATH.SUM,
  STATS["VAR.S"],
  DESCRIBE["VAR.P"],
  STATS.MEDIAN,
  DESCRIBE["MODE.SNGL"],
  STATS.LARGE,
  STATS.SMALL,
  RANKING["PERCENTILE.INC"],
  RANKING["QUARTILE.INC"],
  RANKING["PERCENTILE.EXC"],
  RANKING["QUARTILE.EXC"],
];

interface Skips {
  nested: boolean;
  errors: boolean;
}

/** The arguments' values as one column, cells of nested subtotals (and errors, when asked) left out. */
function collect(args: Value[], ctx: EvalContext, skip: Skips): Scalar[][] | FormulaError {
  const out: Scalar[][] = [];
  let error: FormulaError | null = null;
  const take = (v: Scalar): boolean => {
    if (isError(v)) {
      if (skip.errors) return true;
      error = v;
      return false;
    }
    out.push([v]);
    return true;
  };
  for (const arg of args) {
    if (isRange(arg)) {
      ctx.forEach(arg, (v, r, c) => (skip.nested && ctx.isSubtotal?.(arg.sid, r, c) ? true : take(v)));
    } else if (isArray(arg)) {
      ctx.step(arg.length * (arg[0]?.length ?? 0));
      for (const row of arg) for (const v of row) if (!take(v)) break;
    } else if (isError(arg)) {
      if (!skip.errors) return arg;
    } else return ERR.VALUE;
    if (error) return error;
  }
  return out;
}

function apply(number: number, values: Scalar[][], extra: Value[], ctx: EvalContext): Value {
  const spec = BY_NUMBER[number];
  if (!spec?.call) return ERR.VALUE;
  return spec.call([values, ...extra], ctx);
}

function subtotal(args: Value[], ctx: EvalContext): Value {
  const n = numberArg(args[0], ctx);
  if (isError(n)) return n;
  const code = Math.trunc(n);
  const number = code > 100 ? code - 100 : code;
  if (number < 1 || number > 11) return ERR.VALUE;
  // SUBTOTAL takes references only; an error in them is its answer except for COUNT and COUNTA.
  for (const arg of args.slice(1)) if (!isRange(arg)) return isError(arg) ? arg : ERR.VALUE;
  const values = collect(args.slice(1), ctx, { nested: true, errors: false });
  if (isError(values)) return number === 2 || number === 3 ? countThroughErrors(args.slice(1), ctx, number) : values;
  return apply(number, values, [], ctx);
}

/** COUNT and COUNTA do not stop at an error: COUNT skips it, COUNTA counts it. */
function countThroughErrors(args: Value[], ctx: EvalContext, number: number): Value {
  let count = 0;
  for (const arg of args)
    if (isRange(arg))
      ctx.forEach(arg, (v, r, c) => {
        if (ctx.isSubtotal?.(arg.sid, r, c)) return;
        if (number === 3 || typeof v === "number") count++;
      });
  return count;
}

function aggregate(args: Value[], ctx: EvalContext): Value {
  const n = numberArg(args[0], ctx);
  if (isError(n)) return n;
  const o = numberArg(args[1], ctx, 0);
  if (isError(o)) return o;
  const [number, option] = [Math.trunc(n), Math.trunc(o)];
  if (number < 1 || number > 19 || option < 0 || option > 7) return ERR.VALUE;
  const skip = { nested: option <= 3, errors: option === 2 || option === 3 || option === 6 || option === 7 };
  const arrayForm = number >= 14;
  if (arrayForm && args.length !== 4) return ERR.VALUE;
  const data = arrayForm ? args.slice(2, 3) : args.slice(2);
  if (data.length === 0) return ERR.VALUE;
  const values = collect(data, ctx, skip);
  if (isError(values)) return values;
  if (values.length === 0 && arrayForm) return ERR.NUM;
  return apply(number, values, arrayForm ? args.slice(3, 4) : [], ctx);
}

export const SUBTOTALS: FnTable = {
  SUBTOTAL: { min: 2, max: 255, call: subtotal },
  AGGREGATE: { min: 3, max: 255, call: aggregate },
};
