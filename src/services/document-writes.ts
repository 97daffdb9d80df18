// Changing documents: create (from markdown) and import (a .docx), new content or a new name as
// the next version, and the move to the trash.
import { createHash } from "node:crypto";
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import { cancelled, type DocumentRenderer } from "../documents/renderer.ts";
import {
  createDocumentInputSchema,
  deleteDocumentInputSchema,
  importDocumentInputSchema,
  isDocumentId,
  renameDocumentInputSchema,
  replaceFromDocxInputSchema,
  updateDocumentInputSchema,
  type CreateDocumentInput,
  type DeleteDocumentInput,
  type DocumentSummary,
  type RenameDocumentInput,
  type UpdateDocumentInput,
} from "../contract/documents.ts";
import type { DocumentContent, DocumentRecord, Store } from "../store/types.ts";
import { changed, precheck, writer, writeVersion } from "./document-access.ts";
import { createOnce, fromDocx, storedMarkdown, type UploadedDocx } from "./document-create.ts";
import { parseInput } from "./validate.ts";

export interface WritesService {
  create(ctx: RequestContext, input: CreateDocumentInput): Promise<{ document: DocumentSummary; replayed: boolean }>;
  /** A new document from an uploaded .docx; its text and markdown are extracted from the file. */
  import(
    ctx: RequestContext,
    input: { name?: string | undefined; idempotencyKey?: string | undefined },
    file: UploadedDocx,
  ): Promise<{ document: DocumentSummary; replayed: boolean }>;
  /** New content from markdown (and/or a new name): the next version. */
  update(ctx: RequestContext, input: UpdateDocumentInput): Promise<DocumentSummary>;
  /** New content from an uploaded .docx (and optionally a new name): the next version. */
  updateFromDocx(
    ctx: RequestContext,
    input: { id: string; name?: string | undefined; expectedVersion?: number | undefined },
    file: UploadedDocx,
  ): Promise<DocumentSummary>;
  rename(ctx: RequestContext, input: RenameDocumentInput): Promise<DocumentSummary>;
  /** Moves the document to the trash. */
  delete(ctx: RequestContext, input: DeleteDocumentInput): Promise<void>;
}

export function createWritesService(deps: {
  store: Store;
  renderer: DocumentRenderer;
  summary: (record: DocumentRecord) => DocumentSummary;
}): WritesService {
  const { store, renderer, summary } = deps;
  return {
    async create(ctx, input) {
      const ownerId = writer(ctx);
      const { name, markdown, idempotencyKey } = parseInput(createDocumentInputSchema, input);
      return createOnce(
        deps,
        ctx,
        ownerId,
        name,
        idempotencyKey,
        () => createHash("sha256").update(name).update("\0").update(markdown).digest("hex"),
        async () => {
          const rendered = await renderer.render(markdown, name, { signal: ctx.signal, principal: ownerId });
          return { docx: rendered.docx, text: rendered.text, markdown: storedMarkdown(markdown) };
        },
        "markdown",
      );
    },

    async import(ctx, input, file) {
      const ownerId = writer(ctx);
      const defaultName = file.filename?.replace(/\.docx$/i, "").trim();
      const { name, idempotencyKey } = parseInput(importDocumentInputSchema, {
        ...input,
        ...(input.name === undefined && defaultName ? { name: defaultName } : {}),
      });
      return createOnce(
        deps,
        ctx,
        ownerId,
        name,
        idempotencyKey,
        () => createHash("sha256").update("docx\0").update(name).update("\0").update(file.bytes).digest("hex"),
        () => fromDocx(renderer, ctx, ownerId, file),
        "docx",
      );
    },

    async update(ctx, input) {
      const ownerId = writer(ctx);
      const { id, markdown, name, expectedVersion } = parseInput(updateDocumentInputSchema, input);
      const current = precheck(isDocumentId(id) ? await store.getDocument(ownerId, id) : null, expectedVersion);
      let content: DocumentContent | undefined;
      if (markdown !== undefined) {
        const rendered = await renderer.render(markdown, name ?? current.name, { signal: ctx.signal, principal: ownerId });
        if (ctx.signal.aborted) throw cancelled();
        content = { docx: rendered.docx, text: rendered.text, markdown: storedMarkdown(markdown) };
      }
      const record = await writeVersion(store, ctx, {
        ownerId,
        id,
        expectedVersion,
        name,
        content,
        source: content ? "markdown" : "rename",
      });
      ctx.log.info({ documentId: id, version: record.version }, "document updated");
      return summary(record);
    },

    async updateFromDocx(ctx, input, file) {
      const ownerId = writer(ctx);
      const { id, name, expectedVersion } = parseInput(replaceFromDocxInputSchema, input);
      precheck(isDocumentId(id) ? await store.getDocument(ownerId, id) : null, expectedVersion);
      const content = await fromDocx(renderer, ctx, ownerId, file);
      const record = await writeVersion(store, ctx, { ownerId, id, expectedVersion, name, content, source: "docx" });
      ctx.log.info({ documentId: id, version: record.version }, "document replaced from a .docx");
      return summary(record);
    },

    async rename(ctx, input) {
      const ownerId = writer(ctx);
      const { id, name, expectedVersion } = parseInput(renameDocumentInputSchema, input);
      if (!isDocumentId(id)) throw notFound("Document");
      const record = await writeVersion(store, ctx, { ownerId, id, expectedVersion, name, source: "rename" });
      return summary(record);
    },

    async delete(ctx, input) {
      const ownerId = writer(ctx);
      const { id, expectedVersion } = parseInput(deleteDocumentInputSchema, input);
      if (!isDocumentId(id)) throw notFound("Document");
      changed(await store.trashDocument({ ownerId, id, at: new Date().toISOString(), expectedVersion }));
      ctx.log.info({ documentId: id }, "document moved to the trash");
    },
  };
}
