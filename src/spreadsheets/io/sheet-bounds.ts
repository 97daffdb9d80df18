// The rectangle a sheet's cells occupy, found in one pass over its rows: the .xlsx writer puts it
// in <dimension> before the rows, the CSV writer pads every line to its width. It also checks
// what the writers rely on: rows ascending, each once, within the sheet's limits.
import type { Cell, SheetData } from "../cells/types.ts";
import { MAX_COLUMNS, MAX_ROWS } from "../cells/types.ts";

/** 0-based, inclusive. */
export interface Bounds {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Whether a writer writes this cell: a value, a formula, or a number format (Excel keeps a formatted empty cell). */
export const isWritten = (cell: Cell | undefined): cell is Cell =>
  cell !== undefined && (cell.value !== null || cell.formula !== undefined || cell.numFmt !== undefined);

/** The used rectangle of `sheet`'s cells that `counts` (default: isWritten), or null when there are none. */
export function sheetBounds(sheet: SheetData, counts: (cell: Cell | undefined) => boolean = isWritten): Bounds | null {
  let bounds: Bounds | null = null;
  let previous = -1;
  for (const [row, cells] of sheet.rows()) {
    if (!Number.isInteger(row) || row <= previous || row >= MAX_ROWS) {
      throw new RangeError(`sheet "${sheet.name}": row ${row} out of order or past ${MAX_ROWS}`);
    }
    previous = row;
    if (cells.length > MAX_COLUMNS)
      throw new RangeError(`sheet "${sheet.name}": row ${row + 1} has ${cells.length} columns, past ${MAX_COLUMNS}`);
    let first = -1;
    let last = -1;
    for (let column = 0; column < cells.length; column++) {
      if (!counts(cells[column])) continue;
      if (first < 0) first = column;
      last = column;
    }
    if (first < 0) continue;
    if (bounds === null) bounds = { top: row, left: first, bottom: row, right: last };
    else {
      bounds.bottom = row;
      if (first < bounds.left) bounds.left = first;
      if (last > bounds.right) bounds.right = last;
    }
  }
  return bounds;
}
