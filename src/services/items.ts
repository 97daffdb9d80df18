// Documents and spreadsheets together, newest first by creation (src/store/across-kinds.ts), with
// a case-insensitive name search and pages of at most 100 whose cursor is the last entry's id,
// whatever its kind: the owner's items (the owner's application's list, docs/app.md) and the trash
// (docs/api.md "Living documents" and "Spreadsheets"), whose restore and purge take either id. A
// credential sees the kinds its scopes can read.
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import { idCursors, pageOf } from "../core/paging.ts";
import { requireOwner, requireScope } from "../auth/authenticate.ts";
import type { DocumentSummary } from "../contract/documents.ts";
import type { Spreadsheet, TrashEntry, WorkspaceTrash } from "../contract/spreadsheets.ts";
import { listAcrossKinds } from "../store/across-kinds.ts";
import type { ItemRecord, Store } from "../store/types.ts";
import type { DocumentsService } from "./documents.ts";
import { fieldsOf, isItemId, listQuery } from "./lifecycle.ts";
import type { SpreadsheetsService } from "./spreadsheets/index.ts";

export type WorkspaceItem = { kind: "document" | "spreadsheet" } & Pick<
  ItemRecord,
  "id" | "name" | "createdAt" | "updatedAt" | "version" | "sizeBytes"
>;
export type ItemsService = ReturnType<typeof createItemsService>;
export type TrashService = ReturnType<typeof createTrashService>;
type Page = { query?: string | undefined; limit: number; cursor?: string | undefined };

const itemCursors = idCursors("i1.", isItemId);
const trashCursors = idCursors("t1.", isItemId);

export function createItemsService(store: Pick<Store, "documents" | "workbooks">) {
  return {
    async list(ctx: RequestContext, input: Page): Promise<{ items: WorkspaceItem[]; nextCursor: string | null }> {
      const ownerId = requireOwner(ctx.principal);
      const { scopes } = ctx.principal;
      const documents = scopes.has("docs:read");
      const sheets = scopes.has("sheets:read");
      // Neither: the answer names the documents' scope, as the trash's does.
      if (!documents && !sheets) requireScope(ctx.principal, "docs:read");
      const query = listQuery(ownerId, input, itemCursors.decode);
      const entries = await listAcrossKinds(store, query, { trashed: false, documents, workbooks: sheets });
      const merged = entries.map(({ kind, record }): WorkspaceItem => ({
        kind: kind === "document" ? "document" : "spreadsheet",
        ...fieldsOf(record, ["id", "name", "createdAt", "updatedAt", "version", "sizeBytes"]),
      }));
      const page = pageOf(merged, input.limit, (last) => itemCursors.encode(last.id));
      return { items: page.items, nextCursor: page.nextCursor };
    },
  };
}

export function createTrashService({
  store,
  documents,
  sheets,
}: {
  store: Store;
  documents: DocumentsService;
  sheets: SpreadsheetsService;
}) {
  /** The service of the id's kind, or NOT_FOUND. */
  const kindOf = (id: string) => {
    if (id.startsWith("wb_")) return sheets;
    if (id.startsWith("doc_")) return documents;
    throw notFound("Document or spreadsheet in the trash");
  };
  return {
    async list(ctx: RequestContext, input: Page): Promise<WorkspaceTrash> {
      const ownerId = requireOwner(ctx.principal);
      const scopes = ctx.principal.scopes;
      const rows = await listAcrossKinds(store, listQuery(ownerId, input, trashCursors.decode), { trashed: true });
      const page = pageOf(rows, input.limit, (last) => trashCursors.encode(last.record.id));
      const visible = page.items.filter((entry) => scopes.has(entry.kind === "document" ? "docs:read" : "sheets:read"));
      const entries: TrashEntry[] = visible.map((entry) =>
        entry.kind === "document"
          ? { ...documents.trashed(entry.record), kind: "document" as const }
          : { ...sheets.trashed(entry.record), kind: "spreadsheet" as const },
      );
      return { documents: entries, nextCursor: page.nextCursor };
    },
    restore: async (ctx: RequestContext, { id }: { id: string }): Promise<DocumentSummary | Spreadsheet> => kindOf(id).restore(ctx, { id }),
    purge: async (ctx: RequestContext, { id }: { id: string }): Promise<void> => kindOf(id).purge(ctx, { id }),
  };
}
