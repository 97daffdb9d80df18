// The owner's items, documents and spreadsheets together (the owner's application's list, docs/app.md):
// newest first by creation, a case-insensitive name search, pages of at most 100. Ids are a prefix
// and a ULID, so creation order is the ULID's order: each kind's own indexed list gives its newest
// `limit + 1` before the cursor, and the first of the two merged are the page, as the trash does
// (src/store/trash.ts). The cursor is the last item's id, whatever its kind. A credential sees the
// kinds its scopes can read.
import type { RequestContext } from "../core/context.ts";
import { cursorCodec, pageOf } from "../core/paging.ts";
import { requireOwner, requireScope } from "../auth/authenticate.ts";
import { foldName, type ListQuery, type Store } from "../store/types.ts";

export type ItemKind = "document" | "spreadsheet";

export interface WorkspaceItem {
  kind: ItemKind;
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  version: number;
  sizeBytes: number;
}

export interface ItemsPage {
  items: WorkspaceItem[];
  nextCursor: string | null;
}

export interface ItemsService {
  list(ctx: RequestContext, input: { query?: string | undefined; limit: number; cursor?: string | undefined }): Promise<ItemsPage>;
}

const itemCursors = cursorCodec<string>(
  "i1.",
  (id) => id,
  (text) => (/^(doc|wb)_[0-9A-HJKMNP-TV-Z]{26}$/.test(text) ? text : undefined),
);

const ulidOf = (id: string): string => id.slice(id.indexOf("_") + 1);

type Listed = Pick<WorkspaceItem, "id" | "name" | "createdAt" | "updatedAt" | "version" | "sizeBytes">;
const itemOf = (kind: ItemKind, record: Listed): WorkspaceItem => ({
  kind,
  id: record.id,
  name: record.name,
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
  version: record.version,
  sizeBytes: record.sizeBytes,
});

export function createItemsService(store: Pick<Store, "documents" | "workbooks">): ItemsService {
  return {
    async list(ctx, input) {
      const ownerId = requireOwner(ctx.principal);
      const { scopes } = ctx.principal;
      const documents = scopes.has("docs:read");
      const sheets = scopes.has("sheets:read");
      // Neither: the answer names the documents' scope, as the trash's does.
      if (!documents && !sheets) requireScope(ctx.principal, "docs:read");
      const before = input.cursor === undefined ? undefined : ulidOf(itemCursors.decode(input.cursor));
      const query = (prefix: string): ListQuery => ({
        ownerId,
        limit: input.limit + 1,
        ...(input.query ? { nameContains: foldName(input.query) } : {}),
        ...(before === undefined ? {} : { beforeId: `${prefix}${before}` }),
      });
      const [docs, books] = await Promise.all([
        documents ? store.documents.list(query("doc_")) : [],
        sheets ? store.workbooks.list(query("wb_")) : [],
      ]);
      const merged = [...docs.map((d) => itemOf("document", d)), ...books.map((b) => itemOf("spreadsheet", b))];
      merged.sort((a, b) => {
        const x = ulidOf(a.id);
        const y = ulidOf(b.id);
        return x < y ? 1 : x > y ? -1 : 0;
      });
      const page = pageOf(merged.slice(0, input.limit + 1), input.limit, (last) => itemCursors.encode(last.id));
      return { items: page.items, nextCursor: page.nextCursor };
    },
  };
}
