// A compiled formula: one closure per distinct formula shape (its references relative to its cell,
// as R1C1 would write them), shared by every cell with that shape, plus what the dependency graph
// and the warnings need to know about it.
import type { Box } from "../cells/a1.ts";
import { MAX_COLUMNS, MAX_ROWS } from "../cells/types.ts";
import type { EvalContext } from "./context.ts";
import type { XlsxPlan } from "./xlsx.ts";
import type { Value } from "./values.ts";

/** A reference's sheet: the formula's own sheet, or none of that name (#REF!). */
export const OWN_SHEET = -2;
export const NO_SHEET = -1;

/** A reference as compiled: each edge absolute, or an offset from the formula's cell. */
export interface RefSpec {
  sid: number;
  top: number;
  left: number;
  bottom: number;
  right: number;
  topAbs: boolean;
  leftAbs: boolean;
  bottomAbs: boolean;
  rightAbs: boolean;
  /** Relative edges wrap around the sheet (a defined name's "the cell to the left" is stored as column XFD). */
  wrap?: boolean;
}

export interface Program {
  run: (ctx: EvalContext) => Value;
  /** Every reference the formula makes, for the dependency graph. */
  refs: RefSpec[];
  /** Functions and names the engine does not know (the formula computes #NAME?). */
  unknown: string[];
  /** Defined names the formula uses, known or not (lower case): defining or deleting one recompiles it. */
  names: string[];
  /** Why the formula could not be compiled (it computes #NAME?), when it could not. */
  problem: string | null;
  volatile: boolean;
  /** Number format the outer function implies (DATE → "yyyy-mm-dd"), or null. */
  format: string | null;
  /** For "=A1+7": the reference whose date format the result takes, or null. */
  formatFrom: RefSpec | null;
  /** How the formula is written into .xlsx, worked out the first time one of its shape is (formula/xlsx.ts). */
  xlsx?: XlsxPlan;
  /** The formula calls SUBTOTAL or AGGREGATE: those functions skip its cell in their ranges. */
  subtotal?: boolean;
}

/**
 * resolveRef into `out` (a box the caller reuses): whether the reference is on the sheet. For the
 * dependency graph, which resolves every reference of every formula loaded and keeps few boxes.
 */
export function resolveRefInto(spec: RefSpec, row: number, col: number, out: Box): boolean {
  const { wrap } = spec;
  const top = spec.topAbs ? spec.top : wrap ? (row + spec.top) % MAX_ROWS : row + spec.top;
  const bottom = spec.bottomAbs ? spec.bottom : wrap ? (row + spec.bottom) % MAX_ROWS : row + spec.bottom;
  const left = spec.leftAbs ? spec.left : wrap ? (col + spec.left) % MAX_COLUMNS : col + spec.left;
  const right = spec.rightAbs ? spec.right : wrap ? (col + spec.right) % MAX_COLUMNS : col + spec.right;
  if (Math.min(top, bottom) < 0 || Math.max(top, bottom) >= MAX_ROWS || Math.min(left, right) < 0 || Math.max(left, right) >= MAX_COLUMNS)
    return false;
  out.top = Math.min(top, bottom);
  out.left = Math.min(left, right);
  out.bottom = Math.max(top, bottom);
  out.right = Math.max(left, right);
  return true;
}

/** The cells a reference covers from the formula's cell, or null when it falls off the sheet (#REF!). */
export function resolveRef(spec: RefSpec, row: number, col: number): Box | null {
  const box: Box = { top: 0, left: 0, bottom: 0, right: 0 };
  return resolveRefInto(spec, row, col, box) ? box : null;
}
