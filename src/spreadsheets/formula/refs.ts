// The reference tokens of a formula ("B2", "$A$1:C9", "Sheet2!A:A", "'Q1 Sales'!2:5") as parts
// with their $ flags, so that compilation can make them relative to the formula's cell and
// structure edits can move them.
import { columnIndex, columnName } from "../cells/cells.ts";
import { quoteSheetName, splitSheetPrefix } from "../cells/a1.ts";
import { MAX_ROWS } from "../cells/types.ts";

export interface RefPart {
  /** 0-based; null for the missing half of a whole column (row null) or whole row (col null). */
  row: number | null;
  col: number | null;
  rowAbs: boolean;
  colAbs: boolean;
}

export interface RefToken {
  /** The sheet as written (unquoted), or null for the formula's own sheet. */
  sheet: string | null;
  /** The reference names another workbook ([Book2]Sheet1!A1) or a 3-D span (Sheet1:Sheet3!A1). */
  external: boolean;
  threeD: boolean;
  a: RefPart;
  /** The second corner, or null for one cell. */
  b: RefPart | null;
}

const PART = /^(\$?)([A-Za-z]{1,3})?(\$?)([0-9]{1,7})?$/;

function parsePart(text: string): RefPart | null {
  const m = PART.exec(text);
  if (!m || text === "" || (m[2] === undefined && m[4] === undefined)) return null;
  const col = m[2] === undefined ? null : columnIndex(m[2]);
  const row = m[4] === undefined ? null : Number(m[4]) - 1;
  if (col === -1 || (row !== null && (row < 0 || row >= MAX_ROWS))) return null;
  // "$A" alone is a column with $ on the column; "$1" alone is a row with $ on the row.
  if (m[2] === undefined) return { row, col: null, rowAbs: m[1] === "$" || m[3] === "$", colAbs: false };
  return { row, col, colAbs: m[1] === "$", rowAbs: m[3] === "$" };
}

/** Parses a reference token; null when it is not a cell, range, whole-column or whole-row reference. */
export function parseRefToken(text: string): RefToken | null {
  const split = splitSheetPrefix(text);
  if (typeof split === "string") return null;
  const { sheet, rest } = split;
  const external = text.startsWith("[") || (sheet !== null && /[[\]]/.test(sheet));
  // A sheet name cannot hold ":", so a prefix with one is a span of sheets, quoted or not ('Q1 a:Q3 b'!A1).
  const threeD = !external && sheet !== null && sheet.includes(":");
  const colon = rest.indexOf(":");
  const a = parsePart(colon < 0 ? rest : rest.slice(0, colon));
  const b = colon < 0 ? null : parsePart(rest.slice(colon + 1));
  if (!a || (colon >= 0 && !b)) return null;
  if (b === null && (a.row === null || a.col === null)) return null;
  if (b !== null && (a.row === null) !== (b.row === null)) return null;
  if (b !== null && (a.col === null) !== (b.col === null)) return null;
  return { sheet, external, threeD, a, b };
}

function formatPart(part: RefPart): string {
  const col = part.col === null ? "" : `${part.colAbs ? "$" : ""}${columnName(part.col)}`;
  const row = part.row === null ? "" : `${part.rowAbs ? "$" : ""}${part.row + 1}`;
  return col + row;
}

/** "Sheet1:Sheet3", or quoted as one ('Q1 a:Q3 b') when either name needs quotes. */
function quoteSpan(span: string): string {
  const plain = span.split(":").every((name) => quoteSheetName(name) === name);
  return plain ? span : `'${span.replaceAll("'", "''")}'`;
}

/** The token's text again (cell letters in upper case, the sheet quoted when it needs to be). */
export function formatRefToken(ref: RefToken): string {
  const prefix = ref.sheet === null ? "" : `${ref.threeD ? quoteSpan(ref.sheet) : quoteSheetName(ref.sheet)}!`;
  return prefix + formatPart(ref.a) + (ref.b ? `:${formatPart(ref.b)}` : "");
}
