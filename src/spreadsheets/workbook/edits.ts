// Structure edits, applied in order: sheets added, renamed and deleted; rows and columns inserted
// and deleted (cells move, formulas everywhere follow as Excel rewrites them); ranges cleared and
// written. A structure edit recompiles every formula and recomputes them all: such edits are rare,
// and this keeps the dependency graph exact.
import { z } from "zod";
import { clipRange, parseRange, type Box } from "../cells/a1.ts";
import { storeScalar, type Book } from "./book.ts";
import { columnIndex } from "../cells/cells.ts";
import { SheetsError } from "../cells/errors.ts";
import { rewriteFormula, type StructureChange } from "../formula/rewrite.ts";
import {
  DIRTY,
  K_EMPTY,
  K_FORMULA,
  K_SPILL,
  K_STRING,
  slotOf,
  TILE_COLS,
  TILE_ROWS,
  TILE_SIZE,
  tileCol,
  tileRow,
  type FormulaCell,
  type Tile,
} from "../cells/grid.ts";
import type { Sheet } from "../cells/sheet.ts";
import { MAX_COLUMNS, MAX_ROWS } from "../cells/types.ts";
import { WORKBOOK_SCOPE } from "../formula/env.ts";
import { shiftTables } from "./tables.ts";
import { writeRange } from "./write.ts";

const sheetName = z.string().min(1);
const cellInput = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const shiftRows = z.strictObject({ sheet: sheetName, at: z.number().int(), count: z.number().int() });
const shiftColumns = z.strictObject({ sheet: sheetName, at: z.union([z.string(), z.number().int()]), count: z.number().int() });

/** One operation of an edit, as callers send it (CONTRACT §11 `POST …/edit`). */
export const editOperationSchema = z.union([
  z.strictObject({ addSheet: z.strictObject({ name: z.string(), index: z.number().int().optional() }) }),
  z.strictObject({ renameSheet: z.strictObject({ sheet: sheetName, name: z.string() }) }),
  z.strictObject({ deleteSheet: z.strictObject({ sheet: sheetName }) }),
  z.strictObject({ insertRows: shiftRows }),
  z.strictObject({ deleteRows: shiftRows }),
  z.strictObject({ insertColumns: shiftColumns }),
  z.strictObject({ deleteColumns: shiftColumns }),
  z.strictObject({ clear: z.strictObject({ range: z.string() }) }),
  z.strictObject({
    write: z.strictObject({ range: z.string(), values: z.array(z.array(cellInput)), input: z.enum(["parse", "raw"]).optional() }),
  }),
]);

export type EditOperation = z.infer<typeof editOperationSchema>;

/** Calls `fn` for each non-empty cell of a sheet (row, col, tile, slot). */
export function eachCell(sheet: Sheet, fn: (row: number, col: number, tile: Tile, slot: number) => void): void {
  for (const [key, tile] of [...sheet.grid.tiles]) {
    const baseRow = tileRow(key) * TILE_ROWS;
    const baseCol = tileCol(key) * TILE_COLS;
    for (let slot = 0; slot < TILE_SIZE; slot++) {
      if (tile.kinds[slot] !== K_EMPTY) fn(baseRow + Math.floor(slot / TILE_COLS), baseCol + (slot % TILE_COLS), tile, slot);
    }
  }
}

/** Rewrites every formula's text, and every defined name's, for `change` (before the change is made to the sheets). */
function rewriteAll(book: Book, change: StructureChange): void {
  for (const def of book.names.all()) {
    const own = def.sid === WORKBOOK_SCOPE ? "" : (book.sheetById(def.sid)?.name ?? "");
    const formula = rewriteFormula(def.formula, own, change);
    if (formula !== def.formula) book.names.set({ ...def, formula });
  }
  for (const sheet of book.sheets) {
    eachCell(sheet, (row, col, tile, slot) => {
      const cell = tile.kinds[slot] === K_FORMULA ? tile.formulas?.get(slot) : undefined;
      if (!cell) return;
      const text = rewriteFormula(cell.text, sheet.name, change);
      if (text === cell.text) return;
      cell.text = text;
      book.dirt.markInput(sheet.sid, row, col);
    });
  }
}

