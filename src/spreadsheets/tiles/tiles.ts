// The model as stored tiles: saving what changed (copy-on-write: a one-cell write re-encodes one
// input tile, plus the value tiles whose computed values changed), loading a model from a manifest,
// and reading a range straight from the tiles that cover it, without building a model.
import type { Book } from "../workbook/book.ts";
import { Meter, type Budget } from "../formula/budget.ts";
import { errorFromCode, type Scalar } from "../formula/values.ts";
import {
  CLEAN,
  K_BOOLEAN,
  K_EMPTY,
  K_FORMULA,
  K_NUMBER,
  K_SPILL,
  K_STRING,
  TILE_COLS,
  TILE_ROWS,
  TILE_SIZE,
  TILES_ACROSS,
  tileCol,
  tileRow,
  type FormulaCell,
  type Tile,
} from "../cells/grid.ts";
import { tileHash, tileName, type Manifest } from "./manifest.ts";
import { Workbook, type WorkbookOptions, type WriteResult } from "../workbook/workbook.ts";
import { recalculate } from "../workbook/recalc.ts";
import type { Sheet } from "../cells/sheet.ts";
import { bookParts, loadBookParts } from "../workbook/book-parts.ts";
import { restoreSpill } from "../workbook/spill.ts";
import { MAX_COLUMNS, MAX_ROWS } from "../cells/types.ts";
import { decodeInputTile, decodeValueTile, encodeInputTile, encodeValueTile, type InputCell, type ValueCell } from "./tile-codec.ts";

export interface SavedTiles {
  manifest: Manifest;
  /** The tiles this save encoded, by hash (a content-addressed store may hold some already). */
  tiles: Map<string, Uint8Array>;
  written: { inputTiles: number; valueTiles: number; bytes: number };
}

function inputCells(book: Book, tile: Tile): InputCell[] {
  const cells: InputCell[] = [];
  const { kinds, nums, strs, fmts, formulas } = tile;
  for (let slot = 0; slot < TILE_SIZE; slot++) {
    const kind = kinds[slot];
    // Cells an array fills are its result, not input.
    if (kind === K_EMPTY || kind === K_SPILL) continue;
    const fmt = fmts?.[slot] ?? 0;
    const numFmt = fmt === 0 ? undefined : book.formats.code(fmt);
    if (kind === K_FORMULA) {
      const cell = formulas?.get(slot);
      cells.push({ slot, value: null, formula: cell?.text ?? "", numFmt, fixed: cell?.fixed ?? undefined });
    } else if (kind === K_NUMBER) cells.push({ slot, value: nums[slot] as number, numFmt });
    else if (kind === K_STRING) cells.push({ slot, value: strs?.[slot] ?? "", numFmt });
    else if (kind === K_BOOLEAN) cells.push({ slot, value: nums[slot] === 1, numFmt });
    else cells.push({ slot, value: errorFromCode(nums[slot] as number), numFmt });
  }
  return cells;
}

/** The values of a tile's formula cells (with how far each array spills) and of the cells arrays fill. */
function valueCells(tile: Tile, key: number): ValueCell[] {
  const cells: ValueCell[] = [];
  for (const [slot, cell] of tile.formulas ?? []) {
    const spill = cell.spill ? { rows: cell.spill.rows, cols: cell.spill.cols, blocked: cell.spill.blocked } : undefined;
    cells.push({ slot, value: cell.value, spill });
  }
  const [baseRow, baseCol] = [tileRow(key) * TILE_ROWS, tileCol(key) * TILE_COLS];
  for (const [slot, anchor] of tile.spills ?? []) {
    const row = baseRow + Math.floor(slot / TILE_COLS) - anchor.row;
    const col = baseCol + (slot % TILE_COLS) - anchor.col;
    cells.push({ slot, value: anchor.spill?.values[row]?.[col] ?? null });
  }
  return cells.sort((a, b) => a.slot - b.slot);
}

const keyName = (key: number): string => tileName(tileRow(key), tileCol(key));

class Saver {
  readonly tiles = new Map<string, Uint8Array>();
  readonly written = { inputTiles: 0, valueTiles: 0, bytes: 0 };
  constructor(private readonly book: Book) {}

