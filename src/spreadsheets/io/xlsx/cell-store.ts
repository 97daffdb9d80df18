// A sheet's cells as read, held compactly until the workbook is consumed: parallel typed arrays
// (~27 bytes a cell, no object per cell) instead of a Cell object each, so a million cells cost
// tens of MB, not hundreds. rows() builds Cell objects one row at a time, in ascending order, and
// expands shared formulas for each cell only then (./shared-formulas.ts).
import type { Budget } from "../../../ooxml/index.ts";
import type { Cell, CellValue, ErrorValue, SheetRow } from "../../cells/types.ts";
import { ERROR_VALUES } from "../../cells/types.ts";
import { shiftFormula } from "./shared-formulas.ts";

export const enum Kind {
  Empty = 0,
  Number = 1,
  SharedString = 2,
  LocalString = 3,
  Boolean = 4,
  Error = 5,
}

/** A formula as written on its anchor cell; a shared one is shifted for the other cells of its group. */
export interface FormulaEntry {
  text: string;
  row: number;
  column: number;
  shared: boolean;
  /** Saved as a dynamic-array formula (its cell metadata says so). */
  dynamic: boolean;
  /** An array formula's range, from its cell: "A1:C3". */
  array?: string;
}

/** What the store needs of the workbook to build cells. */
export interface CellContext {
  sharedStrings: readonly string[];
  /** The number format of a style index (undefined: General). */
  format(style: number): string | undefined;
}

const BYTES_PER_CELL = 4 + 2 + 1 + 8 + 4 + 2;

export class CellStore {
  count = 0;
  private rows = new Int32Array(256);
  private columns = new Uint16Array(256);
  private kinds = new Uint8Array(256);
  private values = new Float64Array(256);
  private formulaIds = new Int32Array(256);
  private formatIds = new Uint16Array(256);
  private readonly strings: string[] = [];
  private readonly formulas: FormulaEntry[] = [];
  private ordered = true;

  constructor(private readonly budget: Budget) {
    budget.hold(256 * BYTES_PER_CELL);
  }

  /** A string kept by this sheet (inline strings, formula string results); returns its index. */
  addString(text: string): number {
    this.budget.hold(text.length * 2 + 16);
    return this.strings.push(text) - 1;
  }

  addFormula(entry: FormulaEntry): number {
    this.budget.hold(entry.text.length * 2 + 48);
    return this.formulas.push(entry) - 1;
  }

  add(row: number, column: number, kind: Kind, value: number, formula: number, format: number): void {
    if (this.count === this.rows.length) this.grow();
    const i = this.count++;
    if (i > 0 && (row < this.rows[i - 1]! || (row === this.rows[i - 1]! && column <= this.columns[i - 1]!))) this.ordered = false;
    this.rows[i] = row;
    this.columns[i] = column;
    this.kinds[i] = kind;
    this.values[i] = value;
    this.formulaIds[i] = formula;
    this.formatIds[i] = format;
  }

  private grow(): void {
    const size = this.rows.length * 2;
    this.budget.hold((size - this.rows.length) * BYTES_PER_CELL);
    const grow = <T extends Int32Array | Uint16Array | Uint8Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.rows = grow(this.rows, (n) => new Int32Array(n));
    this.columns = grow(this.columns, (n) => new Uint16Array(n));
    this.kinds = grow(this.kinds, (n) => new Uint8Array(n));
    this.values = grow(this.values, (n) => new Float64Array(n));
    this.formulaIds = grow(this.formulaIds, (n) => new Int32Array(n));
    this.formatIds = grow(this.formatIds, (n) => new Uint16Array(n));
  }

  /** Cell positions in (row, column) order; the last of two cells at one position wins. */
  private order(): Int32Array {
    const order = new Int32Array(this.count);
    for (let i = 0; i < this.count; i++) order[i] = i;
    if (this.ordered) return order;
    return order.sort((a, b) => this.rows[a]! - this.rows[b]! || this.columns[a]! - this.columns[b]! || a - b);
  }

  private value(i: number, context: CellContext): CellValue {
    const v = this.values[i]!;
    switch (this.kinds[i] as Kind) {
      case Kind.Number:
        return v;
      case Kind.SharedString:
        return context.sharedStrings[v]!;
      case Kind.LocalString:
        return this.strings[v]!;
      case Kind.Boolean:
        return v !== 0;
      case Kind.Error:
        return { error: ERROR_VALUES[v] as ErrorValue };
      default:
        return null;
    }
  }

  private cell(i: number, context: CellContext): Cell {
    const cell: Cell = { value: this.value(i, context) };
    const f = this.formulaIds[i]!;
    if (f >= 0) {
      const entry = this.formulas[f]!;
      const row = this.rows[i]!;
      const column = this.columns[i]!;
      const anchor = row === entry.row && column === entry.column;
      cell.formula = entry.shared && !anchor ? shiftFormula(entry, row, column) : entry.text;
      if (entry.array !== undefined && anchor) cell.array = { ref: entry.array, dynamic: entry.dynamic };
      // Saved without dynamic arrays (and not an array formula, whose cells are computed as arrays).
      else if (!entry.dynamic) cell.legacy = true;
    }
    const format = context.format(this.formatIds[i]!);
    if (format !== undefined) cell.numFmt = format;
    return cell;
  }

  /** The formula cells with the value the writer saved for each (null: none), in the order read. */
  *formulaValuesOf(context: CellContext): Generator<readonly [row: number, column: number, value: CellValue]> {
    for (let i = 0; i < this.count; i++) if (this.formulaIds[i]! >= 0) yield [this.rows[i]!, this.columns[i]!, this.value(i, context)];
  }

  /** The sheet's rows in ascending order, each built when it is reached. */
  *rowsOf(context: CellContext): Generator<SheetRow> {
    const order = this.order();
    let at = 0;
    while (at < order.length) {
      const row = this.rows[order[at]!]!;
      const cells: (Cell | undefined)[] = [];
      for (; at < order.length && this.rows[order[at]!] === row; at++) {
        const i = order[at]!;
        cells[this.columns[i]!] = this.cell(i, context);
      }
      yield [row, cells];
    }
  }
}
