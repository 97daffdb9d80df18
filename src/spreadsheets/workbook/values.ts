// Values in (a JSON cell as a caller sends it, parsed as a person types or kept raw) and values
// out (a cell as JSON: numbers, text, booleans, null, ISO 8601 for date cells, {"error"} for errors).
import { isoFromSerial, serialFromIso, fractionFromClock } from "../cells/dates.ts";
import { SheetsError } from "../cells/errors.ts";
import { displayText } from "./display.ts";
import { DATE_FORMAT, DATETIME_FORMAT, TIME_FORMAT, dateKindOf } from "../cells/formats.ts";
import { errorOf, isError, type Scalar } from "../formula/values.ts";
import { isErrorValue, MAX_CELL_TEXT, type CellError } from "../cells/types.ts";

export type InputMode = "parse" | "raw";
export type RenderMode = "value" | "formula" | "both" | "raw" | "formatted";

/** A cell as a caller writes it. */
export type JsonCellInput = string | number | boolean | null;
/** A cell as a caller reads it. */
export type JsonCellValue =
  string | number | boolean | null | CellError | { value: string | number | boolean | null | CellError; formula: string };

/** What a write puts into a cell: nothing (clear), a constant (with the format its text implied), or a formula. */
export type CellInput =
  | { kind: "clear" }
  | { kind: "value"; value: Exclude<Scalar, null>; numFmt?: string }
  | {
      kind: "formula";
      formula: string;
      numFmt?: string;
      /** From a file saved before dynamic arrays: implicit intersection where Excel made it (formula/legacy.ts). */
      legacy?: boolean;
      /** An array formula's range (CSE): rows × columns from the cell. */
      fixed?: { rows: number; cols: number };
    };

const CLEAR: CellInput = { kind: "clear" };
const NUMBER = /^[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][+-]?\d+)?$/;

function tooLong(text: string): SheetsError {
  return new SheetsError("LIMIT", `A cell holds at most ${MAX_CELL_TEXT} characters; this one has ${text.length}.`, {
    limit: "MAX_CELL_TEXT",
  });
}

/** Whether a character code can start a NUMBER match with a digit in it: a digit, a sign or a point. */
const mayStartNumber = (code: number): boolean => (code >= 48 && code <= 57) || code === 43 || code === 45 || code === 46;

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/**
 * Whether text is digits with an optional sign and decimal part ("-12", "0.5", ".5"), what most
 * numbers in a file are: NUMBER matches it and Number reads it, so neither regex need run.
 */
function plainDecimal(text: string): boolean {
  let i = text.charCodeAt(0) === 43 || text.charCodeAt(0) === 45 ? 1 : 0;
  const start = i;
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  const digits = i > start;
  if (i === text.length) return digits;
  if (text.charCodeAt(i) !== 46) return false;
  const point = ++i;
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  return i === text.length && i > point;
}

/** A number as typed: "1234.5", "-1e3", "1,234.5" (commas only between groups of three digits). */
function typedNumber(text: string): number | null {
  // Most text ("Customer 42", "SO-1") is told apart by its first character, before any regex runs.
  if (!mayStartNumber(text.charCodeAt(0))) return null;
  const plain = plainDecimal(text);
  if (!plain && (!NUMBER.test(text) || !/\d/.test(text))) return null;
  const n = Number(!plain && text.includes(",") ? text.replaceAll(",", "") : text);
  return Number.isFinite(n) ? n : null;
}

/**
 * Parses a JSON cell. `parse` reads text as a person types it into Excel: "=…" is a formula,
 * TRUE/FALSE booleans, numbers (grouping commas allowed), "12%" 0.12 with a percent format, ISO
 * dates and date-times (a date serial with a date format), "09:30" a time, "#N/A" an error, and a
 * leading apostrophe keeps the rest as text. `raw` keeps every string a string. A JSON number is
 * always a number; null and "" clear the cell.
 */
export function parseInput(input: JsonCellInput, mode: InputMode): CellInput {
  if (input === null) return CLEAR;
  if (typeof input === "number") {
    if (!Number.isFinite(input)) throw new SheetsError("BAD_INPUT", `${input} is not a number a cell can hold.`);
    return { kind: "value", value: input === 0 ? 0 : input };
  }
  if (typeof input === "boolean") return { kind: "value", value: input };
  if (typeof input !== "string") throw new SheetsError("BAD_INPUT", "A cell value must be a string, a number, a boolean or null.");
  if (input.length > MAX_CELL_TEXT) throw tooLong(input);
  if (input === "") return CLEAR;
  if (mode === "raw") return { kind: "value", value: input };
  if (input.startsWith("=") && input.length > 1) return { kind: "formula", formula: input.slice(1) };
  if (input.startsWith("'")) return input.length > 1 ? { kind: "value", value: input.slice(1) } : CLEAR;
  return parseTyped(input);
}

function parseTyped(input: string): CellInput {
  const text = input.trim();
  // TRUE, FALSE and the error values are at most 7 characters: no upper-case copy of longer text,
  // nor of a number's ("42", "-0.5": none of them starts as a number can).
  const first = text.charCodeAt(0);
  if (text.length <= 7 && !mayStartNumber(first)) {
    const upper = text.toUpperCase();
    if (upper === "TRUE" || upper === "FALSE") return { kind: "value", value: upper === "TRUE" };
    if (isErrorValue(upper)) return { kind: "value", value: errorOf(upper) };
  }
  const n = typedNumber(text);
  if (n !== null) return { kind: "value", value: n };
  if (text.endsWith("%")) {
    const body = text.slice(0, -1).trim();
    const p = typedNumber(body);
    if (p !== null) return { kind: "value", value: p / 100, numFmt: body.includes(".") ? "0.00%" : "0%" };
  }
  // A date or a time starts with a digit: other text skips both regexes.
  if (!isDigit(first)) return { kind: "value", value: input };
  const date = serialFromIso(text);
  if (date) return { kind: "value", value: date.serial, numFmt: date.kind === "date" ? DATE_FORMAT : DATETIME_FORMAT };
  const time = fractionFromClock(text);
  if (time !== null) return { kind: "value", value: time, numFmt: TIME_FORMAT };
  return { kind: "value", value: input };
}

/** Significant digits Excel keeps when it shows or saves a number as text. */
export const round15 = (n: number): number =>
  // An integer of at most 15 digits is its own rounding: no string made (~2 µs a cell otherwise).
  Number.isInteger(n) && n < 1e15 && n > -1e15 ? n + 0 : Number(n.toPrecision(15));

/** A cell's value as JSON: dates (a date number format) as ISO 8601, numbers to 15 significant digits. */
export function renderValue(value: Scalar, numFmt: string | undefined): JsonCellValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (isError(value)) return { error: value.error };
  const kind = numFmt ? dateKindOf(numFmt) : null;
  if (kind) {
    const iso = isoFromSerial(value, kind);
    if (iso !== null) return iso;
  }
  return round15(value);
}

/** A cell's value with no number format applied (render=raw): a date cell's serial, a number unrounded. */
export function rawValue(value: Scalar): JsonCellValue {
  return isError(value) ? { error: value.error } : value;
}

/** A cell as JSON in one of the five renders. */
export function renderCell(value: Scalar, numFmt: string | undefined, formula: string | undefined, render: RenderMode): JsonCellValue {
  if (render === "raw") return rawValue(value);
  if (render === "formatted") return displayText(value, numFmt);
  if (formula === undefined || render === "value") return renderValue(value, numFmt);
  if (render === "formula") return `=${formula}`;
  return { value: renderValue(value, numFmt) as string | number | boolean | null | CellError, formula: `=${formula}` };
}
