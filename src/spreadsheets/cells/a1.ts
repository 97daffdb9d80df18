// A1 ranges as callers write them (CONTRACT §11): "A1", "B2:D10", "Sheet2!A1:C3", "'Q1 Sales'!B2"
// (quotes doubled inside), whole columns "A:C", whole rows "2:5", open-ended "A5:C". Open ends are
// kept as flags and clipped to the used range when read, never materialised.
import { columnIndex, columnName } from "./cells.ts";
import { SheetsError } from "./errors.ts";
import { MAX_COLUMNS, MAX_ROWS } from "./types.ts";

export interface A1Range {
  /** The sheet as written (quotes removed), or null: the first sheet. */
  sheet: string | null;
  /** 0-based, inclusive corners, top ≤ bottom and left ≤ right. */
  top: number;
  left: number;
  bottom: number;
  right: number;
  /** The range runs down to the last row (A:C, A5:C): read up to the used range only. */
  openRows: boolean;
  /** The range runs right to the last column (2:5): read up to the used range only. */
  openColumns: boolean;
}

/** A rectangle of cells, 0-based and inclusive. */
export interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

const FORMS = "a cell (A1), a range (B2:D10), whole columns (A:C), whole rows (2:5) or an open-ended range (A5:C)";
const HOW = `Write ${FORMS}, optionally after a sheet name and "!" (Sheet2!A1:C3, 'Q1 Sales'!B2, quotes doubled inside)`;

const bad = (text: string, why: string) =>
  new SheetsError("BAD_RANGE", `Range "${text}" ${why}. ${HOW}; the sheet ends at column XFD and row 1048576.`, { subject: text });

/**
 * Splits "Sheet!A1" / "'It''s'!A1" into the sheet name (unquoted, null when there is none) and the
 * rest; a quoted name that is not closed, or not followed by "!", is "unclosed" or "no-bang".
 * Formula references (formula/refs.ts) are split by the same rule.
 */
export function splitSheetPrefix(text: string): { sheet: string | null; rest: string } | "unclosed" | "no-bang" {
  if (text.startsWith("'")) {
    let name = "";
    for (let i = 1; i < text.length; i++) {
      const ch = text[i] as string;
      if (ch !== "'") name += ch;
      else if (text[i + 1] === "'") {
        name += "'";
        i++;
      } else return text[i + 1] === "!" ? { sheet: name, rest: text.slice(i + 2) } : "no-bang";
    }
    return "unclosed";
  }
  const bang = text.lastIndexOf("!");
  return bang < 0 ? { sheet: null, rest: text } : { sheet: text.slice(0, bang), rest: text.slice(bang + 1) };
}

function splitSheet(text: string): { sheet: string | null; address: string } {
  const split = splitSheetPrefix(text);
  if (split === "no-bang") throw bad(text, 'has a quoted sheet name that is not followed by "!"');
  if (split === "unclosed") throw bad(text, "has a sheet name whose quote is not closed");
  return { sheet: split.sheet, address: split.rest };
}

interface Part {
  column: number | null;
  row: number | null;
}

const PART = /^(\$?([A-Za-z]{1,4}))?(\$?([0-9]{1,8}))?$/;

function parsePart(text: string, part: string): Part {
  const match = PART.exec(part);
  if (!match || part === "" || part === "$") throw bad(text, `has "${part}", which is neither a column, a row nor a cell`);
  const column = match[2] === undefined ? null : columnIndex(match[2]);
  if (column === -1) throw bad(text, `names column ${match[2]?.toUpperCase()}, past the last column XFD`);
  const row = match[4] === undefined ? null : Number(match[4]) - 1;
  if (row !== null && row < 0) throw bad(text, "names row 0; rows start at 1");
  if (row !== null && row >= MAX_ROWS) throw bad(text, `names row ${row + 1}, past the last row 1048576`);
  return { column, row };
}

