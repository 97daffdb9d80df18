// MAXIFS and MINIFS: the largest or smallest number of a range at the positions where every
// (range, criterion) pair matches, 0 when none does (Excel's answer), through the COUNTIFS walk.
import type { EvalContext } from "../context.ts";
import { ERR, type FormulaError, isError, isRange, type Value } from "../values.ts";
import { conditions, eachMatch, reader } from "./conditional.ts";
import type { FnTable } from "./spec.ts";

function extremeIfs(which: "max" | "min") {
  return (args: Value[], ctx: EvalContext): Value => {
    const [target, ...rest] = args;
    if (!isRange(target) || rest.length % 2 !== 0) return ERR.VALUE;
    const conds = conditions(rest, ctx);
    if (isError(conds)) return conds;
    if (conds[0] && (conds[0].range.rows !== target.rows || conds[0].range.columns !== target.columns)) return ERR.VALUE;
    let best = which === "max" ? -Infinity : Infinity;
    let error: FormulaError | null = null;
    const read = reader(target, ctx);
    eachMatch(conds, ctx, (dr, dc) => {
      const v = read(dr, dc);
      if (typeof v === "number") best = which === "max" ? Math.max(best, v) : Math.min(best, v);
      else if (isError(v)) error ??= v;
    });
    return error ?? (Number.isFinite(best) ? best : 0);
  };
}

export const CONDITIONAL_EXTREMES: FnTable = {
  MAXIFS: { min: 3, max: 255, call: extremeIfs("max") },
  MINIFS: { min: 3, max: 255, call: extremeIfs("min") },
};
