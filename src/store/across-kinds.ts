// Documents and workbooks of one owner together, newest first by creation: the owner's items
// and the trash (src/services/items.ts). Ids are a prefix and a ULID, so
// creation order is the ULID's order; each kind's own list (by id, indexed) gives its newest
// `limit` entries before the cursor, and the first `limit` of the two merged are the page. The
// cursor is the last entry's id, whatever its kind. (Two ids with the same ULID would need the
// same millisecond and 80 random bits.)
import type { KindRecord, ListQuery, Store } from "./types.ts";

/** The ULID of an id (`doc_…`, `wb_…`): what orders ids of different kinds by creation. */
const ulidOf = (id: string): string => id.slice(id.indexOf("_") + 1);

/** Live (or trashed) items of the kinds asked for (default both), `beforeId` either kind's id. */
export async function listAcrossKinds(
  store: Pick<Store, "documents" | "workbooks">,
  query: ListQuery,
  options: { trashed: boolean; documents?: boolean; workbooks?: boolean },
): Promise<KindRecord[]> {
  const before = query.beforeId === undefined ? undefined : ulidOf(query.beforeId);
  const page = (prefix: string): ListQuery => ({ ...query, ...(before === undefined ? {} : { beforeId: `${prefix}${before}` }) });
  const list = <R>(items: Record<"list" | "listTrash", (query: ListQuery) => Promise<R[]>>, wanted = true, prefix: string) =>
    !wanted ? [] : options.trashed ? items.listTrash(page(prefix)) : items.list(page(prefix));
  const [docs, books] = await Promise.all([
    list(store.documents, options.documents, "doc_"),
    list(store.workbooks, options.workbooks, "wb_"),
  ]);
  const entries: KindRecord[] = [
    ...docs.map((record) => ({ kind: "document" as const, record })),
    ...books.map((record) => ({ kind: "workbook" as const, record })),
  ];
  const key = (entry: KindRecord) => ulidOf(entry.record.id);
  entries.sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0));
  return entries.slice(0, query.limit);
}
