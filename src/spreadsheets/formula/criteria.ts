// The criteria of COUNTIF, SUMIF, AVERAGEIF and their *IFS forms: "=5", ">=10", "<>x", "a*",
// a number, TRUE, or "" (empty cells). Text compares ignoring case, * ? and ~ are wildcards for
// equality; a relational criterion compares only cells of its own type (">5" skips text).
import { compare, textToNumber } from "./coerce.ts";
import { isError, type Scalar } from "./values.ts";
import { isErrorValue } from "../cells/types.ts";

export interface Criterion {
  test(v: Scalar): boolean;
  /** Whether an empty cell matches (the callers must then walk empty cells too). */
  matchesEmpty: boolean;
}

/** A wildcard pattern (* any run, ? one character, ~ escapes) as an anchored, case-insensitive RegExp; null without wildcards. */
export function wildcardRegExp(pattern: string): RegExp | null {
  if (!/[*?~]/.test(pattern)) return null;
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === "~" && i + 1 < pattern.length && /[*?~]/.test(pattern[i + 1] as string)) source += `\\${pattern[++i]}`;
    else if (ch === "*") source += "[\\s\\S]*";
    else if (ch === "?") source += "[\\s\\S]";
    else source += ch.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "i");
}

type Op = "=" | "<>" | "<" | ">" | "<=" | ">=";

function split(text: string): [Op, string] {
  for (const op of ["<=", ">=", "<>", "=", "<", ">"] as const) if (text.startsWith(op)) return [op, text.slice(op.length)];
  return ["=", text];
}

const accept = (op: Op, order: number) =>
  op === "="
    ? order === 0
    : op === "<>"
      ? order !== 0
      : op === "<"
        ? order < 0
        : op === ">"
          ? order > 0
          : op === "<="
            ? order <= 0
            : order >= 0;

function equality(op: "=" | "<>", operand: string, explicit: boolean): Criterion {
  const negate = op === "<>";
  if (operand === "") {
    // "" and "=" match empty cells (and ""), "<>" matches every non-empty cell.
    const empty = (v: Scalar) => v === null || v === "";
    return { test: (v) => (negate ? !empty(v) : explicit ? v === null : empty(v)), matchesEmpty: !negate };
  }
  const number = textToNumber(operand);
  const upper = operand.toUpperCase();
  const bool = upper === "TRUE" ? true : upper === "FALSE" ? false : null;
  const error = isErrorValue(upper) ? upper : null;
  const regex = wildcardRegExp(operand);
  const lower = operand.toLowerCase();
  const same = (v: Scalar): boolean => {
    if (typeof v === "number") return number !== null && compare(v, number) === 0;
    if (typeof v === "string") return regex ? regex.test(v) : v.toLowerCase() === lower;
    if (typeof v === "boolean") return bool !== null && v === bool;
    if (isError(v)) return error !== null && v.error === error;
    return false;
  };
  return { test: (v) => (negate ? !same(v) : same(v)), matchesEmpty: negate };
}

/** A name for the criterion `criterion(crit)` builds: equal names, equal tests (the key of a cached match). */
export const criterionKey = (crit: Scalar): string =>
  typeof crit === "number"
    ? `n${Object.is(crit, -0) ? "-0" : String(crit)}`
    : typeof crit === "string"
      ? `s${crit}`
      : typeof crit === "boolean"
        ? `b${crit}`
        : crit === null
          ? "0"
          : `e${crit.error}`;

/** Builds the criterion a COUNTIF-family argument describes. */
export function criterion(crit: Scalar): Criterion {
  if (typeof crit === "number") return { test: (v) => typeof v === "number" && compare(v, crit) === 0, matchesEmpty: false };
  if (typeof crit === "boolean") return { test: (v) => v === crit, matchesEmpty: false };
  if (crit === null) return { test: (v) => typeof v === "number" && v === 0, matchesEmpty: false };
  if (isError(crit)) return { test: (v) => v === crit, matchesEmpty: false };
  const [op, operand] = split(crit);
  if (op === "=" || op === "<>") return equality(op, operand, crit.startsWith("="));
  const number = textToNumber(operand);
  if (number !== null) return { test: (v) => typeof v === "number" && accept(op, compare(v, number)), matchesEmpty: false };
  const upper = operand.toUpperCase();
  if (upper === "TRUE" || upper === "FALSE") {
    const b = upper === "TRUE";
    return { test: (v) => typeof v === "boolean" && accept(op, compare(v, b)), matchesEmpty: false };
  }
  return { test: (v) => typeof v === "string" && accept(op, compare(v, operand)), matchesEmpty: false };
}
