// The owner's items, documents and spreadsheets together (the owner's application's list, docs/app.md):
// newest first by creation (src/store/across-kinds.ts, as the trash), a case-insensitive name
// search, pages of at most 100. The cursor is the last item's id, whatever its kind. A credential
// sees the kinds its scopes can read.
import type { RequestContext } from "../core/context.ts";
import { idCursors, pageOf } from "../core/paging.ts";
import { requireOwner, requireScope } from "../auth/authenticate.ts";
import { listAcrossKinds } from "../store/across-kinds.ts";
import type { ItemRecord, Store } from "../store/types.ts";
import { isItemId, listQuery } from "./lifecycle.ts";

export type ItemKind = "document" | "spreadsheet";

export type WorkspaceItem = { kind: ItemKind } & Pick<ItemRecord, "id" | "name" | "createdAt" | "updatedAt" | "version" | "sizeBytes">;
export type ItemsService = ReturnType<typeof createItemsService>;

const itemCursors = idCursors("i1.", isItemId);

export function createItemsService(store: Pick<Store, "documents" | "workbooks">) {
  return {
    async list(ctx: RequestContext, input: { query?: string | undefined; limit: number; cursor?: string | undefined }) {
      const ownerId = requireOwner(ctx.principal);
      const { scopes } = ctx.principal;
      const documents = scopes.has("docs:read");
      const sheets = scopes.has("sheets:read");
      // Neither: the answer names the documents' scope, as the trash's does.
      if (!documents && !sheets) requireScope(ctx.principal, "docs:read");
      const query = listQuery(ownerId, input, itemCursors.decode);
      const entries = await listAcrossKinds(store, query, { trashed: false, documents, workbooks: sheets });
      const merged = entries.map(({ kind, record: { id, name, createdAt, updatedAt, version, sizeBytes } }): WorkspaceItem => {
        return { kind: kind === "document" ? "document" : "spreadsheet", id, name, createdAt, updatedAt, version, sizeBytes };
      });
      const page = pageOf(merged, input.limit, (last) => itemCursors.encode(last.id));
      return { items: page.items, nextCursor: page.nextCursor };
    },
  };
}