  private put(map: Map<string, string>, name: string, bytes: Uint8Array | null, kind: "inputTiles" | "valueTiles"): void {
    if (!bytes) return void map.delete(name);
    const hash = tileHash(bytes);
    map.set(name, hash);
    this.tiles.set(hash, bytes);
    this.written[kind]++;
    this.written.bytes += bytes.length;
  }

  input(sheet: Sheet, key: number, map: Map<string, string>): void {
    const tile = sheet.grid.tiles.get(key);
    const cells = tile && tile.count > 0 ? inputCells(this.book, tile) : [];
    this.put(map, keyName(key), cells.length > 0 ? encodeInputTile(cells) : null, "inputTiles");
  }

  values(sheet: Sheet, key: number, map: Map<string, string>): void {
    const tile = sheet.grid.tiles.get(key);
    const cells = tile ? valueCells(tile, key) : [];
    this.put(map, keyName(key), cells.length > 0 ? encodeValueTile(cells) : null, "valueTiles");
  }
}

/** Encodes what changed since the last save (everything, the first time) and gives the new manifest. */
export function saveTiles(workbook: Workbook): SavedTiles {
  const book = workbook.book;
  const saver = new Saver(book);
  const index = (book.tileIndex ??= new Map());
  for (const sid of [...index.keys()]) if (!book.sheetById(sid)) index.delete(sid);
  for (const sheet of book.sheets) {
    let entry = index.get(sheet.sid);
    if (!entry || book.dirt.rewritten.has(sheet.sid)) {
      entry = { input: new Map(), values: new Map() };
      index.set(sheet.sid, entry);
      for (const key of sheet.grid.tiles.keys()) {
        saver.input(sheet, key, entry.input);
        saver.values(sheet, key, entry.values);
      }
      continue;
    }
    for (const key of book.dirt.input.get(sheet.sid) ?? []) saver.input(sheet, key, entry.input);
    for (const key of book.dirt.values.get(sheet.sid) ?? []) saver.values(sheet, key, entry.values);
  }
  book.dirt.clear();
  return { manifest: manifestOf(book), tiles: saver.tiles, written: saver.written };
}

function manifestOf(book: Book): Manifest {
  const index = book.tileIndex as NonNullable<Book["tileIndex"]>;
  const { names, tables } = bookParts(book);
  return {
    ...(names && names.length > 0 ? { names } : {}),
    ...(tables && tables.length > 0 ? { tables } : {}),
    format: 1,
    tileRows: TILE_ROWS,
    tileCols: TILE_COLS,
    sheets: book.sheets.map((sheet) => {
      const entry = index.get(sheet.sid) ?? { input: new Map(), values: new Map() };
      return {
        name: sheet.name,
        used: sheet.grid.used(),
        cells: sheet.grid.cells,
        input: Object.fromEntries(entry.input),
        values: Object.fromEntries(entry.values),
      };
    }),
  };
}

/** The tiles a write or edit changed since the last save, as [sheet name, tile key] pairs. */
export function dirtyTiles(workbook: Workbook): { input: [string, string][]; values: [string, string][]; sheetsChanged: boolean } {
  const book = workbook.book;
  const list = (map: Map<number, Set<number>>): [string, string][] =>
    [...map].flatMap(([sid, keys]) => {
      const sheet = book.sheetById(sid);
      return sheet ? [...keys].map((key): [string, string] => [sheet.name, keyName(key)]) : [];
    });
  return {
    input: list(book.dirt.input),
    values: list(book.dirt.values),
    sheetsChanged: book.dirt.sheetsChanged || book.dirt.rewritten.size > 0,
  };
}

const parseKey = (name: string): number => {
  const [r, c] = name.split(".").map(Number) as [number, number];
  return r * TILES_ACROSS + c;
};

interface Loading {
  /** Formulas whose values say they spill, with how far. */
  anchors: [FormulaCell, NonNullable<ValueCell["spill"]>][];
  /** Values of the cells arrays fill, by sheet id and cell key. */
  spilled: Map<string, Scalar>;
}

const spilledKey = (sid: number, row: number, col: number) => `${sid}:${row}:${col}`;

