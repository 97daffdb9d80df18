// Caches of one recalculation for the COUNTIF family: a range's values copied once (a snapshot), and
// per (range, criterion) the positions that match. Hundreds of criteria formulas over the same long
// ranges then test each cell once per distinct criterion instead of once per formula. Only ranges
// whose every formula cell is already computed are cached, read without side effects, so a formula
// meets exactly the values, the NeedCell restarts and the circular references it met uncached; the
// owner drops everything when a cell changes mid-run (an array result spilling).
import type { Box } from "../cells/a1.ts";
import type { Book } from "./book.ts";
import type { Meter } from "../formula/budget.ts";
import type { Snapshot } from "../formula/context.ts";
import type { Criterion } from "../formula/criteria.ts";
import { ExactIndex } from "../formula/exact-index.ts";
import { errorFromCode, type RangeValue, type Scalar } from "../formula/values.ts";
import {
  CLEAN,
  K_BOOLEAN,
  K_EMPTY,
  K_ERROR,
  K_NUMBER,
  K_SPILL,
  K_STRING,
  TILE_COLS,
  TILE_ROWS,
  TILES_ACROSS,
  type FormulaCell,
  type Grid,
  type Tile,
} from "../cells/grid.ts";

/** Below this many cells a range is walked directly: copying it would cost more than it saves. */
const MIN_CELLS = 64;
/** Bounds on what one recalculation keeps (cells copied, positions listed), about 64 MB at most; past them it walks uncached. */
const MAX_SNAPSHOT_CELLS = 4_000_000;
const MAX_MATCH_POSITIONS = 4_000_000;

/** A cell's value without computing anything: undefined for a formula (or array cell) not computed yet. */
export function peek(tile: Tile, slot: number, row: number, col: number): Scalar | undefined {
  switch (tile.kinds[slot]) {
    case K_EMPTY:
      return null;
    case K_NUMBER:
      return tile.nums[slot] as number;
    case K_STRING:
      return tile.strs?.[slot] ?? "";
    case K_BOOLEAN:
      return tile.nums[slot] === 1;
    case K_ERROR:
      return errorFromCode(tile.nums[slot] as number);
    case K_SPILL: {
      const anchor = tile.spills?.get(slot);
      if (!anchor) return null;
      if (anchor.state !== CLEAN) return undefined;
      return anchor.spill?.values[row - anchor.row]?.[col - anchor.col] ?? null;
    }
    default: {
      const cell = tile.formulas?.get(slot);
      if (!cell) return null;
      return cell.state === CLEAN ? (cell.value ?? null) : undefined;
    }
  }
}

/** The formula cell (or array anchor) a slot `peek` answered undefined for waits on. */
export function waitingCell(tile: Tile, slot: number): FormulaCell {
  return (tile.kinds[slot] === K_SPILL ? tile.spills?.get(slot) : tile.formulas?.get(slot)) as FormulaCell;
}

const boxKey = (r: RangeValue) => `${r.sid}:${r.top}:${r.left}:${r.bottom}:${r.right}`;

export class RangeCache {
  private readonly snapshots = new Map<string, Snapshot>();
  /** Ranges found holding a formula not yet computed: not copied again while that cell waits. */
  private readonly blocked = new Map<string, FormulaCell>();
  private readonly positions = new Map<string, number[]>();
  private readonly indexes = new Map<string, ExactIndex>();
  private readonly kept = new Map<string, unknown>();
  private snapshotCells = 0;
  private positionCount = 0;

  constructor(
    private readonly book: Book,
    private readonly meter: Meter,
  ) {}

  /** Everything cached: a cell changed. */
  forget(): void {
    this.snapshots.clear();
    this.blocked.clear();
    this.positions.clear();
    this.indexes.clear();
    this.kept.clear();
    this.snapshotCells = 0;
    this.positionCount = 0;
  }

