// What an imported .xlsx may hold (docs/api.md "Spreadsheets": zip limits as for .docx, and a
// workbook's own limits), and the typed errors past them: 413 PAYLOAD_TOO_LARGE naming the limit.
import { PackageTooLarge, type PackageLimits } from "../../../ooxml/index.ts";
import { MAX_CELL_TEXT, MAX_SHEETS } from "../../cells/types.ts";

export interface XlsxLimits extends PackageLimits {
  /** Non-empty cells across the workbook (SHEETS_MAX_CELLS). */
  cells: number;
  /** Characters in one cell's text. */
  cellText: number;
  sheets: number;
}

export const XLSX_LIMITS: XlsxLimits = {
  entries: 10_000,
  expandedBytes: 200 * 1024 * 1024,
  // A workbook is all XML: every byte it expands to may be parsed.
  xmlBytes: 200 * 1024 * 1024,
  // Shared strings, the cell store (~27 bytes a cell) and formulas' text, held until the workbook is written.
  memoryBytes: 320 * 1024 * 1024,
  // A part inflating past its declared size stops there: a sheet declaring 1,000 bytes and
  // inflating 300 MB was inflated and parsed up to the 200 MB bound, 23-33 s (issue 37 F3).
  declaredSizes: "bound",
  cells: 2_000_000,
  cellText: MAX_CELL_TEXT,
  sheets: MAX_SHEETS,
};

export const tooManyCells = (limit: number): PackageTooLarge =>
  new PackageTooLarge("cells", `The .xlsx holds more than ${limit} non-empty cells`, { reason: "cells", limit });

export const cellTooLong = (limit: number, where: string): PackageTooLarge =>
  new PackageTooLarge("cell-text", `The .xlsx has a cell over ${limit} characters (${where})`, { reason: "cell_text", limit });

export const tooManySheets = (limit: number): PackageTooLarge =>
  new PackageTooLarge("sheets", `The .xlsx holds more than ${limit} sheets`, { reason: "sheets", limit });

export const tooManySharedStrings = (limit: number): PackageTooLarge =>
  new PackageTooLarge("cells", `The .xlsx holds more than ${limit} shared strings, more than the ${limit} cells a workbook may have`, {
    reason: "shared_strings",
    limit,
  });
