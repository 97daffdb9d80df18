// Reading documents: one record, its text or markdown (cut in the store), its .docx, and the same
// through a share link (./shared.ts found its document). The list is the lifecycle's (documents.ts).
import type { z } from "zod";
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import type { DocumentRenderer } from "../documents/renderer.ts";
import {
  isDocumentId,
  type getDocumentInputSchema,
  type readDocumentInputSchema,
  type DocumentSummary,
  type DocumentText,
} from "../contract/documents.ts";
import type { DocumentRecord, Store, TextFormat } from "../store/types.ts";
import { readAllowance, readBody, reader, textOf } from "./document-access.ts";
import { linkNotFound } from "./share-links.ts";

/** A downloadable .docx: the document's name, its bytes, and the version they are. */
export interface Download {
  name: string;
  docx: Uint8Array;
  version: number;
}

export interface ReadsService {
  /** One document's summary, or null when missing or someone else's (GraphQL `document`). */
  get(ctx: RequestContext, input: z.output<typeof getDocumentInputSchema>): Promise<DocumentSummary | null>;
  read(ctx: RequestContext, input: z.output<typeof readDocumentInputSchema>): Promise<DocumentText>;
  download(ctx: RequestContext, id: string): Promise<Download>;
  /** The current version's text through a share link: no credential, the token is one. */
  readSharedDocument(ctx: RequestContext, document: DocumentRecord, input: { maxChars: number; format: TextFormat }): Promise<DocumentText>;
  downloadSharedDocument(document: DocumentRecord): Promise<Download>;
}

export function createReadsService(deps: {
  store: Store;
  renderer: DocumentRenderer;
  summary: (record: DocumentRecord) => DocumentSummary;
}): ReadsService {
  const { store, renderer, summary } = deps;
  /** The text of a live document of `ownerId`, cut to what the request may read; null when there is none. */
  async function readOf(ctx: RequestContext, ownerId: string, id: string, maxChars: number, format: TextFormat) {
    // Cut in the store: no more than maxChars (or what the request's budget has left) is read.
    const found = isDocumentId(id) ? await store.readText(ownerId, id, format, readAllowance(ctx, maxChars)) : null;
    if (!found) return null;
    const text = await textOf(ctx, renderer, found, async () => (await store.readContent(ownerId, id))?.docx ?? null, ownerId);
    return readBody(ctx, found.document, found.document.version, text, format, maxChars);
  }
  return {
    async get(ctx, { id }) {
      const ownerId = reader(ctx);
      // An id this service never issues cannot be anyone's: no store lookup for it.
      if (!isDocumentId(id)) return null;
      const record = await store.getDocument(ownerId, id);
      return record ? summary(record) : null;
    },

    async read(ctx, { id, maxChars, format }) {
      const body = await readOf(ctx, reader(ctx), id, maxChars, format);
      if (!body) throw notFound("Document");
      return body;
    },

    async download(ctx, id) {
      const ownerId = reader(ctx);
      const found = isDocumentId(id) ? await store.readContent(ownerId, id) : null;
      if (!found) throw notFound("Document");
      return { name: found.document.name, docx: found.docx, version: found.document.version };
    },

    async readSharedDocument(ctx, document, { maxChars, format }) {
      const body = await readOf(ctx, document.ownerId, document.id, maxChars, format);
      if (!body) throw linkNotFound();
      return body;
    },

    async downloadSharedDocument(document) {
      const found = await store.readContent(document.ownerId, document.id);
      if (!found) throw linkNotFound();
      return { name: found.document.name, docx: found.docx, version: found.document.version };
    },
  };
}
