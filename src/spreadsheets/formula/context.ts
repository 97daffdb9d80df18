// What a compiled formula needs from the workbook while it runs. The model implements it; the
// functions see only this, so they never touch the grid.
import type { Box } from "../cells/a1.ts";
import type { Criterion } from "./criteria.ts";
import type { ExactIndex } from "./exact-index.ts";
import type { FormulaError, Frame, RangeValue, Scalar } from "./values.ts";

/** Running totals over the numbers of ranges (SUM, AVERAGE, MIN, MAX); the first error met is kept. */
export interface Totals {
  sum: number;
  count: number;
  min: number;
  max: number;
  error: FormulaError | null;
}

/** A range's values within its sheet's used area, row-major from the range's top-left: `width` × `height` (beyond them all empty). */
export interface Snapshot {
  width: number;
  height: number;
  values: Scalar[];
}

/** The value at offsets (dr, dc) of the range a snapshot copies. */
export const snapshotAt = (s: Snapshot, dr: number, dc: number): Scalar =>
  dr < s.height && dc < s.width ? (s.values[dr * s.width + dc] as Scalar) : null;

export const newTotals = (): Totals => ({ sum: 0, count: 0, min: Infinity, max: -Infinity, error: null });

export interface EvalContext {
  /** The cell being computed: its sheet id, 0-based row and column. */
  sid: number;
  row: number;
  col: number;
  /** TODAY()/NOW(): the serial of this recalculation's instant. */
  readonly now: number;
  /** One cell's value (null when empty); throws NeedCell for a formula cell not yet computed. */
  value(sid: number, row: number, col: number): Scalar;
  /**
   * Calls `fn` for every non-empty cell of the range within the sheet's used range, row by row.
   * `fn` returning false stops the walk.
   */
  forEach(range: RangeValue, fn: (value: Scalar, row: number, col: number) => boolean | void): void;
  /** Adds the range's numbers to `totals` (text, booleans and empty cells skipped): the hot path of SUM and its kin. */
  totals(range: RangeValue, totals: Totals): void;
  /**
   * Within one recalculation: the range's values copied once, or null when it is small, has
   * several areas, holds a formula not computed yet (the caller then reads cell by cell, meeting
   * NeedCell as before) or the run's cache is full. Charged when copied.
   */
  snapshot?(range: RangeValue): Snapshot | null;
  /**
   * Within one recalculation: the positions of the range's snapshot (offsets dr * width + dc,
   * ascending) whose value meets `test`; `key` names the criterion (equal keys, equal tests).
   * Null when the range has no snapshot.
   */
  matches?(range: RangeValue, key: string, test: Criterion): { snapshot: Snapshot; offsets: number[] } | null;
  /**
   * Within one recalculation: an index of a one-column or one-row range's values for exact
   * lookups, or null when the range has no snapshot. Charged its scan when made, a step a use.
   */
  exactIndex?(range: RangeValue): ExactIndex | null;
  /**
   * Within one recalculation: the value `make` gives for `key`, made once. Only for what depends
   * on snapshots alone (the run drops both together); a step a use after the first.
   */
  remember?<T>(key: string, make: () => T): T;
  /** The used rectangle of a sheet, or null when it has no cells. */
  used(sid: number): Box | null;
  /** Sheet id of a sheet name (case-insensitive), or -1. */
  sheetId(name: string): number;
  /** Charges computation against the job's budget; throws SheetsError BUDGET past it. */
  step(count: number): void;
  /**
   * An array of `count` cells is about to be made: throws SheetsError BUDGET past the bound on one
   * array's cells (SHEETS_MAX_ARRAY_CELLS) or when its cells would overrun the steps left, before
   * anything is allocated. The maker then charges the cells with `step` as it fills them.
   */
  cells(count: number): void;
  /** The LET/LAMBDA variables in scope (null outside any); set by the compiled LET and LAMBDA calls. */
  frame?: Frame | null;
  /** LAMBDA calls under way, for the recursion bound. */
  depth?: number;
  /** INDIRECT's text as a reference of this workbook (A1 or R1C1, a defined name, a table reference), or #REF!. */
  reference?(text: string, a1: boolean): RangeValue | FormulaError;
  /** The cells a dynamic array formula at (sid, row, col) spills into (A1#), or #REF! when it spills nothing. */
  spillRange?(sid: number, row: number, col: number): RangeValue | FormulaError;
  /** Whether a cell holds a formula calling SUBTOTAL or AGGREGATE (which those two skip, against double counting). */
  isSubtotal?(sid: number, row: number, col: number): boolean;
  /** A cell's formula without "=", or null when it holds none (ISFORMULA, FORMULATEXT, CELL). */
  formulaText?(sid: number, row: number, col: number): string | null;
  /** A sheet's 1-based position in the workbook, or 0 when there is none (SHEET). */
  sheetPosition?(sid: number): number;
  /** How many sheets the workbook has (SHEETS). */
  sheetCount?(): number;
}
