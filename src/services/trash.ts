// The trash across kinds (docs/api.md "Living documents" and "Spreadsheets"): GET /api/v1/trash
// lists the caller's deleted documents and spreadsheets together, newest first, each with its
// kind; restoring and purging take either id. A caller sees the kinds its scopes let it read.
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import { idCursors, pageOf } from "../core/paging.ts";
import { requireOwner } from "../auth/authenticate.ts";
import type { DocumentSummary } from "../contract/documents.ts";
import type { Spreadsheet, TrashEntry, WorkspaceTrash } from "../contract/spreadsheets.ts";
import { listAcrossKinds } from "../store/across-kinds.ts";
import type { Store } from "../store/types.ts";
import { toSummary } from "./document-access.ts";
import type { DocumentsService } from "./documents.ts";
import { isItemId, listQuery } from "./lifecycle.ts";
import { toSpreadsheet } from "./spreadsheets/access.ts";
import type { SpreadsheetsService } from "./spreadsheets/index.ts";

/** The position is the last entry's id, a document's or a spreadsheet's. */
const trashCursors = idCursors("t1.", isItemId);

export type TrashService = ReturnType<typeof createTrashService>;

export function createTrashService(deps: { store: Store; documents: DocumentsService; sheets: SpreadsheetsService; publicUrl: string }) {
  /** The service of the id's kind, or NOT_FOUND. */
  const kindOf = (id: string) => {
    if (id.startsWith("wb_")) return deps.sheets;
    if (id.startsWith("doc_")) return deps.documents;
    throw notFound("Document or spreadsheet in the trash");
  };
  return {
    async list(
      ctx: RequestContext,
      input: { query?: string | undefined; limit: number; cursor?: string | undefined },
    ): Promise<WorkspaceTrash> {
      const ownerId = requireOwner(ctx.principal);
      const scopes = ctx.principal.scopes;
      const rows = await listAcrossKinds(deps.store, listQuery(ownerId, input, trashCursors.decode), { trashed: true });
      const page = pageOf(rows, input.limit, (last) => trashCursors.encode(last.record.id));
      const visible = page.items.filter((entry) => scopes.has(entry.kind === "document" ? "docs:read" : "sheets:read"));
      const documents: TrashEntry[] = visible.map((entry) =>
        entry.kind === "document"
          ? { ...toSummary(entry.record, deps.publicUrl), deletedAt: entry.record.deletedAt ?? "", kind: "document" as const }
          : { ...toSpreadsheet(entry.record, deps.publicUrl), deletedAt: entry.record.deletedAt ?? "", kind: "spreadsheet" as const },
      );
      return { documents, nextCursor: page.nextCursor };
    },
    restore: async (ctx: RequestContext, { id }: { id: string }): Promise<DocumentSummary | Spreadsheet> => kindOf(id).restore(ctx, { id }),
    purge: async (ctx: RequestContext, { id }: { id: string }): Promise<void> => kindOf(id).purge(ctx, { id }),
  };
}
