// Row shapes both SQL stores read back, and their mapping to records: the two schemas name
// their columns alike, so one mapping serves SQLite and PostgreSQL.
import type { DocumentRecord, ShareRecord, VersionRecord, VersionSource } from "./types.ts";

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

export interface DocumentRow {
  id: string;
  owner_id: string;
  name: string;
  created_at: string;
  updated_at: string;
  size_bytes: number;
  characters: number;
  version: number;
  updated_by: string;
  source: string;
  deleted_at: string | null;
}

export const toDocument = (row: DocumentRow): DocumentRecord => ({
  id: row.id,
  ownerId: row.owner_id,
  name: row.name,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  sizeBytes: row.size_bytes,
  characters: row.characters,
  version: row.version,
  updatedBy: row.updated_by,
  source: row.source as VersionSource,
  deletedAt: row.deleted_at,
});

/** The columns of an earlier version, as a VersionRecord needs them. */
export const versionSummaryColumns = "version, name, created_at, created_by, size_bytes, characters, source";
export const versionSummaryColumnsOf = (alias: string): string => qualified(versionSummaryColumns, alias);

export interface VersionRow {
  version: number;
  name: string;
  created_at: string;
  created_by: string;
  size_bytes: number;
  characters: number;
  source: string;
}

export const toVersion = (row: VersionRow): VersionRecord => ({
  version: row.version,
  name: row.name,
  createdAt: row.created_at,
  createdBy: row.created_by,
  sizeBytes: row.size_bytes,
  characters: row.characters,
  source: row.source as VersionSource,
});

/** The current version of a document, as its history lists it. */
export const currentVersion = (document: DocumentRecord): VersionRecord => ({
  version: document.version,
  name: document.name,
  createdAt: document.updatedAt,
  createdBy: document.updatedBy,
  sizeBytes: document.sizeBytes,
  characters: document.characters,
  source: document.source,
});

export const shareColumns = "id, document_id, owner_id, created_at, expires_at";

export interface ShareRow {
  id: string;
  document_id: string;
  owner_id: string;
  created_at: string;
  expires_at: string;
}

export const toShare = (row: ShareRow): ShareRecord => ({
  id: row.id,
  documentId: row.document_id,
  ownerId: row.owner_id,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

/** A Uint8Array view of a driver's Buffer, without a copy. */
export const bytesOf = (buffer: Buffer): Uint8Array => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
export const toBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