/** Compiles every formula again and marks them all for the recalculation (arrays spill again). */
export function recompileAll(book: Book): void {
  book.graph.clear();
  book.volatile.clear();
  book.compiler.clear();
  book.blocked.clear();
  book.fresh = [];
  for (const sheet of book.sheets) dropSpills(book, sheet);
  for (const sheet of book.sheets) {
    eachCell(sheet, (row, col, tile, slot) => {
      const cell = tile.kinds[slot] === K_FORMULA ? tile.formulas?.get(slot) : undefined;
      if (!cell) return;
      const { text, program } = book.compiler.compile(cell.text, { sid: sheet.sid, row, col }, { strict: false });
      Object.assign(cell, {
        text,
        program,
        state: DIRTY,
        sid: sheet.sid,
        row,
        col,
        spill: null,
      });
      book.graph.add(cell);
      if (program.volatile) book.volatile.add(cell);
      book.report.flag(cell);
      book.fresh.push(cell);
    });
  }
}

/** Empties every cell an array fills on a sheet (the arrays are computed again after a structure edit). */
function dropSpills(book: Book, sheet: Sheet): void {
  eachCell(sheet, (row, col, tile, slot) => {
    if (tile.kinds[slot] !== K_SPILL) return;
    tile.kinds[slot] = K_EMPTY;
    tile.spills?.delete(slot);
    sheet.grid.counted(tile, row, col, -1);
    book.totalCells--;
    book.dirt.markValue(sheet.sid, row, col);
  });
}

interface Moved {
  row: number;
  col: number;
  tile: Tile;
  slot: number;
}

/** Moves a sheet's cells for inserted (count > 0) or deleted (count < 0) rows or columns. */
function moveCells(book: Book, sheet: Sheet, axis: "row" | "col", at: number, count: number): void {
  const moved: Moved[] = [];
  eachCell(sheet, (row, col, tile, slot) => {
    // Cells arrays fill are not moved: the arrays spill again once recomputed.
    if (tile.kinds[slot] === K_SPILL) return;
    const pos = axis === "row" ? row : col;
    if (count < 0 && pos >= at && pos < at - count) return;
    const next = pos >= at ? pos + count : pos;
    moved.push(axis === "row" ? { row: next, col, tile, slot } : { row, col: next, tile, slot });
  });
  const grid = sheet.grid;
  book.totalCells -= grid.cells;
  grid.reset();
  for (const { row, col, tile, slot } of moved) {
    const target = grid.tileFor(row, col);
    const to = slotOf(row, col);
    const kind = tile.kinds[slot] as number;
    if (kind === K_FORMULA) {
      target.kinds[to] = K_FORMULA;
      (target.formulas ??= new Map()).set(to, tile.formulas?.get(slot) as FormulaCell);
    } else if (kind === K_STRING) storeScalar(target, to, tile.strs?.[slot] ?? "");
    else {
      target.kinds[to] = kind;
      target.nums[to] = tile.nums[slot] as number;
    }
    const fmt = tile.fmts?.[slot] ?? 0;
    if (fmt) (target.fmts ??= new Uint16Array(TILE_SIZE))[to] = fmt;
    grid.counted(target, row, col, 1);
  }
  book.totalCells += grid.cells;
  book.dirt.rewrite(sheet.sid);
}

function positive(count: unknown, what: string): number {
  if (!Number.isInteger(count) || (count as number) < 1)
    throw new SheetsError("BAD_INPUT", `${what}: count must be a whole number from 1, not ${String(count)}.`);
  return count as number;
}

function rowAt(at: unknown): number {
  if (!Number.isInteger(at) || (at as number) < 1 || (at as number) > MAX_ROWS)
    throw new SheetsError("BAD_INPUT", `Row ${String(at)} is not a row number from 1 to ${MAX_ROWS}.`);
  return (at as number) - 1;
}

function columnAt(at: unknown): number {
  const index = typeof at === "number" && Number.isInteger(at) ? at - 1 : typeof at === "string" ? columnIndex(at.trim()) : -1;
  if (index < 0 || index >= MAX_COLUMNS) throw new SheetsError("BAD_INPUT", `Column ${String(at)} is not a column letter from A to XFD.`);
  return index;
}

