// The trash across kinds: GET /api/v1/trash lists trashed documents and workbooks together.
import type { DocumentRecord } from "./documents.ts";
import type { ListQuery } from "./items.ts";
import type { WorkbookRecord } from "./workbooks.ts";

export type TrashEntry = { kind: "document"; record: DocumentRecord } | { kind: "workbook"; record: WorkbookRecord };

export interface TrashStore {
  /**
   * Trashed documents and workbooks of the owner, newest first by creation (the ULID after the id's
   * prefix), `nameContains` a folded substring; `beforeId` is the last entry's id (either kind), so
   * one cursor pages through both.
   */
  listTrashEntries(query: ListQuery): Promise<TrashEntry[]>;
}
