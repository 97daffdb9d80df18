// The document lookups several SQLite modules share (versions and shares read the live document).
import { documentSummaryColumns, toDocument, type DocumentRow } from "../rows.ts";
import type { DocumentRecord } from "../types.ts";
import type { Db } from "./connection.ts";

export interface DocumentLookups {
  /** The live document (not in the trash), or null. */
  live(ownerId: string, id: string): DocumentRecord | null;
  /** Live or in the trash. */
  any(ownerId: string, id: string): DocumentRecord | null;
}

export function documentLookups(db: Db): DocumentLookups {
  const live = db.prepare(`SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = ? AND id = ? AND deleted_at IS NULL`);
  const any = db.prepare(`SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = ? AND id = ?`);
  const one = (row: unknown) => (row ? toDocument(row as DocumentRow) : null);
  return {
    live: (ownerId, id) => one(live.get(ownerId, id)),
    any: (ownerId, id) => one(any.get(ownerId, id)),
  };
}
