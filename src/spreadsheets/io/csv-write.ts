// Cells → CSV (RFC 4180): comma-separated, fields quoted when they hold a comma, a quote or a line
// break (quotes doubled), every line ending in CRLF, UTF-8. Values are written as render=value
// shows them (the caller's `show`, the model's renderer: dates as ISO text, errors as their text);
// numbers as numbers ("-5", "0.30000000000000004", "1E+21"), booleans as TRUE/FALSE.
//
// Formula-injection safe: a text beginning with = + - @, tab or CR, which a spreadsheet opening
// the file would run as a formula, is written with a leading apostrophe ("'=1+1"); a number is
// never text, so -5 stays -5.
//
// Byte-order mark: a downloaded file (GET …/content?format=csv) starts with one, because Excel
// reads a CSV without it in the machine's legacy code page and garbles every non-ASCII character;
// a range read (GET …/values/{range}?format=csv) has none, since it is an API answer whose
// Content-Type says charset=utf-8 and whose readers are programs. The caller says which (`bom`).
import { numberText } from "./number-text.ts";
import { sheetBounds } from "./sheet-bounds.ts";
import type { Cell, CellValue, SheetData } from "../cells/types.ts";

export type { TextStreamOptions as CsvOptions } from "./text-stream.ts";

/** How a cell reads under render=value; the model's renderer, passed in by the caller. */
export type ShowCell = (cell: Cell) => CellValue;

const NEEDS_QUOTES = /[",\r\n]/;
/** The first characters that make a spreadsheet read a text as a formula. */
const INJECTION = /^[=+\-@\t\r]/;

/** One value as a CSV field. */
export function csvField(value: CellValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return numberText(value) ?? "#NUM!";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "object") return value.error;
  const text = INJECTION.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line per row (values as render=value gives them), each padded to `width` fields and ending in CRLF. */
export function* csvLines(rows: Iterable<readonly (CellValue | undefined)[]>, width = 0): Generator<string> {
  for (const row of rows) {
    let line = "";
    const fields = Math.max(width, row.length);
    for (let i = 0; i < fields; i++) line += (i === 0 ? "" : ",") + csvField(row[i]);
    yield `${line}\r\n`;
  }
}

const hasValue = (cell: Cell | undefined) => cell !== undefined && cell.value !== null;

/**
 * A whole sheet from A1 to the bottom-right of its values, a line for every row (empty rows as
 * empty fields) and every line as wide as the widest, so that cells keep their places when the
 * file is opened or imported again. An empty sheet is no lines.
 */
export function* sheetCsv(sheet: SheetData, show: ShowCell): Generator<string> {
  const bounds = sheetBounds(sheet, hasValue);
  if (!bounds) return;
  const width = bounds.right + 1;
  const empty = `${",".repeat(width - 1)}\r\n`;
  let next = 0;
  for (const [row, cells] of sheet.rows()) {
    if (row > bounds.bottom) break;
    for (; next < row; next++) yield empty;
    let line = "";
    for (let column = 0; column < width; column++) {
      const cell = cells[column];
      line += (column === 0 ? "" : ",") + (hasValue(cell) ? csvField(show(cell!)) : "");
    }
    yield `${line}\r\n`;
    next = row + 1;
  }
}