  snapshot(range: RangeValue): Snapshot | null {
    if (range.areas || range.rows * range.columns < MIN_CELLS) return null;
    const key = boxKey(range);
    const known = this.snapshots.get(key);
    if (known) return known;
    const waits = this.blocked.get(key);
    if (waits && waits.state !== CLEAN) return null;
    const grid = this.book.sheetById(range.sid)?.grid;
    const used = grid?.used();
    if (!grid || !used) return null;
    const height = Math.min(range.rows, used.bottom - range.top + 1);
    const width = Math.min(range.columns, used.right - range.left + 1);
    // Full: the callers read cell by cell, rather than copy a range for one use.
    if (height <= 0 || width <= 0 || this.snapshotCells + height * width > MAX_SNAPSHOT_CELLS) return null;
    const made = this.copy(grid, used, range, width, height);
    if ("state" in made) {
      this.blocked.set(key, made);
      return null;
    }
    this.blocked.delete(key);
    this.snapshotCells += made.values.length;
    this.snapshots.set(key, made);
    return made;
  }

  remember<T>(key: string, make: () => T): T {
    if (this.kept.has(key)) {
      this.meter.charge(1);
      return this.kept.get(key) as T;
    }
    const made = make();
    // Bounded as the positions are: one entry a distinct (ranges, criterion).
    if (this.kept.size < MAX_MATCH_POSITIONS / 64) this.kept.set(key, made);
    return made;
  }

  /** A one-column or one-row range's exact-lookup index (its snapshot's values in order). */
  exactIndex(range: RangeValue): ExactIndex | null {
    if (range.rows !== 1 && range.columns !== 1) return null;
    const key = boxKey(range);
    let index = this.indexes.get(key);
    if (!index) {
      const snapshot = this.snapshot(range);
      if (!snapshot) return null;
      index = new ExactIndex(snapshot.values);
      this.meter.charge(snapshot.values.length);
      this.indexes.set(key, index);
    }
    this.meter.charge(1);
    return index;
  }

  /**
   * The offsets (dr * width + dc into the range's snapshot, ascending: the walk's row-by-row order)
   * whose value meets `test`, which `key` names; null when the range is not cached. The scan is
   * charged once, when made; each use is charged its positions.
   */
  matches(range: RangeValue, key: string, test: Criterion): { snapshot: Snapshot; offsets: number[] } | null {
    const snapshot = this.snapshot(range);
    if (!snapshot) return null;
    const id = `${boxKey(range)}|${key}`;
    let offsets = this.positions.get(id);
    if (!offsets) {
      offsets = [];
      const { values } = snapshot;
      for (let i = 0; i < values.length; i++) if (test.test(values[i] as Scalar)) offsets.push(i);
      this.meter.charge(values.length);
      if (this.positionCount + offsets.length <= MAX_MATCH_POSITIONS) {
        this.positionCount += offsets.length;
        this.positions.set(id, offsets);
      }
    }
    this.meter.charge(offsets.length + 1);
    return { snapshot, offsets };
  }

  /** The range's first `height` × `width` values (its part within the used area), or the formula cell there not computed yet. */
  private copy(grid: Grid, used: Box, range: RangeValue, width: number, height: number): Snapshot | FormulaCell {
    const values = new Array<Scalar>(height * width).fill(null);
    const bottom = range.top + height - 1;
    const right = range.left + width - 1;
    const top = Math.max(range.top, used.top);
    const left = Math.max(range.left, used.left);
    for (let band = Math.floor(top / TILE_ROWS); band <= Math.floor(bottom / TILE_ROWS); band++) {
      const r0 = Math.max(top, band * TILE_ROWS);
      const r1 = Math.min(bottom, band * TILE_ROWS + TILE_ROWS - 1);
      for (let tc = Math.floor(left / TILE_COLS); tc <= Math.floor(right / TILE_COLS); tc++) {
        const tile = grid.tiles.get(band * TILES_ACROSS + tc);
        if (!tile) continue;
        const c0 = Math.max(left, tc * TILE_COLS);
        const c1 = Math.min(right, tc * TILE_COLS + TILE_COLS - 1);
        for (let r = r0; r <= r1; r++) {
          const base = (r % TILE_ROWS) * TILE_COLS;
          for (let c = c0; c <= c1; c++) {
            const v = peek(tile, base + (c % TILE_COLS), r, c);
            if (v === undefined) return waitingCell(tile, base + (c % TILE_COLS));
            values[(r - range.top) * width + (c - range.left)] = v;
          }
        }
        this.meter.charge((r1 - r0 + 1) * (c1 - c0 + 1));
      }
    }
    return { width, height, values };
  }
}
