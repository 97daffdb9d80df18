// Array results in cells. A formula whose result is an array spills it: the cells right of and
// below its own take the other values (K_SPILL cells, which read their anchor's values), provided
// they are empty; when one is not, or the array runs off the sheet, the formula shows #SPILL! and
// fills nothing, and is computed again when the cells in the way are cleared. An array formula
// from a file (CSE, a fixed range) fills exactly its range: values beyond the array's are #N/A, a
// single row or column repeats.
import type { Box } from "../cells/a1.ts";
import type { Book } from "./book.ts";
import { ERR, type ArrayValue, type Scalar } from "../formula/values.ts";
import { K_EMPTY, K_SPILL, slotOf, type FormulaCell, type Spill } from "../cells/grid.ts";
import { MAX_COLUMNS, MAX_ROWS } from "../cells/types.ts";

export interface Cell {
  sid: number;
  row: number;
  col: number;
}

/** The rectangle a spill covers, its anchor included. */
export const spillBox = (anchor: FormulaCell, spill: Pick<Spill, "rows" | "cols">): Box => ({
  top: anchor.row,
  left: anchor.col,
  bottom: anchor.row + spill.rows - 1,
  right: anchor.col + spill.cols - 1,
});

const within = (box: Box, row: number, col: number) => row >= box.top && row <= box.bottom && col >= box.left && col <= box.right;

/** Empties the cells of `spill` that are still the anchor's, except those within `keep`; returns them. */
function release(book: Book, anchor: FormulaCell, spill: Spill, keep: Box | null): Cell[] {
  const grid = book.sheetById(anchor.sid)?.grid;
  if (!grid) return [];
  const cleared: Cell[] = [];
  for (let r = anchor.row; r < anchor.row + spill.rows; r++)
    for (let c = anchor.col; c < anchor.col + spill.cols; c++) {
      if ((r === anchor.row && c === anchor.col) || (keep && within(keep, r, c))) continue;
      const tile = grid.tile(r, c);
      const slot = slotOf(r, c);
      if (!tile || tile.kinds[slot] !== K_SPILL || tile.spills?.get(slot) !== anchor) continue;
      tile.kinds[slot] = K_EMPTY;
      tile.spills.delete(slot);
      grid.counted(tile, r, c, -1);
      book.totalCells--;
      book.dirt.markValue(anchor.sid, r, c);
      cleared.push({ sid: anchor.sid, row: r, col: c });
    }
  return cleared;
}

/** Empties the cells an anchor's spill fills (those still its own); returns them. */
export function clearSpill(book: Book, anchor: FormulaCell): Cell[] {
  const spill = anchor.spill;
  anchor.spill = null;
  book.blocked.delete(anchor);
  return spill && !spill.blocked ? release(book, anchor, spill, null) : [];
}

/** The values a fixed (CSE) range shows: the array broadcast to it, #N/A past it. */
function fitted(values: ArrayValue, rows: number, cols: number): ArrayValue {
  const h = values.length;
  const w = values[0]?.length ?? 0;
  return Array.from({ length: rows }, (_, r) =>
    Array.from({ length: cols }, (_, c) => {
      const rr = h === 1 ? 0 : r;
      const cc = w === 1 ? 0 : c;
      return rr < h && cc < w ? (values[rr]?.[cc] ?? 0) : ERR.NA;
    }),
  );
}

/** Whether every cell the spill would fill (other than the anchor) is empty or already the anchor's. */
function free(book: Book, anchor: FormulaCell, box: Box): boolean {
  if (box.bottom >= MAX_ROWS || box.right >= MAX_COLUMNS) return false;
  const grid = book.sheetById(anchor.sid)?.grid;
  if (!grid) return false;
  for (let r = box.top; r <= box.bottom; r++)
    for (let c = box.left; c <= box.right; c++) {
      if (r === anchor.row && c === anchor.col) continue;
      const tile = grid.tile(r, c);
      if (!tile) continue;
      const slot = slotOf(r, c);
      const kind = tile.kinds[slot];
      if (kind !== K_EMPTY && !(kind === K_SPILL && tile.spills?.get(slot) === anchor)) return false;
    }
  return true;
}

/**
 * Puts a formula's computed result in place: a value in its cell, an array spilled from it (or
 * #SPILL!). Returns the anchor's own value and the other cells whose values changed.
 */
export function placeResult(book: Book, anchor: FormulaCell, result: Scalar | ArrayValue): { value: Scalar; changed: Cell[] } {
  const fixed = anchor.fixed;
  if (!Array.isArray(result) && !fixed) {
    return { value: result, changed: anchor.spill ? clearSpill(book, anchor) : [] };
  }
  const array: ArrayValue = Array.isArray(result) ? result : [[result]];
  const rows = fixed ? fixed.rows : array.length;
  const cols = fixed ? fixed.cols : (array[0]?.length ?? 1);
  const values = fixed ? fitted(array, rows, cols) : array;
  const box = spillBox(anchor, { rows, cols });
  if (!free(book, anchor, box)) {
    const changed = clearSpill(book, anchor);
    anchor.spill = { rows, cols, values: [], blocked: true };
    book.blocked.add(anchor);
    return { value: ERR.SPILL, changed };
  }
  const old = anchor.spill;
  // Cells the old spill filled that the new one does not: emptied.
  const changed: Cell[] = old && !old.blocked ? release(book, anchor, old, box) : [];
  anchor.spill = { rows, cols, values, blocked: false };
  book.blocked.delete(anchor);
  const grid = book.sheetById(anchor.sid)!.grid;
  for (let r = box.top; r <= box.bottom; r++)
    for (let c = box.left; c <= box.right; c++) {
      if (r === anchor.row && c === anchor.col) continue;
      const tile = grid.tileFor(r, c);
      const slot = slotOf(r, c);
      if (tile.kinds[slot] === K_EMPTY) book.countSpill(grid, tile, r, c);
      tile.kinds[slot] = K_SPILL;
      (tile.spills ??= new Map()).set(slot, anchor);
      const before = old && !old.blocked ? old.values[r - anchor.row]?.[c - anchor.col] : undefined;
      const now = values[r - anchor.row]?.[c - anchor.col];
      if (before !== now) {
        book.dirt.markValue(anchor.sid, r, c);
        changed.push({ sid: anchor.sid, row: r, col: c });
      }
    }
  return { value: values[0]?.[0] ?? 0, changed };
}

/** Restores a stored spill (loading tiles): the cells it fills, with the values given. */
export function restoreSpill(book: Book, anchor: FormulaCell, spill: Spill): void {
  anchor.spill = spill;
  if (spill.blocked) {
    book.blocked.add(anchor);
    return;
  }
  const grid = book.sheetById(anchor.sid)!.grid;
  for (let r = 0; r < spill.rows; r++)
    for (let c = 0; c < spill.cols; c++) {
      if (r === 0 && c === 0) continue;
      const tile = grid.tileFor(anchor.row + r, anchor.col + c);
      const slot = slotOf(anchor.row + r, anchor.col + c);
      if (tile.kinds[slot] !== K_EMPTY) continue;
      book.countSpill(grid, tile, anchor.row + r, anchor.col + c);
      tile.kinds[slot] = K_SPILL;
      (tile.spills ??= new Map()).set(slot, anchor);
    }
}
