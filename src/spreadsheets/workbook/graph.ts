// Who reads whom: for each cell, the formula cells that depend on it. Single-cell references go in
// a hash map; ranges up to WIDE columns wide are indexed by each of their columns (so a change in
// column B looks only at ranges over column B); wider ones are few and are scanned per sheet.
import type { Box } from "../cells/a1.ts";
import { CLEAN, DIRTY, type FormulaCell } from "../cells/grid.ts";

const WIDE = 32;
const COLS = 16_384;
const SHEET_SPAN = 17_179_869_184; // 2^34: rows × columns of one sheet

export const cellKey = (sid: number, row: number, col: number): number => sid * SHEET_SPAN + row * COLS + col;

interface RangeDep {
  sid: number;
  box: Box;
  cell: FormulaCell;
}

export class DependencyGraph {
  private readonly points = new Map<number, FormulaCell | Set<FormulaCell>>();
  private readonly columns = new Map<number, Set<RangeDep>>();
  private readonly wide = new Map<number, Set<RangeDep>>();
  private readonly ranges = new Map<FormulaCell, RangeDep[]>();

  /** Whether no formula is registered. */
  get empty(): boolean {
    return this.points.size === 0 && this.ranges.size === 0;
  }

  add(cell: FormulaCell): void {
    for (const { sid, box } of cell.deps) {
      if (box.top === box.bottom && box.left === box.right) {
        const key = cellKey(sid, box.top, box.left);
        const current = this.points.get(key);
        if (current === undefined) this.points.set(key, cell);
        else if (current instanceof Set) current.add(cell);
        else if (current !== cell) this.points.set(key, new Set([current, cell]));
        continue;
      }
      const dep: RangeDep = { sid, box, cell };
      let list = this.ranges.get(cell);
      if (!list) this.ranges.set(cell, (list = []));
      list.push(dep);
      if (box.right - box.left + 1 > WIDE) bucket(this.wide, sid).add(dep);
      else for (let c = box.left; c <= box.right; c++) bucket(this.columns, sid * COLS + c).add(dep);
    }
  }

  remove(cell: FormulaCell): void {
    for (const { sid, box } of cell.deps) {
      if (box.top !== box.bottom || box.left !== box.right) continue;
      const key = cellKey(sid, box.top, box.left);
      const current = this.points.get(key);
      if (current === cell) this.points.delete(key);
      else if (current instanceof Set) {
        current.delete(cell);
        if (current.size === 1) this.points.set(key, current.values().next().value as FormulaCell);
      }
    }
    for (const dep of this.ranges.get(cell) ?? []) {
      const { sid, box } = dep;
      if (box.right - box.left + 1 > WIDE) this.wide.get(sid)?.delete(dep);
      else for (let c = box.left; c <= box.right; c++) this.columns.get(sid * COLS + c)?.delete(dep);
    }
    this.ranges.delete(cell);
  }

  clear(): void {
    this.points.clear();
    this.columns.clear();
    this.wide.clear();
    this.ranges.clear();
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
        const hit = this.points.get(cellKey(sid, row, col));
        if (hit instanceof Set) hit.forEach(mark);
        else if (hit) mark(hit);
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
      for (const dep of this.columns.get(key) ?? [])
        if (dep.cell.state === CLEAN && anyWithin(rows, dep.box.top, dep.box.bottom)) mark(dep.cell);
    }
    for (const [sid, cells] of sheets) {
      for (const dep of this.wide.get(sid) ?? []) {
        if (dep.cell.state !== CLEAN) continue;
        const { top, left, bottom, right } = dep.box;
        if (cells.some((c) => c.row >= top && c.row <= bottom && c.col >= left && c.col <= right)) mark(dep.cell);
      }
    }
  }
}

function bucket<K>(map: Map<K, Set<RangeDep>>, key: K): Set<RangeDep> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}

/** Whether a sorted list holds a value within [low, high]. */
function anyWithin(sorted: number[], low: number, high: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < low) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && (sorted[lo] as number) <= high;
}
