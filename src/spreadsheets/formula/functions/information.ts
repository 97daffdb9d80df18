// Information functions that look at a value's kind: ERROR.TYPE, ISREF, ISEVEN, ISODD, N, TYPE.
import type { EvalContext } from "../context.ts";
import { toNumber } from "../coerce.ts";
import { ERR, isArray, isError, isLambda, isRange, type Scalar, type Value } from "../values.ts";
import type { FnTable } from "./spec.ts";

/** Excel's numbers for its errors (ERROR.TYPE). */
const ERROR_NUMBERS: Record<string, number> = {
  "#NULL!": 1,
  "#DIV/0!": 2,
  "#VALUE!": 3,
  "#REF!": 4,
  "#NAME?": 5,
  "#NUM!": 6,
  "#N/A": 7,
  "#SPILL!": 9,
  "#CALC!": 14,
};

const errorType = (args: Scalar[]): Scalar => {
  const v = args[0] ?? null;
  return isError(v) ? (ERROR_NUMBERS[v.error] ?? ERR.NA) : ERR.NA;
};

/** ISEVEN/ISODD: the number truncated; text that is not a number and booleans are #VALUE!. */
function parity(odd: boolean) {
  return (args: Scalar[]): Scalar => {
    const v = args[0] ?? null;
    if (typeof v === "boolean") return ERR.VALUE;
    const n = toNumber(v);
    if (isError(n)) return n;
    return Math.abs(Math.trunc(n)) % 2 === (odd ? 1 : 0);
  };
}

/** The top-left value of a reference or array (T and N read only that), else the value itself. */
export function firstCell(v: Value, ctx: EvalContext): Scalar {
  if (isRange(v)) return ctx.value(v.sid, v.top, v.left);
  if (isArray(v)) return v[0]?.[0] ?? null;
  return isLambda(v) ? ERR.CALC : v;
}

function n(args: Value[], ctx: EvalContext): Value {
  const v = firstCell(args[0] ?? null, ctx);
  if (typeof v === "number" || isError(v)) return v;
  return typeof v === "boolean" ? (v ? 1 : 0) : 0;
}

/** TYPE: 1 number (and empty), 2 text, 4 logical, 16 error, 64 array or a reference of several cells. */
function type(args: Value[], ctx: EvalContext): Value {
  const v = args[0] ?? null;
  if (isLambda(v)) return 128;
  if (isArray(v)) return 64;
  if (isRange(v)) {
    if (!v.single || v.areas) return 64;
    return kind(ctx.value(v.sid, v.top, v.left));
  }
  return kind(v);
}

const kind = (v: Scalar): number => (typeof v === "string" ? 2 : typeof v === "boolean" ? 4 : isError(v) ? 16 : 1);

export const INFORMATION: FnTable = {
  "ERROR.TYPE": { min: 1, max: 1, scalar: errorType },
  ISREF: { min: 1, max: 1, call: (args) => isRange(args[0]), areas: true },
  ISEVEN: { min: 1, max: 1, scalar: parity(false) },
  ISODD: { min: 1, max: 1, scalar: parity(true) },
  N: { min: 1, max: 1, call: n },
  TYPE: { min: 1, max: 1, call: type, areas: true },
};
