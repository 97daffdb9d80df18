// The spreadsheet cell model as every part of src/spreadsheets/ sees it: the formula engine, the
// .xlsx/.csv readers and writers, and the store's tiles. Rows and columns are 0-based here
// (A1 is row 0, column 0); A1 notation is for what callers read and write (cells.ts, a1.ts).
import type { DefinedName } from "../workbook/names.ts";
import type { ImportFacts } from "../report/types.ts";
import type { TableData } from "../workbook/tables.ts";

/** The error values a cell can hold (Excel's spelling). */
export const ERROR_VALUES = ["#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#SPILL!", "#CALC!"] as const;
export type ErrorValue = (typeof ERROR_VALUES)[number];
export const isErrorValue = (text: string): text is ErrorValue => (ERROR_VALUES as readonly string[]).includes(text);

/** An error held by a cell. */
export interface CellError {
  error: ErrorValue;
}

/**
 * What a cell holds once computed. Dates and times are numbers (1900-system serials, as Excel
 * stores them) whose cell has a date number format; an empty cell is null.
 */
export type CellValue = number | string | boolean | CellError | null;

export interface Cell {
  /** The constant, or the formula's computed result. */
  value: CellValue;
  /** The formula without its leading "=", as .xlsx stores it: "SUM(B2:B9)". Absent for a constant. */
  formula?: string | undefined;
  /** The number format code ("yyyy-mm-dd", "0.00%"); absent means General. */
  numFmt?: string | undefined;
  /**
   * An array formula's range, on its cell (the range's top-left): "A1:C3" from the cell, and whether
   * it is a dynamic array (its result spills there) or a fixed array formula (CSE). The other cells
   * of the range carry only values.
   */
  array?: { ref: string; dynamic: boolean } | undefined;
  /** A formula read from a file that saved it without dynamic arrays: Excel intersected implicitly in it. */
  legacy?: boolean | undefined;
}

/** Limits of a worksheet, as Excel's (docs/api.md "Spreadsheets"). */
export const MAX_ROWS = 1_048_576;
export const MAX_COLUMNS = 16_384;
export const MAX_CELL_TEXT = 32_767;
export const MAX_SHEETS = 200;

/** One row of a sheet, streamed: its 0-based index and its cells by 0-based column (holes are empty cells). */
export type SheetRow = readonly [row: number, cells: readonly (Cell | undefined)[]];

/**
 * A sheet as the readers produce it and the writers consume it: rows in ascending order, each
 * row once, only rows with at least one non-empty cell.
 */
export interface SheetData {
  name: string;
  rows(): Iterable<SheetRow>;
  /** The sheet's tables (Excel ListObjects). */
  tables?: TableData[] | undefined;
  /**
   * An imported sheet's formula cells with the value the file's writer saved for each (null: none
   * saved), in any order; read again after the import is computed, to compare (report/import.ts).
   */
  formulaValues?(): Iterable<readonly [row: number, col: number, value: CellValue]>;
}

/** A workbook as the readers produce it and the writers consume it. */
export interface WorkbookData {
  sheets: SheetData[];
  /** Defined names, workbook-scoped (sheet null) and sheet-scoped, Excel's built-in ones (_xlnm.) included. */
  names?: DefinedName[] | undefined;
  /** Some formula is a dynamic array (Cell.array.dynamic): the .xlsx writer adds the cell metadata that marks them. */
  dynamicArrays?: boolean | undefined;
  /** What an imported package held that the workbook does not keep (the .xlsx reader's). */
  facts?: ImportFacts;
}
