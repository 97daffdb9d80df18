// Information functions (IS…, NA) and HYPERLINK, which shows its label and links only to http(s) or mailto.
import { toText } from "../coerce.ts";
import { ERR, isError, type Scalar } from "../values.ts";
import type { FnTable } from "./spec.ts";

const is = (test: (v: Scalar) => boolean) => (args: Scalar[]) => test(args[0] ?? null);
/** Web and mail addresses only (CONTRACT §11): HYPERLINK shows its label and never fetches. */
const SAFE_LINK = /^\s*(https?:|mailto:)/i;

function hyperlink(args: Scalar[]): Scalar {
  const target = toText(args[0] ?? null);
  if (isError(target)) return target;
  if (!SAFE_LINK.test(target)) return ERR.VALUE;
  return args[1] === undefined ? target : (args[1] ?? 0);
}

export const INFO: FnTable = {
  ISBLANK: { min: 1, max: 1, scalar: is((v) => v === null) },
  ISNUMBER: { min: 1, max: 1, scalar: is((v) => typeof v === "number") },
  ISTEXT: { min: 1, max: 1, scalar: is((v) => typeof v === "string") },
  ISNONTEXT: { min: 1, max: 1, scalar: is((v) => typeof v !== "string") },
  ISLOGICAL: { min: 1, max: 1, scalar: is((v) => typeof v === "boolean") },
  ISERROR: { min: 1, max: 1, scalar: is(isError) },
  ISERR: { min: 1, max: 1, scalar: is((v) => isError(v) && v !== ERR.NA) },
  ISNA: { min: 1, max: 1, scalar: is((v) => v === ERR.NA) },
  NA: { min: 0, max: 0, scalar: () => ERR.NA },
  HYPERLINK: { min: 1, max: 2, scalar: hyperlink },
};
