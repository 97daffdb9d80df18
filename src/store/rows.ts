// Row shapes both SQL stores read back, and their mapping to records: the two schemas name
// their columns alike (snake_case for the fields' camelCase), so one mapping serves SQLite and
// PostgreSQL, with a conversion where a value needs one.
import type { DocumentRecord, ShareRecord, ShareTarget, SheetSummary, VersionRecord, WorkbookContent, WorkbookRecord } from "./types.ts";
import type { WorkbookVersionRecord } from "./types.ts";

/** A row's columns as a record's fields, each through its conversion when it has one. */
export function rowMapper<R>(columns: string, convert: Record<string, (value: never) => unknown> = {}): (row: object) => R {
  const fields = columns.split(", ").map((column) => [column, column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] as const);
  return (row) => {
    const record: Record<string, unknown> = {};
    for (const [column, field] of fields) {
      const value = (row as Record<string, unknown>)[column];
      record[field] = convert[column] ? convert[column](value as never) : value;
    }
    return record as R;
  };
}

/** A kind's summary columns (never its content's bytes) and its versions' columns, around its own (`own`). */
const itemColumns = (own: string) => ({
  summary: `id, owner_id, name, created_at, updated_at, size_bytes, ${own}, version, updated_by, source, deleted_at`,
  version: `version, name, created_at, created_by, size_bytes, ${own}, source`,
});
const documentColumns = itemColumns("characters");
export const documentSummaryColumns = documentColumns.summary;

/** Columns qualified by a table alias (for joins). */
const qualified = (columns: string, alias: string): string =>
  columns
    .split(", ")
    .map((column) => `${alias}.${column}`)
    .join(", ");

/** The document summary columns, qualified by a table alias (for joins). */
export const documentSummaryColumnsOf = (alias: string): string => qualified(documentSummaryColumns, alias);

/** A row as a driver gives it back; an item's row has at least its id and owner. */
export type Row = Record<string, unknown>;
export type ItemRow = Row & { id: string; owner_id: string };

export const toDocument: (row: Row) => DocumentRecord = rowMapper(documentSummaryColumns);
export const versionSummaryColumns = documentColumns.version;
export const toVersion: (row: Row) => VersionRecord = rowMapper(versionSummaryColumns);

const workbookColumns = itemColumns("cells, sheets, manifest_hash");
export const workbookSummaryColumns = workbookColumns.summary;
export const workbookVersionColumns = workbookColumns.version;
/** Sizes and counts are numbers (PostgreSQL's bigints come back as strings); sheets are JSON text. */
const conversions = { size_bytes: Number, cells: Number, sheets: (text: string) => JSON.parse(text) as SheetSummary[] };
export const toWorkbook: (row: object) => WorkbookRecord = rowMapper(workbookSummaryColumns, conversions);
export const toWorkbookVersion: (row: object) => WorkbookVersionRecord = rowMapper(workbookVersionColumns, conversions);

/** A version's content as the workbook's content columns hold it. */
export const contentColumns = ({ sizeBytes, cells, sheets, manifestHash }: WorkbookContent) => ({
  size_bytes: sizeBytes,
  cells,
  sheets: JSON.stringify(sheets),
  manifest_hash: manifestHash,
});

export const shareColumns = "id, kind, target_id, owner_id, created_at, expires_at";

export const toShare: (row: object) => ShareRecord = rowMapper(shareColumns);

/** `alias.column AS prefix_column` for each column (a join that reads two tables' rows side by side). */
export const prefixedColumns = (columns: string, alias: string, prefix: string): string =>
  columns
    .split(", ")
    .map((column) => `${alias}.${column} AS ${prefix}${column}`)
    .join(", ");

/** The columns of a row that start with `prefix`, without it. */
export function unprefixed<T>(row: Record<string, unknown>, prefix: string): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) if (key.startsWith(prefix)) out[key.slice(prefix.length)] = value;
  return out as T;
}

/**
 * A valid share by token hash and its live target, in one statement on either database
 * (`token` and `now` are the placeholders): the target's columns come prefixed d_ or w_.
 */
export const findShareSql = (token: string, now: string): string =>
  `SELECT ${prefixedColumns(shareColumns, "s", "s_")}, ${prefixedColumns(documentSummaryColumns, "d", "d_")},
     ${prefixedColumns(workbookSummaryColumns, "w", "w_")}
   FROM shares s
     LEFT JOIN documents d ON s.kind = 'document' AND d.id = s.target_id AND d.owner_id = s.owner_id AND d.deleted_at IS NULL
     LEFT JOIN workbooks w ON s.kind = 'workbook' AND w.id = s.target_id AND w.owner_id = s.owner_id AND w.deleted_at IS NULL
   WHERE s.token_hash = ${token} AND s.expires_at > ${now}`;

/** findShareSql's row as the store answers it; null when its target is not live. */
export function toFoundShare(row: Record<string, unknown>): { share: ShareRecord; target: ShareTarget } | null {
  const share = toShare(unprefixed<Row>(row, "s_"));
  if (share.kind === "document" && row["d_id"] != null) {
    return { share, target: { kind: "document", record: toDocument(unprefixed<Row>(row, "d_")) } };
  }
  if (share.kind === "workbook" && row["w_id"] != null) {
    return { share, target: { kind: "workbook", record: toWorkbook(unprefixed<Row>(row, "w_")) } };
  }
  return null;
}

/** A Uint8Array view of a driver's Buffer, without a copy. */
export const bytesOf = (buffer: Buffer): Uint8Array => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
export const toBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
