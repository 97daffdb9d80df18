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
}

export type FnTable = Record<string, FnSpec>;
