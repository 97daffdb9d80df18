// Conversions between a formula's types as Excel makes them: text that reads as a number where a
// number is wanted, numbers as text with 15 significant digits, and comparison across types
// (numbers < text < booleans; text ignoring case; numbers equal within Excel's 15 digits).
import { fractionFromClock, serialFromIso, serialFromYmd, daysInMonth } from "../cells/dates.ts";
import { ERR, type FormulaError, isError, type Scalar } from "./values.ts";

/** A number as Excel writes it into text (the & operator, TEXTJOIN, CONCAT): General, 15 significant digits. */
export function numberToText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return n === 0 ? "0" : String(n);
  const rounded = Number(n.toPrecision(15));
  const abs = Math.abs(rounded);
  if (abs !== 0 && (abs >= 1e15 || abs < 1e-9 || (abs < 1e-5 && String(rounded).length > 11))) return excelExponent(rounded);
  return String(rounded);
}

function excelExponent(n: number): string {
  const [mantissa, exponent] = n.toExponential(14).split("e") as [string, string];
  const trimmed = mantissa.includes(".") ? mantissa.replace(/0+$/, "").replace(/\.$/, "") : mantissa;
  const value = Number(exponent);
  return `${trimmed}E${value < 0 ? "-" : "+"}${String(Math.abs(value)).padStart(2, "0")}`;
}

const NUMBER = /^[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d*)?([eE][+-]?\d+)?$/;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const AMPM = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp])[Mm]$/;

/**
 * Text read as a number the way Excel's VALUE and arithmetic read it: "1,234.5", "-1e3", "12%",
 * "$5", ISO dates "2026-01-31" (and with a time), "1/31/2026", "9:30", "9:30 PM". Null otherwise.
 */
export function textToNumber(input: string): number | null {
  let text = input.trim();
  if (text === "") return null;
  let scale = 1;
  if (text.endsWith("%")) {
    scale = 0.01;
    text = text.slice(0, -1).trimEnd();
  }
  let sign = 1;
  if (text.startsWith("-$") || text.startsWith("$-")) {
    sign = -1;
    text = text.slice(2);
  } else if (text.startsWith("$")) text = text.slice(1);
  // A digit before any exponent: "E8" is text, not a number (FACT("E8") is #VALUE!, as in Excel).
  if (NUMBER.test(text) && /\d/.test(text.replace(/[eE].*$/, ""))) return sign * Number(text.replaceAll(",", "")) * scale;
  if (scale !== 1 || sign !== 1) return null;
  const iso = serialFromIso(text);
  if (iso) return iso.serial;
  const clock = fractionFromClock(text);
  if (clock !== null) return clock;
  const us = US_DATE.exec(text);
  if (us) {
    const [month, day, year] = [Number(us[1]), Number(us[2]), Number(us[3])];
    return month >= 1 && month <= 12 && day >= 1 && year >= 1900 && day <= daysInMonth(year, month)
      ? serialFromYmd(year, month, day)
      : null;
  }
  const ampm = AMPM.exec(text);
  if (ampm) {
    const hours = Number(ampm[1]);
    if (hours < 1 || hours > 12) return null;
    const base = fractionFromClock(`${hours % 12}:${ampm[2]}:${ampm[3] ?? "00"}`);
    return base === null ? null : base + ((ampm[4] as string).toLowerCase() === "p" ? 0.5 : 0);
  }
  return null;
}

export function toNumber(v: Scalar): number | FormulaError {
  if (typeof v === "number") return v;
  if (v === null) return 0;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string") {
    const n = textToNumber(v);
    return n === null ? ERR.VALUE : n;
  }
  return v;
}

export function toText(v: Scalar): string | FormulaError {
  if (typeof v === "string") return v;
  if (typeof v === "number") return numberToText(v);
  if (v === null) return "";
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  return v;
}

export function toBoolean(v: Scalar): boolean | FormulaError {
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (v === null) return false;
  if (typeof v === "string") {
    const upper = v.toUpperCase();
    return upper === "TRUE" ? true : upper === "FALSE" ? false : ERR.VALUE;
  }
  return v;
}

/** Equal within Excel's precision: the 15 significant digits it shows (2^-48 relative, as LibreOffice's approxEqual). */
export function approxEqual(a: number, b: number): boolean {
  if (a === b) return true;
  if (a === 0 || b === 0 || Math.sign(a) !== Math.sign(b)) return false;
  return Math.abs(a - b) < Math.abs(a) * 3.552713678800501e-15;
}

const typeRank = (v: number | string | boolean) => (typeof v === "number" ? 0 : typeof v === "string" ? 1 : 2);

/** Text order ignoring case. */
export function compareText(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Orders two non-error scalars as Excel's comparison operators do: an empty cell is 0, "" or
 * FALSE as the other side needs; numbers < text < booleans; text ignoring case.
 */
export function compare(a: Scalar, b: Scalar): number {
  if (a === null) a = typeof b === "string" ? "" : typeof b === "boolean" ? false : 0;
  if (b === null) b = typeof a === "string" ? "" : typeof a === "boolean" ? false : 0;
  if (isError(a) || isError(b)) return 0;
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === "number") return approxEqual(a, b as number) ? 0 : a < (b as number) ? -1 : 1;
  if (typeof a === "string") return compareText(a, b as string);
  return a === b ? 0 : a ? 1 : -1;
}
