// What a compiled formula needs from the workbook while it runs. The model implements it; the
// functions see only this, so they never touch the grid.
import type { Box } from "../a1.ts";
import type { RangeValue, Scalar } from "./values.ts";

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
  /** The used rectangle of a sheet, or null when it has no cells. */
  used(sid: number): Box | null;
  /** Sheet id of a sheet name (case-insensitive), or -1. */
  sheetId(name: string): number;
  /** Charges computation against the write's budget; throws SheetsError BUDGET past it. */
  step(count: number): void;
}
