// The trash across kinds, on either database: trashed documents and workbooks of one owner, newest
// first by creation. Ids are a prefix and a ULID, so creation order is the ULID's order; each
// kind's own list (by id, indexed) gives its newest `limit` entries before the cursor, and the
// first `limit` of the two merged are the page. The cursor is the last entry's id, whatever its
// kind. (Two ids with the same ULID would need the same millisecond and 80 random bits.)
import type { ListQuery, Store, TrashEntry, TrashStore } from "./types.ts";
import { ulidOf } from "./workbook-rows.ts";

export function createTrashListing({ documents, workbooks }: Pick<Store, "documents" | "workbooks">): TrashStore {
  return {
    async listTrashEntries(query: ListQuery) {
      const before = query.beforeId === undefined ? undefined : ulidOf(query.beforeId);
      const page = (prefix: string): ListQuery => ({ ...query, ...(before === undefined ? {} : { beforeId: `${prefix}${before}` }) });
      const [docs, books] = await Promise.all([documents.listTrash(page("doc_")), workbooks.listTrash(page("wb_"))]);
      const entries: TrashEntry[] = [
        ...docs.map((record) => ({ kind: "document" as const, record })),
        ...books.map((record) => ({ kind: "workbook" as const, record })),
      ];
      entries.sort((a, b) => {
        const x = ulidOf(a.record.id);
        const y = ulidOf(b.record.id);
        return x < y ? 1 : x > y ? -1 : 0;
      });
      return entries.slice(0, query.limit);
    },
  };
}
