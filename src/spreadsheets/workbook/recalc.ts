// Recalculation. The cells to compute are the formulas just written, the volatile ones (TODAY,
// NOW) and everything that depends on a change, found through the dependency graph. They are
// computed from an explicit stack, never by recursion: a formula that reads a formula cell not yet
// computed stops (NeedCell), that cell is computed first, and the formula runs again. A cell read
// while it waits for itself is a circular reference: it reads #REF! and the write gets a warning.
import type { Box } from "../cells/a1.ts";
import type { Book } from "./book.ts";
import { enterJob, type Meter } from "../formula/budget.ts";
import { serialFromInstant } from "../cells/dates.ts";
import type { EvalContext, Snapshot, Totals } from "../formula/context.ts";
import type { Criterion } from "../formula/criteria.ts";
import type { ExactIndex } from "../formula/exact-index.ts";
import { cellResult } from "../formula/result.ts";
import { ERR, NeedCell, RangeValue, type ArrayValue, type FormulaError, type Frame, type Scalar } from "../formula/values.ts";
import { indirectReference } from "./indirect.ts";
import { peek, RangeCache, waitingCell } from "./range-cache.ts";
import { placeResult, spillBox } from "./spill.ts";
import {
  CLEAN,
  DIRTY,
  K_BOOLEAN,
  K_EMPTY,
  K_NUMBER,
  K_STRING,
  PENDING,
  RUNNING,
  slotOf,
  TILE_COLS,
  TILE_ROWS,
  TILES_ACROSS,
  type FormulaCell,
  type Tile,
} from "../cells/grid.ts";

/** The cell values formulas read, from the book's grids. */
export class Calculator implements EvalContext {
  sid = 0;
  row = 0;
  col = 0;
  readonly now: number;
  /** Cells found in a circular reference during this run. */
  readonly circular = new Set<FormulaCell>();
  current: FormulaCell | null = null;
  frame: Frame | null = null;
  depth = 0;
  /** Range copies and criteria matches of this run; dropped whenever a cell changes during it. */
  readonly ranges: RangeCache;

  constructor(
    private readonly book: Book,
    private readonly meter: Meter,
  ) {
    this.now = serialFromInstant(book.now());
    this.ranges = new RangeCache(book, meter);
  }

  value(sid: number, row: number, col: number): Scalar {
    const tile = this.book.sheetById(sid)?.grid.tiles.get(Math.floor(row / TILE_ROWS) * TILES_ACROSS + Math.floor(col / TILE_COLS));
    return tile ? this.slotValue(tile, (row % TILE_ROWS) * TILE_COLS + (col % TILE_COLS), row, col) : null;
  }

  /** A cell's value; a formula not computed yet is computed first, or is a circular reference. */
  private slotValue(tile: Tile, slot: number, row: number, col: number): Scalar {
    const value = peek(tile, slot, row, col);
    return value !== undefined ? value : this.waiting(waitingCell(tile, slot));
  }

  /** A formula not computed yet: computed first (DIRTY), or a circular reference (it waits, directly or not, for the reader). */
  private waiting(cell: FormulaCell): Scalar {
    if (cell.state === DIRTY) throw new NeedCell(cell);
    if (this.current) this.circular.add(this.current);
    this.circular.add(cell);
    return ERR.REF;
  }

  /** The part of `range` inside its sheet's used area (it may be empty), with the sheet's tiles; null when the sheet has no cells or is gone. */
  private clipped(range: RangeValue): (Box & { tiles: Map<number, Tile> }) | null {
    const grid = this.book.sheetById(range.sid)?.grid;
    const used = grid?.used();
    if (!grid || !used) return null;
    return {
      tiles: grid.tiles,
      top: Math.max(range.top, used.top),
      bottom: Math.min(range.bottom, used.bottom),
      left: Math.max(range.left, used.left),
      right: Math.min(range.right, used.right),
    };
  }

