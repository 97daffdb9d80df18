// Reading the model: a range's cells as JSON (paged by a cell budget), a sheet's description, and
// the cells of a sheet in order (for the .xlsx/.csv writers).
import { clipRange, formatBox, formatRange, parseRange, type Box } from "../cells/a1.ts";
import type { Book } from "./book.ts";
import { SheetsError } from "../cells/errors.ts";
import { errorFromCode, type Scalar } from "../formula/values.ts";
import { K_BOOLEAN, K_EMPTY, K_ERROR, K_NUMBER, K_SPILL, K_STRING, slotOf, type Tile } from "../cells/grid.ts";
import type { Sheet } from "../cells/sheet.ts";
import { renderCell, type JsonCellValue, type RenderMode } from "./values.ts";

export interface StoredCell {
  value: Scalar;
  formula?: string;
  numFmt?: string;
}

/** One cell of a tile: its value (computed for formulas, or the array's that fills it), formula text and format code. */
export function tileCell(book: Book, tile: Tile, slot: number, row: number, col: number): StoredCell | null {
  const kind = tile.kinds[slot];
  if (kind === K_EMPTY) return null;
  if (kind === K_SPILL) return spilledCell(tile, slot, row, col);
  const fmt = tile.fmts?.[slot] ?? 0;
  const numFmt = fmt === 0 ? undefined : book.formats.code(fmt);
  let value: Scalar;
  let formula: string | undefined;
  if (kind === K_NUMBER) value = tile.nums[slot] as number;
  else if (kind === K_STRING) value = tile.strs?.[slot] ?? "";
  else if (kind === K_BOOLEAN) value = tile.nums[slot] === 1;
  else if (kind === K_ERROR) value = errorFromCode(tile.nums[slot] as number);
  else {
    const cell = tile.formulas?.get(slot);
    value = cell?.value ?? null;
    formula = cell?.text;
  }
  return { value, ...(formula === undefined ? {} : { formula }), ...(numFmt === undefined ? {} : { numFmt }) };
}

/** A cell an array fills: its value, General (the array's formula is its anchor's; the store keeps no format under a spill). */
function spilledCell(tile: Tile, slot: number, row: number, col: number): StoredCell | null {
  const anchor = tile.spills?.get(slot);
  const value = anchor?.spill?.values[row - anchor.row]?.[col - anchor.col];
  return value === undefined ? null : { value };
}

export function cellAt(book: Book, sheet: Sheet, row: number, col: number): StoredCell | null {
  const tile = sheet.grid.tile(row, col);
  return tile ? tileCell(book, tile, slotOf(row, col), row, col) : null;
}

export interface ReadOptions {
  render?: RenderMode;
  /** Cells a page holds at most (at least one); default 10,000. */
  maxCells?: number;
  /** Cells of the range already read, row by row (from a previous page's nextOffset). */
  offset?: number;
}

export interface ReadResult {
  /** The range the values cover, e.g. "Sheet1!A1:C3" (open ranges clipped to the used range). */
  range: string;
  values: JsonCellValue[][];
  truncated: boolean;
  /** Cells to skip for the next page, when truncated. */
  nextOffset: number | null;
}

/** The cells of a clipped box one page covers: always a rectangle, at most maxCells of them. */
export interface Page extends Box {
  truncated: boolean;
  /** The offset of the next page (cells of the box read so far, row by row), or null when this page ends the box. */
  next: number | null;
}

/**
 * The page of `box` that starts `offset` cells in (row by row). From a row's first cell, as many
 * whole rows as maxCells holds; a row wider than maxCells, or the rest of a row a page cut, is read
 * maxCells cells at a time, so a page may end inside a row and the next one continues there.
 */
export function pageOf(box: Box, maxCells: number, offset: number): Page | null {
  const width = box.right - box.left + 1;
  const total = width * (box.bottom - box.top + 1);
  if (offset >= total) return null;
  const top = box.top + Math.floor(offset / width);
  const column = offset % width;
  let page: Box;
  let read: number;
  if (column === 0 && width <= maxCells) {
    const rows = Math.min(Math.floor(maxCells / width), box.bottom - top + 1);
    page = { top, left: box.left, bottom: top + rows - 1, right: box.right };
    read = rows * width;
  } else {
    read = Math.min(maxCells, width - column);
    page = { top, left: box.left + column, bottom: top, right: box.left + column + read - 1 };
  }
  const next = offset + read < total ? offset + read : null;
  return { ...page, truncated: next !== null, next };
}

export function checkPaging(maxCells: number, offset: number): void {
  if (!Number.isInteger(maxCells) || maxCells < 1)
    throw new SheetsError("BAD_INPUT", `maxCells must be a whole number from 1, not ${maxCells}.`);
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw new SheetsError("BAD_INPUT", `The read's offset must be a whole number from 0, not ${offset}.`);
}

export function readRange(book: Book, range: string, options: ReadOptions = {}): ReadResult {
  const parsed = parseRange(range);
  const sheet = book.sheet(parsed.sheet);
  const render = options.render ?? "value";
  const maxCells = options.maxCells ?? 10_000;
  const offset = options.offset ?? 0;
  checkPaging(maxCells, offset);
  const box = clipRange(parsed, sheet.grid.used());
  const page = box ? pageOf(box, maxCells, offset) : null;
  if (!box || !page) {
    const empty = box ?? { top: parsed.top, left: parsed.left, bottom: parsed.top, right: parsed.left };
    return { range: formatRange(sheet.name, empty), values: [], truncated: false, nextOffset: null };
  }
  const values: JsonCellValue[][] = [];
  for (let r = page.top; r <= page.bottom; r++) {
    const row: JsonCellValue[] = [];
    for (let c = page.left; c <= page.right; c++) {
      const cell = cellAt(book, sheet, r, c);
      row.push(cell ? renderCell(cell.value, cell.numFmt, cell.formula, render) : null);
    }
    values.push(row);
  }
  return { range: formatRange(sheet.name, page), values, truncated: page.truncated, nextOffset: page.next };
}

export interface SheetDescription {
  name: string;
  index: number;
  /** The last used row's number (1-based), 0 when empty. */
  rows: number;
  /** The last used column's number (1-based), 0 when empty. */
  columns: number;
  /** "A1:D20" without the sheet name, or null when the sheet is empty. */
  usedRange: string | null;
  /** The first used row's texts when it looks like a header, else null. */
  header: string[] | null;
}

/**
 * A header row: every cell of the used range's first row is non-empty text, the texts are
 * distinct (ignoring case), and at least one row of data lies under it.
 */
function headerOf(book: Book, sheet: Sheet, used: Box): string[] | null {
  if (used.bottom === used.top) return null;
  const names: string[] = [];
  for (let c = used.left; c <= used.right; c++) {
    const cell = cellAt(book, sheet, used.top, c);
    if (!cell || cell.formula !== undefined || typeof cell.value !== "string" || cell.value.trim() === "") return null;
    names.push(cell.value);
  }
  return new Set(names.map((n) => n.toLowerCase())).size === names.length ? names : null;
}

export function describeSheets(book: Book): SheetDescription[] {
  return book.sheets.map((sheet, index) => {
    const used = sheet.grid.used();
    return {
      name: sheet.name,
      index,
      rows: used ? used.bottom + 1 : 0,
      columns: used ? used.right + 1 : 0,
      usedRange: used ? formatBox(used) : null,
      header: used ? headerOf(book, sheet, used) : null,
    };
  });
}
