// The trash: a deleted document is invisible to every read path until restored, and purged for
// good on request or after TRASH_RETENTION_DAYS (services/retention.ts).
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import { parseInput } from "./validate.ts";
import {
  documentRefInputSchema,
  isDocumentId,
  listTrashInputSchema,
  type DocumentRefInput,
  type DocumentSummary,
  type ListDocumentsInput,
  type TrashList,
} from "../contract/documents.ts";
import { foldName, type DocumentRecord, type Store } from "../store/types.ts";
import { decodeCursor, encodeCursor, page, reader, writer } from "./document-access.ts";

export interface TrashService {
  /** Documents in the trash, newest first, each with deletedAt. */
  trash(ctx: RequestContext, input: ListDocumentsInput): Promise<TrashList>;
  /** Back from the trash. */
  restore(ctx: RequestContext, input: DocumentRefInput): Promise<DocumentSummary>;
  /** Deletes a document in the trash for good, with its versions and shares. */
  purge(ctx: RequestContext, input: DocumentRefInput): Promise<void>;
}

export function createTrashService(deps: { store: Store; summary: (record: DocumentRecord) => DocumentSummary }): TrashService {
  const { store, summary } = deps;
  return {
    async trash(ctx, input) {
      const ownerId = reader(ctx);
      const { query, limit, cursor } = parseInput(listTrashInputSchema, input);
      const rows = await store.listTrash({
        ownerId,
        limit: limit + 1,
        ...(query ? { nameContains: foldName(query) } : {}),
        ...(cursor ? { beforeId: decodeCursor(cursor) } : {}),
      });
      const { items, nextCursor } = page(rows, limit, (last) => encodeCursor(last.id));
      return { documents: items.map((record) => ({ ...summary(record), deletedAt: record.deletedAt ?? "" })), nextCursor };
    },

    async restore(ctx, input) {
      const ownerId = writer(ctx);
      const { id } = parseInput(documentRefInputSchema, input);
      const record = isDocumentId(id) ? await store.restoreFromTrash(ownerId, id) : null;
      if (!record) throw notFound("Document in the trash");
      ctx.log.info({ documentId: id }, "document restored from the trash");
      return summary(record);
    },

    async purge(ctx, input) {
      const ownerId = writer(ctx);
      const { id } = parseInput(documentRefInputSchema, input);
      if (!(isDocumentId(id) && (await store.purgeDocument(ownerId, id)))) throw notFound("Document in the trash");
      ctx.log.info({ documentId: id }, "document purged");
    },
  };
}