  forEach(range: RangeValue, fn: (value: Scalar, row: number, col: number) => boolean | void): void {
    const area = this.clipped(range);
    if (!area) return;
    const { tiles, top, bottom, left, right } = area;
    if (top > bottom || left > right) return;
    const firstTileCol = Math.floor(left / TILE_COLS);
    const lastTileCol = Math.floor(right / TILE_COLS);
    const bandTiles: (Tile | undefined)[] = [];
    let visited = 0;
    for (let band = Math.floor(top / TILE_ROWS); band <= Math.floor(bottom / TILE_ROWS); band++) {
      let any = false;
      for (let tc = firstTileCol; tc <= lastTileCol; tc++)
        any = !!(bandTiles[tc - firstTileCol] = tiles.get(band * TILES_ACROSS + tc)) || any;
      if (!any) continue;
      const rowEnd = Math.min(bottom, band * TILE_ROWS + TILE_ROWS - 1);
      for (let r = Math.max(top, band * TILE_ROWS); r <= rowEnd; r++) {
        for (let tc = firstTileCol; tc <= lastTileCol; tc++) {
          const tile = bandTiles[tc - firstTileCol];
          if (!tile) continue;
          const cEnd = Math.min(right, tc * TILE_COLS + TILE_COLS - 1);
          for (let c = Math.max(left, tc * TILE_COLS); c <= cEnd; c++) {
            const slot = slotOf(r, c);
            if (tile.kinds[slot] === K_EMPTY) continue;
            visited++;
            if (fn(this.slotValue(tile, slot, r, c), r, c) === false) return void this.meter.charge(visited);
          }
        }
        // Row by row, so a walk whose callback is costly still meets the clock.
        this.meter.charge(visited);
        visited = 0;
      }
    }
  }

  totals(range: RangeValue, totals: Totals): void {
    const area = this.clipped(range);
    if (!area) return;
    const { tiles, top, bottom, left, right } = area;
    // Tile by tile: order does not matter to a sum, and each tile is looked up once.
    for (let band = Math.floor(top / TILE_ROWS); band <= Math.floor(bottom / TILE_ROWS); band++) {
      const r0 = Math.max(top, band * TILE_ROWS) - band * TILE_ROWS;
      const r1 = Math.min(bottom, band * TILE_ROWS + TILE_ROWS - 1) - band * TILE_ROWS;
      for (let tc = Math.floor(left / TILE_COLS); tc <= Math.floor(right / TILE_COLS); tc++) {
        const tile = tiles.get(band * TILES_ACROSS + tc);
        if (!tile) continue;
        const c0 = Math.max(left, tc * TILE_COLS) - tc * TILE_COLS;
        const c1 = Math.min(right, tc * TILE_COLS + TILE_COLS - 1) - tc * TILE_COLS;
        this.meter.charge((r1 - r0 + 1) * (c1 - c0 + 1));
        this.tileTotals(tile, band * TILE_ROWS + r0, band * TILE_ROWS + r1, tc * TILE_COLS + c0, tc * TILE_COLS + c1, totals);
      }
    }
  }

  /** Totals of a tile's cells from (top, left) to (bottom, right), sheet coordinates. */
  private tileTotals(tile: Tile, top: number, bottom: number, left: number, right: number, t: Totals): void {
    const r0 = top % TILE_ROWS;
    const r1 = bottom % TILE_ROWS;
    const c0 = left % TILE_COLS;
    const c1 = right % TILE_COLS;
    const { kinds, nums } = tile;
    for (let r = r0; r <= r1; r++) {
      const base = r * TILE_COLS;
      for (let slot = base + c0; slot <= base + c1; slot++) {
        const kind = kinds[slot];
        let n: number;
        if (kind === K_NUMBER) n = nums[slot] as number;
        else if (kind === K_EMPTY || kind === K_STRING || kind === K_BOOLEAN) continue;
        else {
          const v = this.slotValue(tile, slot, top - r0 + r, left - c0 + slot - base);
          if (typeof v !== "number") {
            if (v !== null && typeof v === "object") t.error ??= v;
            continue;
          }
          n = v;
        }
        t.sum += n;
        t.count++;
        if (n < t.min) t.min = n;
        if (n > t.max) t.max = n;
      }
    }
  }

  snapshot(range: RangeValue): Snapshot | null {
    return this.ranges.snapshot(range);
  }

  matches(range: RangeValue, key: string, test: Criterion): { snapshot: Snapshot; offsets: number[] } | null {
    return this.ranges.matches(range, key, test);
  }

  remember<T>(key: string, make: () => T): T {
    return this.ranges.remember(key, make);
  }

  exactIndex(range: RangeValue): ExactIndex | null {
    return this.ranges.exactIndex(range);
  }

  used(sid: number): Box | null {
    return this.book.sheetById(sid)?.grid.used() ?? null;
  }

  sheetId(name: string): number {
    try {
      return this.book.sheet(name).sid;
    } catch {
      return -1;
    }
  }

  step(count: number): void {
    this.meter.charge(count);
  }

  cells(count: number): void {
    this.meter.array(count);
  }

  reference(text: string, a1: boolean): RangeValue | FormulaError {
    return indirectReference(this.book, text, a1, this);
  }

