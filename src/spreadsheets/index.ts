// The spreadsheet engine's public face, for the service layer (which runs it in a worker thread).
export { Workbook, type NewSheet, type WorkbookOptions, type WriteResult } from "./model.ts";
export type { Budget } from "./budget.ts";
export { editOperationSchema, type EditOperation } from "./edits.ts";
export type { AppendInput } from "./write.ts";
export type { ReadOptions, ReadResult, SheetDescription } from "./read.ts";
export { SheetsError, isSheetsError, type SheetsErrorCode, type SheetsErrorDetails } from "./errors.ts";
export { parseRange, clipRange, formatRange, quoteSheetName, sheetNameProblem, type A1Range, type Box } from "./a1.ts";
export { parseInput, renderCell, renderValue, type InputMode, type RenderMode, type JsonCellInput, type JsonCellValue } from "./values.ts";
export { serialFrom1904, isoFromSerial, serialFromIso, OFFSET_1904 } from "./dates.ts";
export { dateKindOf } from "./formats.ts";
export { toXlsxFormula } from "./formula/xlsx.ts";
export { DEFAULT_MAX_CELLS } from "./book.ts";
export { saveTiles, loadTiles, dirtyTiles, type SavedTiles } from "./tiles.ts";
export { readTiles, tilesForRead } from "./tile-read.ts";
export { encodeManifest, decodeManifest, tileHash, type Manifest, type ManifestSheet } from "./manifest.ts";
export { TILE_ROWS, TILE_COLS } from "./grid.ts";
export * from "./types.ts";
export * from "./cells.ts";
