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

/**
 * The fewest bytes of sheet XML a cell that refers to a shared string takes: `<c t="s"><v>0</v></c>`
 * is 21. A workbook's sheets can refer to no more distinct strings than their bytes over this.
 */
export const SHARED_STRING_CELL_BYTES = 20;

export const tooManySharedStrings = (limit: number, sheetBytes?: number): PackageTooLarge =>
  new PackageTooLarge(
    "cells",
    sheetBytes === undefined
      ? `The .xlsx holds more than ${limit} shared strings, more than the ${limit} cells a workbook may have`
      : `The .xlsx holds more than ${limit} shared strings, more than its sheets (${sheetBytes} bytes of XML) can refer to`,
    { reason: "shared_strings", limit },
  );

/**
 * How many shared strings a workbook may hold: no more than its cells may be, nor than its sheets'
 * XML can refer to (each such cell takes SHARED_STRING_CELL_BYTES at least; a sheet cannot inflate
 * past the size its zip directory declares). Unused strings past that are refused as soon as counted.
 */
export function sharedStringBound(cells: number, sheetSizes: readonly number[]): { limit: number; sheetBytes?: number } {
  const sheetBytes = sheetSizes.reduce((sum, size) => sum + size, 0);
  const referable = Math.floor(sheetBytes / SHARED_STRING_CELL_BYTES);
  return referable < cells ? { limit: referable, sheetBytes } : { limit: cells };
}
