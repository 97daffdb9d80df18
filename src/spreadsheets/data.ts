// The model to and from WorkbookData, what the .xlsx/.csv readers produce and the writers consume.
// Imported formulas are recomputed rather than trusting their cached values: the values callers
// read are then always the engine's, consistent with what later writes compute (report/import.ts
// compares the two and says where they differ).
import type { Book } from "./book.ts";
import { SheetsError } from "./errors.ts";
import { errorOf, type Scalar } from "./formula/values.ts";
import { slotOf, TILE_COLS, TILE_ROWS, tileCol, tileRow, type Tile } from "./grid.ts";
import { tileCell } from "./read.ts";
import { countKept, refusedOnImport } from "./report/kept.ts";
import type { Sheet } from "./sheet.ts";
import {
  isErrorValue,
  MAX_CELL_TEXT,
  MAX_COLUMNS,
  MAX_ROWS,
  type Cell,
  type CellValue,
  type SheetData,
  type SheetRow,
  type WorkbookData,
} from "./types.ts";

function scalarOf(value: CellValue, where: () => string): Exclude<Scalar, null> | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string") {
    if (value.length > MAX_CELL_TEXT)
      throw new SheetsError("LIMIT", `${where()} holds ${value.length} characters; a cell holds at most ${MAX_CELL_TEXT}.`, {
        limit: "MAX_CELL_TEXT",
      });
    return value;
  }
  if (typeof value === "boolean") return value;
  return isErrorValue(value.error) ? errorOf(value.error) : errorOf("#VALUE!");
}

/**
 * Loads one imported cell (formulas compiled leniently: what the engine cannot parse computes #NAME?
 * with a warning). A formula the gateway never stores (another workbook, DDE…) keeps the file's value.
 */
function loadCell(book: Book, sheet: Sheet, row: number, col: number, cell: Cell): void {
  if (cell.formula) {
    const formula = cell.formula.startsWith("=") ? cell.formula.slice(1) : cell.formula;
    const refused = refusedOnImport(book, formula, row, col);
    if (!refused)
      return book.setCell(sheet, row, col, { kind: "formula", formula, ...(cell.numFmt ? { numFmt: cell.numFmt } : {}) }, false);
    countKept(book, refused, () => book.where(sheet.sid, row, col));
  }
  const value = scalarOf(cell.value, () => book.where(sheet.sid, row, col));
  if (value === null) return;
  book.setCell(sheet, row, col, { kind: "value", value, ...(cell.numFmt ? { numFmt: cell.numFmt } : {}) }, false);
}

/** Fills a book from WorkbookData (sheets in order); the caller recalculates. */
export function loadData(book: Book, data: WorkbookData): void {
  if (data.sheets.length === 0) throw new SheetsError("BAD_INPUT", "A workbook has at least one sheet.");
  for (const source of data.sheets) book.addSheet(source.name);
  data.sheets.forEach((source, index) => {
    const sheet = book.sheets[index] as Sheet;
    for (const [row, cells] of source.rows()) {
      if (row < 0 || row >= MAX_ROWS)
        throw new SheetsError("LIMIT", `Sheet "${source.name}" has a row past 1048576.`, { limit: "MAX_ROWS" });
      if (cells.length > MAX_COLUMNS)
        throw new SheetsError("LIMIT", `Sheet "${source.name}" has a column past XFD.`, { limit: "MAX_COLUMNS" });
      cells.forEach((cell, col) => {
        if (cell) loadCell(book, sheet, row, col, cell);
      });
    }
  });
}

/** A sheet's rows in order, each with its cells (value, formula, number format). */
function* sheetRows(book: Book, sheet: Sheet): Generator<SheetRow> {
  const bands = new Map<number, [number, Tile][]>();
  for (const [key, tile] of sheet.grid.tiles) {
    let list = bands.get(tileRow(key));
    if (!list) bands.set(tileRow(key), (list = []));
    list.push([tileCol(key), tile]);
  }
  for (const band of [...bands.keys()].sort((a, b) => a - b)) {
    const tiles = (bands.get(band) as [number, Tile][]).sort((a, b) => a[0] - b[0]);
    for (let r = band * TILE_ROWS; r < band * TILE_ROWS + TILE_ROWS; r++) {
      const cells: (Cell | undefined)[] = [];
      for (const [tc, tile] of tiles) {
        for (let c = tc * TILE_COLS; c < tc * TILE_COLS + TILE_COLS; c++) {
          const stored = tileCell(book, tile, slotOf(r, c));
          if (stored) cells[c] = { value: stored.value, formula: stored.formula, numFmt: stored.numFmt };
        }
      }
      if (cells.length > 0) yield [r, cells];
    }
  }
}

/** The workbook for the writers: computed values, formulas (without "="), number formats. */
export function toData(book: Book): WorkbookData {
  const sheets: SheetData[] = book.sheets.map((sheet) => ({ name: sheet.name, rows: () => sheetRows(book, sheet) }));
  return { sheets };
}
