// The document and workbook lookups several SQLite modules share.
import { documentSummaryColumns, toDocument, type DocumentRow } from "../rows.ts";
import type { DocumentRecord, WorkbookRecord } from "../types.ts";
import { toWorkbook, workbookSummaryColumns, type WorkbookRow } from "../workbook-rows.ts";
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

export interface WorkbookLookups {
  live(ownerId: string, id: string): WorkbookRecord | null;
  any(ownerId: string, id: string): WorkbookRecord | null;
}

export function workbookLookups(db: Db): WorkbookLookups {
  const live = db.prepare(`SELECT ${workbookSummaryColumns} FROM workbooks WHERE owner_id = ? AND id = ? AND deleted_at IS NULL`);
  const any = db.prepare(`SELECT ${workbookSummaryColumns} FROM workbooks WHERE owner_id = ? AND id = ?`);
  const one = (row: unknown) => (row ? toWorkbook(row as WorkbookRow) : null);
  return {
    live: (ownerId, id) => one(live.get(ownerId, id)),
    any: (ownerId, id) => one(any.get(ownerId, id)),
  };
}
