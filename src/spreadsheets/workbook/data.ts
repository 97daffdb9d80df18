// The model to and from WorkbookData, what the .xlsx/.csv readers produce and the writers consume.
// Imported formulas are recomputed rather than trusting their cached values: the values callers
// read are then always the engine's, consistent with what later writes compute (report/import.ts
// compares the two and says where they differ).
import { formatBox } from "../cells/a1.ts";
import type { Book } from "./book.ts";
import { bookTables, loadBookParts } from "./book-parts.ts";
import { columnIndex } from "../cells/cells.ts";
import { FUNCTIONS } from "../formula/functions/index.ts";
import { applyXlsxPlan, planXlsx, toXlsxFormula } from "../formula/xlsx.ts";
import type { FormulaCell } from "../cells/grid.ts";
import { formulaCells, listNames } from "./names.ts";
import type { CellInput } from "./values.ts";
import { SheetsError } from "../cells/errors.ts";
import { errorOf, type Scalar } from "../formula/values.ts";
import { slotOf, TILE_COLS, TILE_ROWS, tileCol, tileRow, type Tile } from "../cells/grid.ts";
import { tileCell } from "./read.ts";
import { countKept, refusedOnImport } from "../report/kept.ts";
import type { Sheet } from "../cells/sheet.ts";
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
} from "../cells/types.ts";

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

/** An array formula's fixed range (CSE) as rows × columns from its cell; none for a dynamic array or a range elsewhere. */
function fixedOf(cell: Cell, row: number, col: number): { rows: number; cols: number } | undefined {
  if (!cell.array || cell.array.dynamic) return undefined;
  const match = /^\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?$/i.exec(cell.array.ref.trim());
  if (!match) return undefined;
  const top = Number(match[2]) - 1;
  const left = columnIndex(match[1] as string);
  if (top !== row || left !== col) return undefined;
  const bottom = match[4] === undefined ? top : Number(match[4]) - 1;
  const right = match[3] === undefined ? left : columnIndex(match[3]);
  if (bottom < top || right < left || bottom >= MAX_ROWS || right >= MAX_COLUMNS) return undefined;
  return { rows: bottom - top + 1, cols: right - left + 1 };
}

/**
 * Loads one imported cell (formulas compiled leniently: what the engine cannot parse computes #NAME?
 * with a warning). A formula the gateway never stores (another workbook, DDE…) keeps the file's value.
 */
function loadCell(book: Book, sheet: Sheet, row: number, col: number, cell: Cell): void {
  if (cell.formula) {
    const formula = cell.formula.startsWith("=") ? cell.formula.slice(1) : cell.formula;
    const refused = refusedOnImport(book, formula, { sid: sheet.sid, row, col });
    if (!refused) {
      const fixed = fixedOf(cell, row, col);
      const input: CellInput = {
        kind: "formula",
        formula,
        ...(cell.numFmt ? { numFmt: cell.numFmt } : {}),
        ...(fixed ? { fixed } : {}),
        ...(cell.legacy ? { legacy: true } : {}),
      };
      return book.setCell(sheet, row, col, input, false);
    }
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
  const tables = data.sheets.flatMap((s) => (s.tables ?? []).map((t) => ({ ...t, sheet: s.name })));
  loadBookParts(book, { names: data.names, tables });
  // Into an empty book, every formula is new: none needs marking again when the cells it reads are loaded.
  if (book.totalCells === 0 && book.fresh.length === 0) book.noneComputed = true;
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

const planOf = (book: Book, cell: FormulaCell) =>
  (cell.program.xlsx ??= planXlsx(cell.text, { functions: FUNCTIONS, env: book.env, sid: cell.sid }));

/** Whether any formula is a dynamic array in .xlsx terms (it spills, or needs dynamic arrays to mean what it does). */
function anyDynamic(book: Book): boolean {
  for (const cell of formulaCells(book)) if (!cell.fixed && (cell.spill || planOf(book, cell).dynamic)) return true;
  return false;
}

/** A formula cell as the .xlsx writer takes it: its text in the file's form, and its array range when it has one. */
function xlsxCell(book: Book, cell: FormulaCell, stored: Cell): Cell {
  const plan = planOf(book, cell);
  const formula = applyXlsxPlan(cell.text, plan);
  const extent = cell.fixed ?? (cell.spill && !cell.spill.blocked ? cell.spill : plan.dynamic || cell.spill ? { rows: 1, cols: 1 } : null);
  if (!extent) return { ...stored, formula };
  const ref = formatBox({ top: cell.row, left: cell.col, bottom: cell.row + extent.rows - 1, right: cell.col + extent.cols - 1 });
  return { ...stored, formula, array: { ref, dynamic: !cell.fixed } };
}

/** A sheet's rows in order, each with its cells (value, formula, number format); for .xlsx, formulas as files write them. */
function* sheetRows(book: Book, sheet: Sheet, xlsx: boolean): Generator<SheetRow> {
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
          const slot = slotOf(r, c);
          const stored = tileCell(book, tile, slot, r, c);
          if (!stored) continue;
          const cell: Cell = { value: stored.value, formula: stored.formula, numFmt: stored.numFmt };
          const formula = xlsx && stored.formula !== undefined ? tile.formulas?.get(slot) : undefined;
          cells[c] = formula ? xlsxCell(book, formula, cell) : cell;
        }
      }
      if (cells.length > 0) yield [r, cells];
    }
  }
}

/**
 * The workbook for the writers: computed values, formulas (without "="), number formats, defined
 * names and tables. `xlsx`: formulas, names and array ranges as an .xlsx file writes them.
 */
export function toData(book: Book, options: { xlsx?: boolean } = {}): WorkbookData {
  const xlsx = options.xlsx === true;
  const tables = bookTables(book);
  const sheets: SheetData[] = book.sheets.map((sheet) => {
    const own = tables.filter((t) => t.sheet === sheet.name).map(({ sheet: _sheet, ...t }) => t);
    return { name: sheet.name, rows: () => sheetRows(book, sheet, xlsx), ...(own.length > 0 ? { tables: own } : {}) };
  });
  const names = listNames(book).map((n) => (xlsx ? { ...n, formula: toXlsxFormula(n.formula) } : n));
  return { sheets, ...(names.length > 0 ? { names } : {}), ...(xlsx && anyDynamic(book) ? { dynamicArrays: true } : {}) };
}
