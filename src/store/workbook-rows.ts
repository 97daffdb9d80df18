// Workbook row shapes both SQL stores read back, and their mapping to records (sheets are JSON
// text; PostgreSQL's bigint columns come back as strings).
import { rowMapper } from "./row-mapper.ts";
import { currentItemVersion } from "./types/items.ts";
import type { SheetSummary, WorkbookContent, WorkbookRecord, WorkbookVersionRecord } from "./types.ts";

export const workbookSummaryColumns =
  "id, owner_id, name, created_at, updated_at, version, updated_by, source, deleted_at, size_bytes, cells, sheets, manifest_hash";

/** Sizes and counts are numbers (PostgreSQL's bigints come back as strings); sheets are JSON text. */
const conversions = { size_bytes: Number, cells: Number, sheets: (text: string) => JSON.parse(text) as SheetSummary[] };

export const toWorkbook: (row: object) => WorkbookRecord = rowMapper(workbookSummaryColumns, conversions);

export const workbookVersionColumns = "version, name, created_at, created_by, source, size_bytes, cells, sheets, manifest_hash";

export const toWorkbookVersion: (row: object) => WorkbookVersionRecord = rowMapper(workbookVersionColumns, conversions);

/** A version's content as the workbook's content columns hold it. */
export const contentColumns = ({ sizeBytes, cells, sheets, manifestHash }: WorkbookContent) => ({
  size_bytes: sizeBytes,
  cells,
  sheets: JSON.stringify(sheets),
  manifest_hash: manifestHash,
});

/** The current version of a workbook, as its history lists it. */
export const currentWorkbookVersion = ({ cells, sheets, manifestHash, ...workbook }: WorkbookRecord): WorkbookVersionRecord =>
  currentItemVersion(workbook, { cells, sheets, manifestHash });

/** The ULID of an id (`doc_…`, `wb_…`): what orders ids of different kinds by creation. */
export const ulidOf = (id: string): string => id.slice(id.indexOf("_") + 1);
