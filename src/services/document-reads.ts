// Reading documents: the list, one record, its text or markdown (cut in the store), its .docx.
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import type { DocumentRenderer } from "../documents/renderer.ts";
import {
  getDocumentInputSchema,
  isDocumentId,
  listDocumentsInputSchema,
  readDocumentInputSchema,
  type DocumentList,
  type DocumentSummary,
  type DocumentText,
  type GetDocumentInput,
  type ListDocumentsInput,
  type ReadDocumentInput,
} from "../contract/documents.ts";
import { foldName, type DocumentRecord, type Store } from "../store/types.ts";
import { decodeCursor, encodeCursor, page, readAllowance, readBody, reader, textOf } from "./document-access.ts";
import { parseInput } from "./validate.ts";

/** A downloadable .docx: the document's name, its bytes, and the version they are. */
export interface Download {
  name: string;
  docx: Uint8Array;
  version: number;
}

export interface ReadsService {
  list(ctx: RequestContext, input: ListDocumentsInput): Promise<DocumentList>;
  /** One document's summary, or null when missing or someone else's (GraphQL `document`). */
  get(ctx: RequestContext, input: GetDocumentInput): Promise<DocumentSummary | null>;
  read(ctx: RequestContext, input: ReadDocumentInput): Promise<DocumentText>;
  download(ctx: RequestContext, id: string): Promise<Download>;
}

export function createReadsService(deps: {
  store: Store;
  renderer: DocumentRenderer;
  summary: (record: DocumentRecord) => DocumentSummary;
}): ReadsService {
  const { store, renderer, summary } = deps;
  return {
    async list(ctx, input) {
      const ownerId = reader(ctx);
      const { query, limit, cursor } = parseInput(listDocumentsInputSchema, input);
      const needle = query === undefined || query === "" ? undefined : foldName(query);
      const rows = await store.listDocuments({
        ownerId,
        limit: limit + 1,
        ...(needle === undefined ? {} : { nameContains: needle }),
        ...(cursor ? { beforeId: decodeCursor(cursor) } : {}),
      });
      const { items, nextCursor } = page(rows, limit, (last) => encodeCursor(last.id));
      return { documents: items.map(summary), nextCursor };
    },

    async get(ctx, input) {
      const ownerId = reader(ctx);
      const { id } = parseInput(getDocumentInputSchema, input);
      // An id this service never issues cannot be anyone's: no store lookup for it.
      if (!isDocumentId(id)) return null;
      const record = await store.getDocument(ownerId, id);
      return record ? summary(record) : null;
    },

    async read(ctx, input) {
      const ownerId = reader(ctx);
      const { id, maxChars, format } = parseInput(readDocumentInputSchema, input);
      // Cut in the store: no more than maxChars (or what the request's budget has left) is read.
      const found = isDocumentId(id) ? await store.readText(ownerId, id, format, readAllowance(ctx, maxChars)) : null;
      if (!found) throw notFound("Document");
      const text = await textOf(ctx, renderer, found, async () => (await store.readContent(ownerId, id))?.docx ?? null, ownerId);
      return readBody(ctx, found.document, found.document.version, text, format, maxChars);
    },

    async download(ctx, id) {
      const ownerId = reader(ctx);
      const found = isDocumentId(id) ? await store.readContent(ownerId, id) : null;
      if (!found) throw notFound("Document");
      return { name: found.document.name, docx: found.docx, version: found.document.version };
    },
  };
}
