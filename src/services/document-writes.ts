// Changing documents: create (from markdown) and import (a .docx), new content or a new name as
// the next version (the move to the trash is the lifecycle's, documents.ts).
import { createHash } from "node:crypto";
import type { z } from "zod";
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import { cancelled, type DocumentRenderer } from "../documents/renderer.ts";
import {
  importDocumentInputSchema,
  isDocumentId,
  type createDocumentInputSchema,
  type renameDocumentInputSchema,
  type replaceFromDocxInputSchema,
  type updateDocumentInputSchema,
  type DocumentSummary,
} from "../contract/documents.ts";
import type { DocumentContent, DocumentRecord, Store } from "../store/types.ts";
import { precheck, writer, writeVersion } from "./document-access.ts";
import { createOnce, fromDocx, storedMarkdown, type UploadedDocx } from "./document-create.ts";
import { parseInput } from "./validate.ts";

export interface WritesService {
  create(ctx: RequestContext, input: z.output<typeof createDocumentInputSchema>): Promise<{ document: DocumentSummary; replayed: boolean }>;
  /** A new document from an uploaded .docx; its text and markdown are extracted from the file. */
  import(
    ctx: RequestContext,
    input: { name?: string | undefined; idempotencyKey?: string | undefined },
    file: UploadedDocx,
  ): Promise<{ document: DocumentSummary; replayed: boolean }>;
  /** New content from markdown (and/or a new name): the next version. */
  update(ctx: RequestContext, input: z.output<typeof updateDocumentInputSchema>): Promise<DocumentSummary>;
  /** New content from an uploaded .docx (and optionally a new name): the next version. */
  updateFromDocx(ctx: RequestContext, input: z.output<typeof replaceFromDocxInputSchema>, file: UploadedDocx): Promise<DocumentSummary>;
  rename(ctx: RequestContext, input: z.output<typeof renameDocumentInputSchema>): Promise<DocumentSummary>;
}

export function createWritesService(deps: {
  store: Store;
  renderer: DocumentRenderer;
  summary: (record: DocumentRecord) => DocumentSummary;
}): WritesService {
  const { store, renderer, summary } = deps;
  return {
    async create(ctx, { name, markdown, idempotencyKey }) {
      const ownerId = writer(ctx);
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
      const { idempotencyKey } = input;
      // The file's name stands in for a name not given: checked here, as the runner never saw it.
      const name = input.name ?? parseInput(importDocumentInputSchema.pick({ name: true }), defaultName ? { name: defaultName } : {}).name;
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

    async update(ctx, { id, markdown, name, expectedVersion }) {
      const ownerId = writer(ctx);
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

    async updateFromDocx(ctx, { id, name, expectedVersion }, file) {
      const ownerId = writer(ctx);
      precheck(isDocumentId(id) ? await store.getDocument(ownerId, id) : null, expectedVersion);
      const content = await fromDocx(renderer, ctx, ownerId, file);
      const record = await writeVersion(store, ctx, { ownerId, id, expectedVersion, name, content, source: "docx" });
      ctx.log.info({ documentId: id, version: record.version }, "document replaced from a .docx");
      return summary(record);
    },

    async rename(ctx, { id, name, expectedVersion }) {
      const ownerId = writer(ctx);
      if (!isDocumentId(id)) throw notFound("Document");
      const record = await writeVersion(store, ctx, { ownerId, id, expectedVersion, name, source: "rename" });
      return summary(record);
    },
  };
}
