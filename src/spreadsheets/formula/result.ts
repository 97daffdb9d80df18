// What a formula's cell shows from what the formula computed: a value, or an array that spills (a
// range is read into one; empty cells read 0, as Excel spills them). A reference of several areas
// is #VALUE!, a LAMBDA that is not called #CALC!, a number no cell can hold #NUM!.
import type { EvalContext } from "./context.ts";
import { rangeToArray } from "./ops.ts";
import { ERR, isArray, isLambda, RangeValue, type ArrayValue, type Scalar, type Value } from "./values.ts";
import { MAX_CELL_TEXT } from "../cells/types.ts";

/** One value as a cell holds it. */
export function cellValue(v: Scalar | undefined): Scalar {
  if (v === null || v === undefined) return 0;
  if (typeof v === "number") return Number.isFinite(v) ? v : ERR.NUM;
  if (typeof v === "string") return v.length > MAX_CELL_TEXT ? ERR.VALUE : v;
  return isLambda(v) ? ERR.CALC : v;
}

/** A formula's result for its cell: one value, or an array of more than one (each as a cell holds it). */
export function cellResult(v: Value, ctx: EvalContext): Scalar | ArrayValue {
  let array: ArrayValue;
  if (v instanceof RangeValue) {
    if (v.areas) return ERR.VALUE;
    if (v.single) return cellValue(ctx.value(v.sid, v.top, v.left));
    array = rangeToArray(v, ctx);
  } else if (isArray(v)) array = v;
  else return cellValue(v);
  if (array.length === 1 && array[0]?.length === 1) return cellValue(array[0][0]);
  if (array.length === 0 || (array[0]?.length ?? 0) === 0) return ERR.CALC;
  return array.map((row) => row.map(cellValue));
}
