// Tables (Excel's ListObjects) of a workbook: a named rectangle of a sheet with a header row of
// column names, data rows and an optional totals row. Formulas reach them by structured references
// (formula/structured.ts). They come from .xlsx and go back into it with what the writer needs to
// write them as Excel did (style, autofilter, the totals row's functions); structure edits move and
// stretch them as Excel does.
import type { Box } from "../cells/a1.ts";
import type { TableRef } from "../formula/structured.ts";

/** The totals row's entry for a column, as .xlsx keeps it. */
export interface TableColumnTotals {
  /** "sum", "average", "count", "custom" … */
  fn?: string;
  label?: string;
}

/** A table as the model keeps it. */
export interface TableDef extends TableRef {
  /** The table's style (tableStyleInfo) as .xlsx keeps it, or null for none. */
  style: { name: string; firstColumn: boolean; lastColumn: boolean; rowStripes: boolean; columnStripes: boolean } | null;
  /** Whether the header row has filter buttons. */
  autoFilter: boolean;
  /** Per column, what its totals row shows (null when nothing is recorded). */
  totalsRow: (TableColumnTotals | null)[];
}

/** A table as WorkbookData carries it between the .xlsx reader, the model and the writer (the sheet is the one it is on). */
export type TableData = Omit<TableDef, "sid">;

export class Tables {
  private readonly list: TableDef[] = [];

  all(): readonly TableDef[] {
    return this.list;
  }

  byName(name: string): TableDef | null {
    const lower = name.toLowerCase();
    return this.list.find((t) => t.name.toLowerCase() === lower) ?? null;
  }

  at(sid: number, row: number, col: number): TableDef | null {
    for (const t of this.list)
      if (t.sid === sid && row >= t.box.top && row <= t.box.bottom && col >= t.box.left && col <= t.box.right) return t;
    return null;
  }

  onSheet(sid: number): TableDef[] {
    return this.list.filter((t) => t.sid === sid);
  }

  add(table: TableDef): void {
    this.list.push(table);
  }

  remove(table: TableDef): void {
    const i = this.list.indexOf(table);
    if (i >= 0) this.list.splice(i, 1);
  }

  dropSheet(sid: number): void {
    for (const t of this.onSheet(sid)) this.remove(t);
  }
}

/** Why a table cannot be added (a name taken, a bad box, columns that do not fit), or null. */
export function tableProblem(tables: Tables, table: TableDef): string | null {
  if (tables.byName(table.name)) return `a table named "${table.name}" already exists`;
  const { box } = table;
  if (box.top > box.bottom || box.left > box.right) return `table "${table.name}" has an empty range`;
  if (table.columns.length !== box.right - box.left + 1)
    return `table "${table.name}" names ${table.columns.length} columns for ${box.right - box.left + 1}`;
  if (box.bottom - box.top + 1 - table.header - table.totals < 1) return `table "${table.name}" has no data row`;
  return null;
}

/** New [first, last] of a span after `count` rows or columns are inserted (> 0) or deleted (< 0) at `at`; null when deleted whole. */
function shifted(first: number, last: number, at: number, count: number): [number, number] | null {
  if (count > 0) return [first >= at ? first + count : first, last >= at ? last + count : last];
  const end = at - count - 1;
  if (first >= at && last <= end) return null;
  const a = first < at ? first : first > end ? first + count : at;
  const b = last < at ? last : last > end ? last + count : at - 1;
  return [a, b];
}

/**
 * Moves a sheet's tables for inserted or deleted rows or columns, as Excel does: rows inserted
 * inside a table stretch it, a table whose rows are all deleted goes; columns inserted inside a
 * table become new columns ("Column1" …), deleted ones leave it.
 */
export function shiftTables(tables: Tables, sid: number, axis: "row" | "col", at: number, count: number): void {
  for (const t of tables.onSheet(sid)) {
    const [first, last] = axis === "row" ? [t.box.top, t.box.bottom] : [t.box.left, t.box.right];
    const span = shifted(first, last, at, count);
    if (!span) {
      tables.remove(t);
      continue;
    }
    if (axis === "row") {
      t.box = { ...t.box, top: span[0], bottom: span[1] };
      if (t.box.bottom - t.box.top + 1 - t.header - t.totals < 1) tables.remove(t);
      continue;
    }
    const box: Box = { ...t.box, left: span[0], right: span[1] };
    if (count > 0 && at > first && at <= last) {
      const names = new Set(t.columns.map((c) => c.toLowerCase()));
      const added: string[] = [];
      for (let n = 1; added.length < count; n++) if (!names.has(`column${n}`)) added.push(`Column${n}`);
      t.columns.splice(at - first, 0, ...added);
      t.totalsRow.splice(at - first, 0, ...added.map(() => null));
    } else if (count < 0) {
      const from = Math.max(at, first) - first;
      const to = Math.min(at - count - 1, last) - first;
      if (to >= from) {
        t.columns.splice(from, to - from + 1);
        t.totalsRow.splice(from, to - from + 1);
      }
    }
    t.box = box;
  }
}
