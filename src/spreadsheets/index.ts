// The spreadsheet engine's public face, for the service layer (which runs it in a worker thread).
export { Workbook, type NewSheet, type WorkbookOptions, type WriteResult } from "./workbook/workbook.ts";
export type { Budget } from "./formula/budget.ts";
export { editOperationSchema, type EditOperation } from "./workbook/edits.ts";
export type { AppendInput } from "./workbook/write.ts";
export type { ReadOptions, ReadResult, SheetDescription } from "./workbook/read.ts";
export { SheetsError, isSheetsError, type SheetsErrorCode, type SheetsErrorDetails } from "./cells/errors.ts";
export { parseRange, clipRange, formatRange, quoteSheetName, sheetNameProblem, type A1Range, type Box } from "./cells/a1.ts";
export {
  parseInput,
  renderCell,
  renderValue,
  type InputMode,
  type RenderMode,
  type JsonCellInput,
  type JsonCellValue,
} from "./workbook/values.ts";
export { serialFrom1904, isoFromSerial, serialFromIso, OFFSET_1904 } from "./cells/dates.ts";
export { dateKindOf } from "./cells/formats.ts";
export { toXlsxFormula } from "./formula/xlsx.ts";
export { DEFAULT_MAX_CELLS } from "./workbook/book.ts";
export { WARNING_CODES, type WarningCode, type WorkbookWarning, type CellDifference, type RawValue } from "./report/types.ts";
export { saveTiles, loadTiles, dirtyTiles, type SavedTiles } from "./tiles/tiles.ts";
export { readTiles, tilesForRead } from "./tiles/tile-read.ts";
export { encodeManifest, decodeManifest, tileHash, type Manifest, type ManifestSheet } from "./tiles/manifest.ts";
export { TILE_ROWS, TILE_COLS } from "./cells/grid.ts";
export * from "./cells/types.ts";
export * from "./cells/cells.ts";
