// Who reads whom: for each cell, the formula cells that depend on it. Single-cell references go in
// a hash map; a range is kept once with the formulas that read it (a column of lookups into one
// table shares one), indexed by each of its columns when up to WIDE columns wide (so a change in
// column B looks only at ranges over column B); wider ones are few and are scanned per sheet. What a
// formula reads is worked out from its Program's references when it is added and when removed (its
// Program and cell do not change while it is registered), so formulas keep no list of it.
import type { Box } from "../cells/a1.ts";
import { CLEAN, DIRTY, type FormulaCell } from "../cells/grid.ts";
import { lowerBound } from "../formula/lower-bound.ts";
import { NO_SHEET, OWN_SHEET, resolveRefInto } from "../formula/program.ts";

const WIDE = 32;
const COLS = 16_384;
const SHEET_SPAN = 17_179_869_184; // 2^34: rows × columns of one sheet

export const cellKey = (sid: number, row: number, col: number): number => sid * SHEET_SPAN + row * COLS + col;

/** The formulas reading a cell or range: one, or a set (most cells and ranges have one reader). */
type Readers = FormulaCell | Set<FormulaCell>;

interface RangeReaders {
  sid: number;
  box: Box;
  cells: Readers;
}

/** `readers` with `cell` among them. */
function joined(readers: Readers | undefined, cell: FormulaCell): Readers {
  if (readers === undefined || readers === cell) return cell;
  if (readers instanceof Set) return readers.add(cell);
  return new Set([readers, cell]);
}

/** `readers` without `cell`; undefined when none is left. */
function without(readers: Readers, cell: FormulaCell): Readers | undefined {
  if (readers === cell) return undefined;
  if (!(readers instanceof Set)) return readers;
  readers.delete(cell);
  return readers.size === 0 ? undefined : readers.size === 1 ? (readers.values().next().value as FormulaCell) : readers;
}

/** The box a reference resolves into: reused, as most are registered as a cell key or an existing range. */
const scratch: Box = { top: 0, left: 0, bottom: 0, right: 0 };

export class DependencyGraph {
  /**
   * Readers of single cells: by sheet and column, then by row (indices, not a key over the three:
   * such a key passes 2^31 and makes a number object at every lookup).
   */
  private readonly points = new Map<number, (Readers | undefined)[]>();
  private pointCount = 0;
  /** Ranges by their sheet and top-left cell: one, or several with different far corners. */
  private readonly ranges = new Map<number, RangeReaders | RangeReaders[]>();
  private readonly columns = new Map<number, Set<RangeReaders>>();
  private readonly wide = new Map<number, Set<RangeReaders>>();

  /** Whether no formula is registered. */
  get empty(): boolean {
    return this.pointCount === 0 && this.ranges.size === 0;
  }

  add(cell: FormulaCell): void {
    for (const spec of cell.program.refs) {
      if (spec.sid === NO_SHEET || !resolveRefInto(spec, cell.row, cell.col, scratch)) continue;
      const sid = spec.sid === OWN_SHEET ? cell.sid : spec.sid;
      if (scratch.top === scratch.bottom && scratch.left === scratch.right) {
        const key = sid * COLS + scratch.left;
        let column = this.points.get(key);
        if (!column) this.points.set(key, (column = []));
        const readers = column[scratch.top];
        if (readers === undefined) this.pointCount++;
        column[scratch.top] = joined(readers, cell);
        continue;
      }
      const range = this.range(sid, scratch);
      if (range) range.cells = joined(range.cells, cell);
      else this.addRange({ sid, box: { ...scratch }, cells: cell });
    }
  }

  remove(cell: FormulaCell): void {
    for (const spec of cell.program.refs) {
      if (spec.sid === NO_SHEET || !resolveRefInto(spec, cell.row, cell.col, scratch)) continue;
      const sid = spec.sid === OWN_SHEET ? cell.sid : spec.sid;
      if (scratch.top === scratch.bottom && scratch.left === scratch.right) {
        const column = this.points.get(sid * COLS + scratch.left);
        const readers = column?.[scratch.top];
        if (!column || readers === undefined) continue;
        const next = without(readers, cell);
        if (next === undefined) {
          column[scratch.top] = undefined;
          this.pointCount--;
        } else column[scratch.top] = next;
        continue;
      }
      const range = this.range(sid, scratch);
      if (!range) continue;
      const next = without(range.cells, cell);
      if (next === undefined) this.dropRange(range);
      else range.cells = next;
    }
  }

