// How a function is described to the compiler: its arity and one of three calling conventions.
import type { EvalContext } from "../context.ts";
import type { Scalar, Value } from "../values.ts";

export type Thunk = (ctx: EvalContext) => Value;

export interface FnSpec {
  min: number;
  max: number;
  /** Arguments evaluated, references left unread (SUM, COUNTIF, VLOOKUP …). */
  call?: (args: Value[], ctx: EvalContext) => Value;
  /** Arguments read to scalars; applied element-wise when one is an array (LEN, ROUND, DATE …). */
  scalar?: (args: Scalar[], ctx: EvalContext) => Scalar;
  /** Arguments left unevaluated, for functions that skip some (IF, IFERROR, CHOOSE …). */
  lazy?: (args: Thunk[], ctx: EvalContext) => Value;
  /** Recomputed on every write (TODAY, NOW). */
  volatile?: boolean;
  /** The number format a cell gets when this function is its formula's outer call ("yyyy-mm-dd" for DATE). */
  format?: string;
  /** An omitted argument (`XLOOKUP(1,A:A,B:B,,2)`) reaches `call` as undefined, not as an empty value (null). */
  keepOmitted?: boolean;
  /** Arguments of `call` that take one value: given a range or an array, the function runs per element (Excel's lifting). */
  liftArgs?: readonly number[];
  /** `call` takes references of several areas (3-D, unions) as they are (INDEX, AREAS); others get #VALUE!. */
  areas?: boolean;
  /** `call` takes LAMBDA values (MAP, REDUCE …); other functions given one get #CALC!. */
  lambda?: boolean;
}

export type FnTable = Record<string, FnSpec>;
