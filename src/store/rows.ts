// Row shapes both SQL stores read back, and their mapping to records: the two schemas name
// their columns alike, so one mapping serves SQLite and PostgreSQL.
import type { DocumentRecord, ShareRecord, ShareTarget, VersionRecord } from "./types.ts";
import { rowMapper } from "./row-mapper.ts";
import { currentItemVersion } from "./types/items.ts";
import { toWorkbook, workbookSummaryColumns } from "./workbook-rows.ts";

/** The summary columns of the documents table (never the .docx, the text or the markdown). */
export const documentSummaryColumns =
  "id, owner_id, name, created_at, updated_at, size_bytes, characters, version, updated_by, source, deleted_at";

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

/** The columns of an earlier version, as a VersionRecord needs them. */
export const versionSummaryColumns = "version, name, created_at, created_by, size_bytes, characters, source";
export const versionSummaryColumnsOf = (alias: string): string => qualified(versionSummaryColumns, alias);

export const toVersion: (row: Row) => VersionRecord = rowMapper(versionSummaryColumns);

/** The current version of a document, as its history lists it. */
export const currentVersion = (document: DocumentRecord): VersionRecord =>
  currentItemVersion(document, { characters: document.characters });

export const shareColumns = "id, kind, target_id, owner_id, created_at, expires_at";

export interface ShareRow {
  id: string;
  kind: string;
  target_id: string;
  owner_id: string;
  created_at: string;
  expires_at: string;
}

export const toShare: (row: ShareRow) => ShareRecord = rowMapper(shareColumns);

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
  const share = toShare(unprefixed<ShareRow>(row, "s_"));
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
