// Whether the gateway's value of a formula cell is the one the file's writer saved. Numbers agree to
// twelve significant digits (two engines summing in another order differ in the last bits; Excel
// shows fifteen digits and LibreOffice saves fifteen), or when both are within 1e-15 of zero
// (Excel's cosmetic zero for 0.3-0.2-0.1); text, booleans and errors agree exactly.
import { isError, type Scalar } from "../formula/values.ts";
import type { CellValue } from "../cells/types.ts";
import type { RawValue } from "./types.ts";

const RELATIVE = 1e-12;
const NEAR_ZERO = 1e-15;

export function agrees(expected: CellValue, got: Scalar): boolean {
  if (typeof expected === "number") {
    if (typeof got !== "number") return false;
    if (expected === got) return true;
    const difference = Math.abs(expected - got);
    return (
      difference <= RELATIVE * Math.max(Math.abs(expected), Math.abs(got)) || (Math.abs(expected) < NEAR_ZERO && Math.abs(got) < NEAR_ZERO)
    );
  }
  if (expected !== null && typeof expected === "object") return isError(got) && got.error === expected.error;
  return expected === got;
}

/** A value as a warning shows it: numbers unrounded, errors as {error}. */
export function rawOf(value: Scalar | CellValue): RawValue {
  if (value !== null && typeof value === "object") return { error: value.error };
  return value;
}

/** Clock and random functions: their value is not the file's on any later day, so no difference is reported. */
const UNSTABLE = /(^|[^A-Z0-9_.])(NOW|TODAY|RAND|RANDBETWEEN|RANDARRAY)\s*\(/i;
export const unstable = (formula: string): boolean => UNSTABLE.test(formula);
