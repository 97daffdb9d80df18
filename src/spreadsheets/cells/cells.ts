// A1 cell addresses and column letters: "B2" ⇄ (row 1, column 1), "XFD" ⇄ 16383.
import { MAX_COLUMNS, MAX_ROWS } from "./types.ts";

/** 0 → "A", 25 → "Z", 26 → "AA", 16383 → "XFD". */
export function columnName(column: number): string {
  let name = "";
  for (let n = column + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** "A" → 0, "xfd" → 16383; -1 when not letters or past XFD. */
export function columnIndex(letters: string): number {
  if (letters.length === 0 || letters.length > 3) return -1;
  let n = 0;
  for (let i = 0; i < letters.length; i++) {
    const code = letters.charCodeAt(i) | 0x20; // lower-case
    if (code < 97 || code > 122) return -1;
    n = n * 26 + (code - 96);
  }
  return n - 1 < MAX_COLUMNS ? n - 1 : -1;
}

/** (1, 1) → "B2". */
export const cellAddress = (row: number, column: number): string => `${columnName(column)}${row + 1}`;

/** "B2" (or "$B$2") → {row: 1, column: 1}; null when it is not one cell within the sheet limits. */
export function parseCellAddress(text: string): { row: number; column: number } | null {
  // /^\$?([A-Za-z]{1,3})\$?([1-9][0-9]{0,6})$/ read character by character: an .xlsx import reads one per cell.
  const length = text.length;
  let i = text.charCodeAt(0) === 36 ? 1 : 0;
  let column = 0;
  const lettersFrom = i;
  for (let code = text.charCodeAt(i) | 0x20; i < length && code >= 97 && code <= 122; code = text.charCodeAt(++i) | 0x20)
    column = column * 26 + (code - 96);
  if (i === lettersFrom || i - lettersFrom > 3) return null;
  if (text.charCodeAt(i) === 36) i++;
  const digitsFrom = i;
  let row = 0;
  for (let code = text.charCodeAt(i); i < length && code >= 48 && code <= 57; code = text.charCodeAt(++i)) row = row * 10 + (code - 48);
  const digits = i - digitsFrom;
  if (i !== length || digits === 0 || digits > 7 || text.charCodeAt(digitsFrom) === 48) return null;
  return column - 1 >= MAX_COLUMNS || row - 1 >= MAX_ROWS ? null : { row: row - 1, column: column - 1 };
}
