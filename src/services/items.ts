// Documents and spreadsheets together, newest first by creation (src/store/across-kinds.ts), with
// a case-insensitive name search and pages of at most 100 whose cursor is the last entry's id,
// whatever its kind: the owner's items (the owner's application's list, docs/app.md) and the trash
// (docs/api.md "Living documents" and "Spreadsheets"), whose restore and purge take either id. A
// credential sees the kinds its scopes can read.
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import { idCursors, pageOf, type CursorCodec } from "../core/paging.ts";
import { requireOwner, requireScope } from "../auth/authenticate.ts";
import type { DocumentSummary } from "../contract/documents.ts";
import type { Spreadsheet, TrashEntry, WorkspaceTrash } from "../contract/spreadsheets.ts";
import { listAcrossKinds } from "../store/across-kinds.ts";
import type { ItemRecord, Store } from "../store/types.ts";
import { fieldsOf, isItemId, listQuery, type Page } from "./lifecycle.ts";
import type { KindServices } from "./share-links.ts";

type Kinds = Pick<Store, "documents" | "workbooks">;
const ITEM_FIELDS = ["id", "name", "createdAt", "updatedAt", "version", "sizeBytes"] as const;
export type WorkspaceItem = { kind: "document" | "spreadsheet" } & Pick<ItemRecord, (typeof ITEM_FIELDS)[number]>;
export type ItemsService = ReturnType<typeof createItemsService>;
export type TrashService = ReturnType<typeof createTrashService>;

const itemCursors = idCursors("i1.", isItemId);
const trashCursors = idCursors("t1.", isItemId);

/** A page of the owner's items of both kinds, live or trashed (the kinds asked for: default both). */
async function pageAcross(
  store: Kinds,
  ownerId: string,
  input: Page,
  cursors: CursorCodec<string>,
  options: Parameters<typeof listAcrossKinds>[2],
) {
  const rows = await listAcrossKinds(store, listQuery(ownerId, input, cursors.decode), options);
  return pageOf(rows, input.limit, (last) => cursors.encode(last.record.id));
}

export function createItemsService(store: Kinds) {
  return {
    async list(ctx: RequestContext, input: Page): Promise<{ items: WorkspaceItem[]; nextCursor: string | null }> {
      const ownerId = requireOwner(ctx.principal);
      const { scopes } = ctx.principal;
      const documents = scopes.has("docs:read");
      const sheets = scopes.has("sheets:read");
      // Neither: the answer names the documents' scope, as the trash's does.
      if (!documents && !sheets) requireScope(ctx.principal, "docs:read");
      const page = await pageAcross(store, ownerId, input, itemCursors, { trashed: false, documents, workbooks: sheets });
      const items = page.items.map(({ kind, record }): WorkspaceItem => {
        return { kind: kind === "document" ? "document" : "spreadsheet", ...fieldsOf(record, ITEM_FIELDS) };
      });
      return { items, nextCursor: page.nextCursor };
    },
  };
}

export function createTrashService(deps: KindServices) {
  /** The service of the id's kind, or NOT_FOUND. */
  const kindOf = (id: string) => {
    if (id.startsWith("wb_")) return deps.sheets;
    if (id.startsWith("doc_")) return deps.documents;
    throw notFound("Document or spreadsheet in the trash");
  };
  return {
    async list(ctx: RequestContext, input: Page): Promise<WorkspaceTrash> {
      const { scopes } = ctx.principal;
      const page = await pageAcross(deps.store, requireOwner(ctx.principal), input, trashCursors, { trashed: true });
      const visible = page.items.filter((entry) => scopes.has(entry.kind === "document" ? "docs:read" : "sheets:read"));
      const entries: TrashEntry[] = visible.map((entry) =>
        entry.kind === "document"
          ? { ...deps.documents.trashed(entry.record), kind: "document" as const }
          : { ...deps.sheets.trashed(entry.record), kind: "spreadsheet" as const },
      );
      return { documents: entries, nextCursor: page.nextCursor };
    },
    restore: async (ctx: RequestContext, { id }: { id: string }): Promise<DocumentSummary | Spreadsheet> => kindOf(id).restore(ctx, { id }),
    purge: async (ctx: RequestContext, { id }: { id: string }): Promise<void> => kindOf(id).purge(ctx, { id }),
  };
}