  clear(): void {
    this.points.clear();
    this.pointCount = 0;
    this.ranges.clear();
    this.columns.clear();
    this.wide.clear();
  }

  /** The range registered with this sheet and box, if any. */
  private range(sid: number, box: Box): RangeReaders | undefined {
    const at = this.ranges.get(cellKey(sid, box.top, box.left));
    if (at === undefined) return undefined;
    if (!Array.isArray(at)) return at.box.bottom === box.bottom && at.box.right === box.right ? at : undefined;
    return at.find((r) => r.box.bottom === box.bottom && r.box.right === box.right);
  }

  private addRange(range: RangeReaders): void {
    const { sid, box } = range;
    const key = cellKey(sid, box.top, box.left);
    const at = this.ranges.get(key);
    if (at === undefined) this.ranges.set(key, range);
    else if (Array.isArray(at)) at.push(range);
    else this.ranges.set(key, [at, range]);
    if (box.right - box.left + 1 > WIDE) bucket(this.wide, sid).add(range);
    else for (let c = box.left; c <= box.right; c++) bucket(this.columns, sid * COLS + c).add(range);
  }

  private dropRange(range: RangeReaders): void {
    const { sid, box } = range;
    const key = cellKey(sid, box.top, box.left);
    const at = this.ranges.get(key);
    if (at === range) this.ranges.delete(key);
    else if (Array.isArray(at)) {
      at.splice(at.indexOf(range), 1);
      if (at.length === 1) this.ranges.set(key, at[0] as RangeReaders);
    }
    if (box.right - box.left + 1 > WIDE) this.wide.get(sid)?.delete(range);
    else for (let c = box.left; c <= box.right; c++) this.columns.get(sid * COLS + c)?.delete(range);
  }

  /**
   * Marks DIRTY every formula cell that depends, directly or not, on the changed cells, and
   * returns them in the order they were reached (breadth first: a good evaluation order).
   */
  markDependents(changed: { sid: number; row: number; col: number }[]): FormulaCell[] {
    const order: FormulaCell[] = [];
    let frontier = changed;
    while (frontier.length > 0) {
      const next: FormulaCell[] = [];
      const mark = (cell: FormulaCell) => {
        if (cell.state !== CLEAN) return;
        cell.state = DIRTY;
        order.push(cell);
        next.push(cell);
      };
      for (const { sid, row, col } of frontier) {
        const hit = this.points.get(sid * COLS + col)?.[row];
        if (hit) markAll(hit, mark);
      }
      this.markRanges(frontier, mark);
      frontier = next;
    }
    return order;
  }

  private markRanges(frontier: { sid: number; row: number; col: number }[], mark: (cell: FormulaCell) => void): void {
    const rowsByColumn = new Map<number, number[]>();
    const sheets = new Map<number, { row: number; col: number }[]>();
    for (const { sid, row, col } of frontier) {
      const key = sid * COLS + col;
      if (this.columns.has(key)) {
        let rows = rowsByColumn.get(key);
        if (!rows) rowsByColumn.set(key, (rows = []));
        rows.push(row);
      }
      if (this.wide.has(sid)) {
        let cells = sheets.get(sid);
        if (!cells) sheets.set(sid, (cells = []));
        cells.push({ row, col });
      }
    }
    for (const [key, rows] of rowsByColumn) {
      rows.sort((a, b) => a - b);
      for (const range of this.columns.get(key) ?? []) if (anyWithin(rows, range.box.top, range.box.bottom)) markAll(range.cells, mark);
    }
    for (const [sid, cells] of sheets) {
      for (const range of this.wide.get(sid) ?? []) {
        const { top, left, bottom, right } = range.box;
        if (cells.some((c) => c.row >= top && c.row <= bottom && c.col >= left && c.col <= right)) markAll(range.cells, mark);
      }
    }
  }
}

function markAll(readers: Readers, mark: (cell: FormulaCell) => void): void {
  if (readers instanceof Set) readers.forEach(mark);
  else mark(readers);
}

function bucket<K>(map: Map<K, Set<RangeReaders>>, key: K): Set<RangeReaders> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}

/** Whether a sorted list holds a value within [low, high]. */
function anyWithin(sorted: number[], low: number, high: number): boolean {
  const lo = lowerBound(sorted, low);
  return lo < sorted.length && (sorted[lo] as number) <= high;
}
