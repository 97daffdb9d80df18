// A1 addresses as the grid needs them: column letters and numbers, a cell's address, the top-left
// of a range the spreadsheet operations answered ("Sheet1!B2:D10", "'Q1 Sales'!A1"). Ranges are
// parsed and checked by the spreadsheet service; this only reads what it gave back.

/** 1 → "A", 27 → "AA". */
export function columnName(column: number): string {
  let name = "";
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** "AA" → 27; 0 for anything else. */
export function columnNumber(letters: string): number {
  if (!/^[A-Z]{1,3}$/.test(letters)) return 0;
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** A sheet's name as a range names it: quoted when it must be. */
export const quoteSheet = (name: string): string => (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`);

export interface CellRect {
  column: number;
  row: number;
  lastColumn: number;
  lastRow: number;
}

/** The cells of "A1:D20" (or "B2", with or without a sheet before "!"); undefined when it is not one. */
export function rectOf(range: string): CellRect | undefined {
  const local = range.slice(range.lastIndexOf("!") + 1);
  const match = /^([A-Z]{1,3})([1-9]\d{0,6})(?::([A-Z]{1,3})([1-9]\d{0,6}))?$/.exec(local.toUpperCase());
  if (!match) return undefined;
  const column = columnNumber(match[1]!);
  const row = Number(match[2]);
  return { column, row, lastColumn: match[3] ? columnNumber(match[3]) : column, lastRow: match[4] ? Number(match[4]) : row };
}

export const rangeText = (rect: CellRect): string => `${columnName(rect.column)}${rect.row}:${columnName(rect.lastColumn)}${rect.lastRow}`;
