// What a workbook's report tells a caller (docs/spreadsheets-import.md "Warnings"): each thing the
// gateway did not do as the file's writer did, with how many cells and the first of them. The
// contract's zod schema (src/contract/spreadsheets.ts) describes the same shape at the edge.
import type { CellError } from "../cells/types.ts";

export const WARNING_CODES = [
  "VALUE_DIFFERS",
  "UNSUPPORTED_FUNCTION",
  "UNKNOWN_NAME",
  "NOT_COMPUTED",
  "EXTERNAL_LINK",
  "FORMULA_REFUSED",
  "DATA_TABLE",
  "NOT_CHECKED",
  "NOT_KEPT",
] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

/** A cell's value with no number format applied (render=raw): what the writer saved, what the gateway computed. */
export type RawValue = string | number | boolean | null | CellError;

export interface CellDifference {
  /** "Sheet1!B2". */
  cell: string;
  /** The formula, "=…". */
  formula: string;
  /** The value the file's writer saved for the cell. */
  expected: RawValue;
  /** The value the gateway computes. */
  got: RawValue;
}

export interface WorkbookWarning {
  code: WarningCode;
  /** One sentence a person or an agent can act on. */
  message: string;
  /** Cells concerned (for NOT_KEPT: the parts or items of the file). */
  count: number;
  /** The first cells concerned ("Sheet1!B2"), at most FIRST_CELLS of them. */
  cells: string[];
  /** UNSUPPORTED_FUNCTION: the function's name. */
  function?: string;
  /** UNKNOWN_NAME: the name. */
  name?: string;
  /** NOT_KEPT: what was not kept (charts, pivotTables, comments…). */
  feature?: string;
  /** VALUE_DIFFERS: formula cells compared with the values the file's writer saved. */
  checked?: number;
  /** VALUE_DIFFERS: the first differences, each with both values. */
  differences?: CellDifference[];
  /** EXTERNAL_LINK: the other workbooks the file links to, as it names them. */
  links?: string[];
}

/** First cells a warning lists. */
export const FIRST_CELLS = 5;
/** Differences VALUE_DIFFERS lists with both values. */
export const FIRST_DIFFERENCES = 10;

/**
 * What the .xlsx reader saw in the package that the workbook does not keep, or keeps only as
 * values: counted by the reader, turned into warnings by ./facts.ts.
 */
export interface ImportFacts {
  /** Parts of the package the gateway does not keep, by feature (charts, pivotTables…): how many. */
  parts: Record<string, number>;
  /** Items inside worksheets the gateway does not keep (conditionalFormatting, dataValidation, mergedCells, hyperlinks). */
  sheetItems: Record<string, number>;
  /** The other workbooks the file links to, in the order its formulas number them ([1], [2]…). */
  externalLinks: string[];
  /** Chartsheets and dialog sheets, by name: not imported. */
  skippedSheets: string[];
  /** What-if data tables: their ranges, and how many. */
  dataTables: { count: number; ranges: string[] };
}

export const noFacts = (): ImportFacts => ({
  parts: {},
  sheetItems: {},
  externalLinks: [],
  skippedSheets: [],
  dataTables: { count: 0, ranges: [] },
});