/** Inserts or deletes rows or columns of a sheet, moving cells and rewriting references. */
function shift(book: Book, spec: { sheet: string; at: unknown; count: unknown }, axis: "row" | "col", insert: boolean): void {
  const sheet = book.sheet(spec.sheet);
  const what = `${insert ? "insert" : "delete"}${axis === "row" ? "Rows" : "Columns"}`;
  const count = positive(spec.count, what);
  const at = axis === "row" ? rowAt(spec.at) : columnAt(spec.at);
  const limit = axis === "row" ? MAX_ROWS : MAX_COLUMNS;
  const used = sheet.grid.used();
  if (insert && used && (axis === "row" ? used.bottom : used.right) + count >= limit && (axis === "row" ? used.bottom : used.right) >= at)
    throw new SheetsError(
      "LIMIT",
      `${what} would push cells of "${sheet.name}" past the sheet's last ${axis === "row" ? "row" : "column"}.`,
      { limit: axis === "row" ? "MAX_ROWS" : "MAX_COLUMNS" },
    );
  const signed = insert ? count : -Math.min(count, limit - at);
  rewriteAll(book, { kind: axis === "row" ? "rows" : "columns", sheet: sheet.name, at, count: signed });
  shiftTables(book.tables, sheet.sid, axis, at, signed);
  moveCells(book, sheet, axis, at, signed);
}

/** Clears every non-empty cell of a range. */
function clearRange(book: Book, range: string): void {
  const parsed = parseRange(range);
  const sheet = book.sheet(parsed.sheet);
  const box: Box | null = clipRange(parsed, sheet.grid.used());
  if (!box) return;
  const cells: [number, number][] = [];
  eachCell(sheet, (row, col) => {
    if (row >= box.top && row <= box.bottom && col >= box.left && col <= box.right) cells.push([row, col]);
  });
  for (const [row, col] of cells) book.setCell(sheet, row, col, { kind: "clear" }, true);
}

/** Applies one operation; returns whether it moved cells or changed sheets (a full recompile follows). */
export function applyOperation(book: Book, input: EditOperation): { structural: boolean; cells: number; range?: string } {
  const parsed = editOperationSchema.safeParse(input);
  if (!parsed.success)
    throw new SheetsError(
      "BAD_INPUT",
      `Operation ${JSON.stringify(input)?.slice(0, 200)} is not one of addSheet {name, index?}, renameSheet {sheet, name}, deleteSheet {sheet}, insertRows/deleteRows {sheet, at, count}, insertColumns/deleteColumns {sheet, at (a column letter), count}, clear {range}, write {range, values, input?}.`,
    );
  const op = parsed.data;
  if ("addSheet" in op) return (book.addSheet(op.addSheet.name, op.addSheet.index), { structural: true, cells: 0 });
  if ("renameSheet" in op) {
    const sheet = book.sheet(op.renameSheet.sheet);
    rewriteAll(book, { kind: "rename", from: sheet.name, to: op.renameSheet.name });
    book.renameSheet(sheet, op.renameSheet.name);
    return { structural: true, cells: 0 };
  }
  if ("deleteSheet" in op) {
    const sheet = book.sheet(op.deleteSheet.sheet);
    rewriteAll(book, { kind: "deleteSheet", sheet: sheet.name, order: book.sheets.map((s) => s.name) });
    book.removeSheet(sheet);
    return { structural: true, cells: 0 };
  }
  if ("insertRows" in op) return (shift(book, op.insertRows, "row", true), { structural: true, cells: 0 });
  if ("deleteRows" in op) return (shift(book, op.deleteRows, "row", false), { structural: true, cells: 0 });
  if ("insertColumns" in op) return (shift(book, op.insertColumns, "col", true), { structural: true, cells: 0 });
  if ("deleteColumns" in op) return (shift(book, op.deleteColumns, "col", false), { structural: true, cells: 0 });
  if ("clear" in op) return (clearRange(book, op.clear.range), { structural: false, cells: 0 });
  if ("write" in op) {
    const written = writeRange(book, op.write.range, op.write.values, op.write.input ?? "parse");
    return { structural: false, cells: written.updatedCells, range: written.updatedRange };
  }
  throw new SheetsError("BAD_INPUT", `Unknown operation ${Object.keys(op)[0]}.`);
}
