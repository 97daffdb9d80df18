// Row shapes both SQL stores read back, and their mapping to records: the two schemas name
// their columns alike, so one mapping serves SQLite and PostgreSQL.
import type { DocumentRecord } from "./types.ts";

/** The summary columns of the documents table (never the .docx or the text). */
export const documentSummaryColumns = "id, owner_id, name, created_at, updated_at, size_bytes, characters";

export interface DocumentRow {
  id: string;
  owner_id: string;
  name: string;
  created_at: string;
  updated_at: string;
  size_bytes: number;
  characters: number;
}

export const toDocument = (row: DocumentRow): DocumentRecord => ({
  id: row.id,
  ownerId: row.owner_id,
  name: row.name,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  sizeBytes: row.size_bytes,
  characters: row.characters,
});
