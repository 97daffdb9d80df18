// One sheet's cells, stored in tiles of TILE_ROWS × TILE_COLS: typed arrays for kinds and numbers,
// text, number formats and formulas only where a tile has them. A tile is also the unit the store
// persists (tiles.ts), so a write dirties exactly the tiles of the cells it touches.
import type { Box } from "./a1.ts";
import type { Program } from "../formula/program.ts";
import type { ArrayValue, Scalar } from "../formula/values.ts";

export const TILE_ROWS = 128;
export const TILE_COLS = 32;
export const TILE_SIZE = TILE_ROWS * TILE_COLS;
/** Tiles across a sheet (16,384 columns / 32). */
export const TILES_ACROSS = 512;

export const K_EMPTY = 0;
export const K_NUMBER = 1;
export const K_STRING = 2;
export const K_BOOLEAN = 3;
export const K_ERROR = 4;
export const K_FORMULA = 5;
/** A cell a dynamic array (or an array formula's range) fills: its value is its anchor formula's. */
export const K_SPILL = 6;

export const tileKeyOf = (row: number, col: number): number => Math.floor(row / TILE_ROWS) * TILES_ACROSS + Math.floor(col / TILE_COLS);
export const slotOf = (row: number, col: number): number => (row % TILE_ROWS) * TILE_COLS + (col % TILE_COLS);
export const tileRow = (key: number): number => Math.floor(key / TILES_ACROSS);
export const tileCol = (key: number): number => key % TILES_ACROSS;

/** Recalculation states of a formula cell. */
export const CLEAN = 0;
export const DIRTY = 1;
export const PENDING = 2;
export const RUNNING = 3;

export interface FormulaCell {
  /** The formula without "=". */
  text: string;
  program: Program;
  /** The computed value (never a reference or an array). */
  value: Scalar;
  state: number;
  sid: number;
  row: number;
  col: number;
  /** An array result: the rectangle from this cell it fills (or would, when blocked), and its values. */
  spill?: Spill | null;
  /** An array formula's fixed range (CSE, `t="array"` in .xlsx), rows × columns from this cell. */
  fixed?: { rows: number; cols: number } | null;
}

export interface Spill {
  rows: number;
  cols: number;
  /** The values, rows × cols (this cell's at [0][0]); empty when blocked. */
  values: ArrayValue;
  /** Another cell is in the way: the formula shows #SPILL! and fills nothing. */
  blocked: boolean;
}

export class Tile {
  readonly kinds = new Uint8Array(TILE_SIZE);
  /** Numbers; booleans as 0/1; errors as their index in ERROR_VALUES. */
  readonly nums = new Float64Array(TILE_SIZE);
  strs: (string | undefined)[] | null = null;
  /** Index into the workbook's format table (0: General), when any cell of the tile has a format. */
  fmts: Uint16Array | null = null;
  formulas: Map<number, FormulaCell> | null = null;
  /** Cells filled by an array result (K_SPILL), by slot: the formula cell whose result they show. */
  spills: Map<number, FormulaCell> | null = null;
  /** Non-empty cells. */
  count = 0;
}

export class Grid {
  readonly tiles = new Map<number, Tile>();
  /** Non-empty cells of the sheet. */
  cells = 0;
  private usedBox: Box | null = null;
  private usedStale = false;

  tile(row: number, col: number): Tile | undefined {
    return this.tiles.get(tileKeyOf(row, col));
  }

  /** The tile holding (row, col), created when missing. */
  tileFor(row: number, col: number): Tile {
    const key = tileKeyOf(row, col);
    let tile = this.tiles.get(key);
    if (!tile) this.tiles.set(key, (tile = new Tile()));
    return tile;
  }

  /** Bookkeeping after a cell of `tile` went from empty to filled (+1) or back (-1). */
  counted(tile: Tile, row: number, col: number, delta: 1 | -1): void {
    tile.count += delta;
    this.cells += delta;
    if (delta < 0) {
      this.usedStale = true;
      if (tile.count === 0) this.tiles.delete(tileKeyOf(row, col));
    } else if (!this.usedStale) {
      const b = this.usedBox;
      if (!b) this.usedBox = { top: row, left: col, bottom: row, right: col };
      else {
        // In place: this runs for every cell written, and used() hands out copies.
        if (row < b.top) b.top = row;
        if (row > b.bottom) b.bottom = row;
        if (col < b.left) b.left = col;
        if (col > b.right) b.right = col;
      }
    }
  }

  /** The smallest rectangle holding every non-empty cell, or null. */
  used(): Box | null {
    if (this.usedStale) {
      this.usedBox = this.scanUsed();
      this.usedStale = false;
    }
    return this.usedBox && { ...this.usedBox };
  }

  private scanUsed(): Box | null {
    let box: Box | null = null;
    for (const [key, tile] of this.tiles) {
      if (tile.count === 0) continue;
      const baseRow = tileRow(key) * TILE_ROWS;
      const baseCol = tileCol(key) * TILE_COLS;
      for (let slot = 0; slot < TILE_SIZE; slot++) {
        if (tile.kinds[slot] === K_EMPTY) continue;
        const row = baseRow + Math.floor(slot / TILE_COLS);
        const col = baseCol + (slot % TILE_COLS);
        box = box
          ? {
              top: Math.min(box.top, row),
              left: Math.min(box.left, col),
              bottom: Math.max(box.bottom, row),
              right: Math.max(box.right, col),
            }
          : { top: row, left: col, bottom: row, right: col };
      }
    }
    return box;
  }

  /** Forgets every cell (structure edits rebuild a sheet's grid from its moved cells). */
  reset(): void {
    this.tiles.clear();
    this.cells = 0;
    this.usedBox = null;
    this.usedStale = false;
  }
}