/** Parses an A1 range; throws SheetsError BAD_RANGE naming the range and the forms it could take. */
export function parseRange(input: string): A1Range {
  const text = input.trim();
  if (text === "") throw bad(input, "is empty");
  const { sheet, address } = splitSheet(text);
  if (sheet !== null && sheet.length === 0) throw bad(text, 'has an empty sheet name before "!"');
  const [first, second, extra] = address.split(":");
  if (extra !== undefined) throw bad(text, 'has more than one ":"');
  const a = parsePart(text, first ?? "");
  const b = second === undefined ? a : parsePart(text, second);
  const box = (top: number, left: number, bottom: number, right: number, openRows = false, openColumns = false): A1Range => ({
    sheet,
    top: Math.min(top, bottom),
    left: Math.min(left, right),
    bottom: Math.max(top, bottom),
    right: Math.max(left, right),
    openRows,
    openColumns,
  });
  if (a.column !== null && a.row !== null && b.column !== null && b.row !== null) return box(a.row, a.column, b.row, b.column);
  if (second !== undefined && a.row === null && b.row === null && a.column !== null && b.column !== null)
    return box(0, a.column, MAX_ROWS - 1, b.column, true);
  if (second !== undefined && a.column === null && b.column === null && a.row !== null && b.row !== null)
    return box(a.row, 0, b.row, MAX_COLUMNS - 1, false, true);
  if (second !== undefined && a.column !== null && a.row !== null && b.column !== null && b.row === null)
    return {
      sheet,
      top: a.row,
      left: Math.min(a.column, b.column),
      bottom: MAX_ROWS - 1,
      right: Math.max(a.column, b.column),
      openRows: true,
      openColumns: false,
    };
  throw bad(text, second === undefined ? "is not a cell" : "mixes forms that do not make a range");
}

/**
 * The cells of `range` that a read covers (`used` null: an empty sheet). Whole columns, whole rows
 * and open-ended ranges stop at the used range on both far sides: `1:1048576` on a 2-row sheet is
 * its 2 used rows and used columns, never a million rows of nothing. A plain range (B2:D10) is read
 * as written.
 */
export function clipRange(range: A1Range, used: Box | null): Box | null {
  if (!range.openRows && !range.openColumns) return { top: range.top, left: range.left, bottom: range.bottom, right: range.right };
  if (used === null) return null;
  const bottom = Math.min(range.bottom, used.bottom);
  const right = Math.min(range.right, used.right);
  return bottom < range.top || right < range.left ? null : { top: range.top, left: range.left, bottom, right };
}

const PLAIN_NAME = /^[A-Za-z_\u00C0-\uFFFF][A-Za-z0-9_.\u00C0-\uFFFF]*$/;
const LOOKS_LIKE_REF = /^([A-Za-z]{1,3}[0-9]+|[Rr][0-9]*[Cc][0-9]*|TRUE|FALSE)$/i;

/** A sheet name as a formula or range writes it: quoted (quotes doubled) unless it is a plain name. */
export function quoteSheetName(name: string): string {
  return PLAIN_NAME.test(name) && !LOOKS_LIKE_REF.test(name) ? name : `'${name.replaceAll("'", "''")}'`;
}

/** "B2:D10" for a box (one cell: "B2"). */
export function formatBox(box: Box): string {
  const first = `${columnName(box.left)}${box.top + 1}`;
  return box.top === box.bottom && box.left === box.right ? first : `${first}:${columnName(box.right)}${box.bottom + 1}`;
}

/** "Sheet1!A1:C3", "'Q1 Sales'!B2". */
export const formatRange = (sheet: string, box: Box): string => `${quoteSheetName(sheet)}!${formatBox(box)}`;

/** Why a sheet name cannot be used (1..31 characters, none of []:*?/\, not starting or ending with '), or null. */
export function sheetNameProblem(name: string): string | null {
  if (typeof name !== "string" || name.length === 0) return "a sheet name cannot be empty";
  if (name.length > 31) return `sheet name "${name}" is longer than 31 characters`;
  if (/[[\]:*?/\\]/.test(name)) return `sheet name "${name}" contains one of [ ] : * ? / \\`;
  if (name.startsWith("'") || name.endsWith("'")) return `sheet name "${name}" starts or ends with an apostrophe`;
  return null;
}