  spillRange(sid: number, row: number, col: number): RangeValue | FormulaError {
    const tile = this.book.sheetById(sid)?.grid.tile(row, col);
    const cell = tile?.formulas?.get((row % TILE_ROWS) * TILE_COLS + (col % TILE_COLS));
    if (!cell) return ERR.REF;
    if (cell.state !== CLEAN) return this.waiting(cell) as FormulaError;
    if (cell.spill?.blocked) return ERR.SPILL;
    const box = cell.spill ? spillBox(cell, cell.spill) : { top: row, left: col, bottom: row, right: col };
    return new RangeValue(sid, box.top, box.left, box.bottom, box.right);
  }

  isSubtotal(sid: number, row: number, col: number): boolean {
    const tile = this.book.sheetById(sid)?.grid.tiles.get(Math.floor(row / TILE_ROWS) * TILES_ACROSS + Math.floor(col / TILE_COLS));
    return tile?.formulas?.get(slotOf(row, col))?.program.subtotal === true;
  }

  formulaText(sid: number, row: number, col: number): string | null {
    return this.book.sheetById(sid)?.grid.tile(row, col)?.formulas?.get(slotOf(row, col))?.text ?? null;
  }

  sheetPosition(sid: number): number {
    return this.book.sheets.findIndex((s) => s.sid === sid) + 1;
  }

  sheetCount(): number {
    return this.book.sheets.length;
  }

  /** Computes one formula cell for this context; NeedCell escapes when it reads one not yet computed. */
  compute(cell: FormulaCell): Scalar | ArrayValue {
    this.sid = cell.sid;
    this.row = cell.row;
    this.col = cell.col;
    this.current = cell;
    this.frame = null;
    this.depth = 0;
    this.meter.charge(1);
    return cellResult(cell.program.run(this), this);
  }
}

/** Places an array result (or clears a former one); what its cells' change makes dirty goes on the stack. */
function spill(calc: Calculator, book: Book, cell: FormulaCell, result: Scalar | ArrayValue, stack: FormulaCell[], meter: Meter): Scalar {
  const placed = placeResult(book, cell, result);
  if (cell.spill) meter.charge(cell.spill.rows * cell.spill.cols);
  if (placed.changed.length > 0) {
    // Cells changed (and computed ones may turn dirty): what the run cached from them is stale.
    calc.ranges.forget();
    const dirty = book.graph.markDependents(placed.changed);
    for (let i = dirty.length - 1; i >= 0; i--) stack.push(dirty[i] as FormulaCell);
  }
  return placed.value;
}

const same = (a: Scalar, b: Scalar) => a === b || (typeof a === "number" && typeof b === "number" && Number.isNaN(a) && Number.isNaN(b));

/**
 * Computes what the changes since the last run require; returns how many formula cells were
 * computed. Warnings for circular references go to book.warnings.
 */
export function recalculate(book: Book, meter: Meter): number {
  const leave = enterJob(meter);
  try {
    return recalculateAll(book, meter);
  } finally {
    leave();
  }
}

function recalculateAll(book: Book, meter: Meter): number {
  const calc = new Calculator(book, meter);
  const changed = book.changed;
  const order: FormulaCell[] = [...book.fresh];
  // Every formula is fresh (a load): all are computed, and no computed one is left to mark again.
  const all = book.noneComputed;
  book.noneComputed = false;
  if (!all) {
    for (const cell of book.volatile) {
      if (cell.state === CLEAN) {
        cell.state = DIRTY;
        order.push(cell);
      }
      changed.push(cell);
    }
    for (const cell of book.fresh) changed.push(cell);
    for (const cell of book.graph.markDependents(changed)) order.push(cell);
  }
  book.changed = [];
  book.fresh = [];
  const stack = order.reverse();
  let computed = 0;
  while (stack.length > 0) {
    const cell = stack[stack.length - 1] as FormulaCell;
    if (cell.state === CLEAN) {
      stack.pop();
      continue;
    }
    cell.state = RUNNING;
    let result: Scalar | ArrayValue;
    try {
      result = calc.compute(cell);
    } catch (error) {
      if (!(error instanceof NeedCell)) throw error;
      cell.state = PENDING;
      stack.push(error.cell as FormulaCell);
      continue;
    }
    stack.pop();
    cell.state = CLEAN;
    computed++;
    const value = Array.isArray(result) || cell.spill || cell.fixed ? spill(calc, book, cell, result, stack, meter) : (result as Scalar);
    if (!same(cell.value, value)) {
      cell.value = value;
      book.dirt.markValue(cell.sid, cell.row, cell.col);
    }
  }
  for (const cell of calc.circular)
    book.warnings.add(`${book.where(cell.sid, cell.row, cell.col)} is part of a circular reference; it shows #REF!.`);
  return computed;
}
