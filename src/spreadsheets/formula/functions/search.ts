// How the lookup functions search a row or a column: exact matches (text ignoring case, with
// wildcards where the function allows them), Excel's binary search over sorted data (which skips
// values of another type and errors, so LOOKUP(2,1/(A:A="x"),B:B) finds the last match), and the
// next smaller or larger value of XLOOKUP and XMATCH.
import { compare } from "../coerce.ts";
import { wildcardRegExp } from "../criteria.ts";
import type { ExactIndex } from "../exact-index.ts";
import { isError, type Scalar } from "../values.ts";

/** A line of cells to search: a column or a row of a grid. */
export interface Line {
  length: number;
  at(i: number): Scalar;
  /** Positions from 0 that may hold a value; every one from here on is empty (a whole column past the used rows). */
  filled?: number;
  /** The recalculation's index of this line of a reference (built on first use), null when there is none: exact lookups without wildcards then search it. */
  index?: () => ExactIndex | null;
}

/** Same type and not empty: the only values a lookup compares (numbers with numbers, text with text). */
export const sameType = (a: Scalar, b: Scalar): boolean => typeof a === typeof b && a !== null && b !== null && !isError(a);

/** Exact matcher: same type, text ignoring case, with wildcards when `wildcards` and the text has them. */
export function exactMatcher(value: Scalar, wildcards: boolean): (v: Scalar) => boolean {
  const regex = wildcards && typeof value === "string" ? wildcardRegExp(value) : null;
  if (regex) return (v) => typeof v === "string" && regex.test(v);
  return (v) => sameType(v, value) && compare(v, value) === 0;
}

const filledOf = (line: Line): number => Math.min(line.length, line.filled ?? line.length);

export function findExact(line: Line, value: Scalar, wildcards: boolean, reverse = false): number {
  if (line.index && !(wildcards && typeof value === "string" && /[*?~]/.test(value))) {
    const index = line.index();
    if (index) return index.find(value, reverse);
  }
  const is = exactMatcher(value, wildcards);
  // An empty cell matches nothing: the walk stops where the used area does.
  const end = filledOf(line);
  if (reverse) {
    for (let i = end - 1; i >= 0; i--) if (is(line.at(i))) return i;
  } else for (let i = 0; i < end; i++) if (is(line.at(i))) return i;
  return -1;
}

/**
 * Excel's binary search in data sorted one way (`order` 1 ascending, -1 descending): the last
 * position whose value is at or before `value` in that order, of the same type, or -1. A probe that
 * lands on a value of another type (or an error) moves back to the nearest one of the same type.
 */
export function binarySearch(line: Line, value: Scalar, order: 1 | -1 = 1): number {
  let lo = 0;
  let hi = line.length - 1;
  let found = -1;
  const end = filledOf(line);
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    // Past the used area every cell is empty, of no type: the probe moves back over them at once.
    let m = mid < end ? mid : Math.max(end - 1, lo - 1);
    while (m >= lo && !sameType(line.at(m), value)) m--;
    if (m < lo) {
      lo = mid + 1;
      continue;
    }
    if (order * compare(line.at(m), value) <= 0) {
      found = m;
      lo = mid + 1;
    } else hi = m - 1;
  }
  return found;
}

/** VLOOKUP, HLOOKUP, MATCH type 1, LOOKUP: the last value ≤ `value` in ascending data. */
export const findSorted = (line: Line, value: Scalar): number => binarySearch(line, value, 1);

/** MATCH type -1: the last value ≥ `value` in descending data. */
export const findDescending = (line: Line, value: Scalar): number => binarySearch(line, value, -1);

function nextOfType(line: Line, from: number, value: Scalar): number {
  for (let i = from; i < filledOf(line); i++) if (sameType(line.at(i), value)) return i;
  return -1;
}

/**
 * XLOOKUP / XMATCH match modes over sorted data (search modes 2 and -2): 0 exact, -1 exact or the
 * next smaller, 1 exact or the next larger.
 */
export function findBinary(line: Line, value: Scalar, mode: number, descending: boolean): number {
  const at = binarySearch(line, value, descending ? -1 : 1);
  if (at >= 0 && compare(line.at(at), value) === 0) return at;
  if (mode === 0 || mode === 2) return -1;
  const before = at;
  const after = nextOfType(line, at + 1, value);
  // Ascending: what lies before is smaller; descending: larger.
  return mode < 0 !== descending ? before : after;
}

/** XLOOKUP / XMATCH match modes -1 and 1 over any data: the exact match, else the next smaller / larger value. */
export function findNearest(line: Line, value: Scalar, mode: number, reverse: boolean): number {
  let best = -1;
  const end = filledOf(line);
  for (let n = 0; n < end; n++) {
    const i = reverse ? end - 1 - n : n;
    const v = line.at(i);
    if (!sameType(v, value)) continue;
    const order = compare(v, value);
    if (order === 0) return i;
    if ((mode < 0 && order < 0) || (mode > 0 && order > 0)) {
      if (best < 0 || (mode < 0 ? compare(v, line.at(best)) > 0 : compare(v, line.at(best)) < 0)) best = i;
    }
  }
  return best;
}