function loadInput(book: Book, sheet: Sheet, name: string, bytes: Uint8Array): void {
  const key = parseKey(name);
  const [baseRow, baseCol] = [tileRow(key) * TILE_ROWS, tileCol(key) * TILE_COLS];
  for (const cell of decodeInputTile(bytes)) {
    const row = baseRow + Math.floor(cell.slot / TILE_COLS);
    const col = baseCol + (cell.slot % TILE_COLS);
    const fmt = cell.numFmt ? { numFmt: cell.numFmt } : {};
    if (cell.formula !== undefined)
      book.setCell(
        sheet,
        row,
        col,
        { kind: "formula", formula: cell.formula, ...fmt, ...(cell.fixed ? { fixed: cell.fixed } : {}) },
        false,
      );
    else if (cell.value !== null) book.setCell(sheet, row, col, { kind: "value", value: cell.value, ...fmt }, false);
  }
}

function loadValues(sheet: Sheet, name: string, bytes: Uint8Array, loading: Loading): void {
  const key = parseKey(name);
  const grid = sheet.grid.tiles.get(key);
  const [baseRow, baseCol] = [tileRow(key) * TILE_ROWS, tileCol(key) * TILE_COLS];
  for (const { slot, value, spill } of decodeValueTile(bytes)) {
    const cell = grid?.kinds[slot] === K_FORMULA ? grid.formulas?.get(slot) : undefined;
    if (!cell) {
      loading.spilled.set(spilledKey(sheet.sid, baseRow + Math.floor(slot / TILE_COLS), baseCol + (slot % TILE_COLS)), value);
      continue;
    }
    cell.value = value;
    cell.state = CLEAN;
    if (spill) loading.anchors.push([cell, spill]);
  }
}

/** Puts stored arrays back where they spill; one whose cells are not all stored is computed again. */
function restoreSpills(book: Book, loading: Loading): void {
  for (const [anchor, { rows, cols, blocked }] of loading.anchors) {
    const fits = rows >= 1 && cols >= 1 && anchor.row + rows <= MAX_ROWS && anchor.col + cols <= MAX_COLUMNS;
    if (!fits) {
      book.again(anchor);
      continue;
    }
    if (blocked) {
      restoreSpill(book, anchor, { rows, cols, values: [], blocked: true });
      continue;
    }
    let complete = true;
    const values = Array.from({ length: rows }, (_, r) =>
      Array.from({ length: cols }, (_, c): Scalar => {
        if (r === 0 && c === 0) return anchor.value;
        const v = loading.spilled.get(spilledKey(anchor.sid, anchor.row + r, anchor.col + c));
        if (v === undefined) complete = false;
        return v ?? null;
      }),
    );
    if (complete) restoreSpill(book, anchor, { rows, cols, values, blocked: false });
    else book.again(anchor);
  }
}

/**
 * A model from a manifest and a function giving a tile's bytes by hash. Names and tables come first
 * (formulas compile against them); formula values come from the value tiles, arrays spill where the
 * value tiles say; formulas without a value are computed (and their value tiles become dirty).
 */
export function loadTiles(
  manifest: Manifest,
  tile: (hash: string) => Uint8Array,
  options: WorkbookOptions & { budget?: Budget } = {},
): { workbook: Workbook; result: WriteResult } {
  const workbook = Workbook.empty(options);
  const book = workbook.book;
  for (const entry of manifest.sheets) book.addSheet(entry.name);
  loadBookParts(book, manifest);
  book.dirt.paused = true;
  const loading: Loading = { anchors: [], spilled: new Map() };
  manifest.sheets.forEach((entry, i) => {
    const sheet = book.sheets[i] as Sheet;
    for (const [name, hash] of Object.entries(entry.input)) loadInput(book, sheet, name, tile(hash));
    for (const [name, hash] of Object.entries(entry.values)) loadValues(sheet, name, tile(hash), loading);
  });
  restoreSpills(book, loading);
  book.dirt.paused = false;
  const missing = book.fresh.filter((cell) => cell.state !== CLEAN);
  book.fresh = missing;
  book.changed = missing.map(({ sid, row, col }) => ({ sid, row, col }));
  book.warnings.clear();
  book.dirt.clear();
  book.tileIndex = new Map(
    book.sheets.map((sheet, i) => [
      sheet.sid,
      { input: new Map(Object.entries(manifest.sheets[i]!.input)), values: new Map(Object.entries(manifest.sheets[i]!.values)) },
    ]),
  );
  const recalculatedCells = missing.length > 0 ? recalculate(book, new Meter(options.budget)) : 0;
  return { workbook, result: { updatedRange: null, updatedCells: 0, recalculatedCells, warnings: [] } };
}
