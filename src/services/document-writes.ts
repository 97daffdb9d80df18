// Changing documents: create (from markdown) and import (a .docx), new content as the next
// version (a new name and the move to the trash are the lifecycle's, documents.ts).
import { createHash } from "node:crypto";
import type { z } from "zod";
import type { RequestContext } from "../core/context.ts";
import { cancelled } from "../documents/renderer.ts";
import {
  importDocumentInputSchema,
  isDocumentId,
  type createDocumentInputSchema,
  type importDocumentUploadInputSchema,
  type replaceFromDocxInputSchema,
  type updateDocumentInputSchema,
  type DocumentSummary,
} from "../contract/documents.ts";
import type { DocumentContent } from "../store/types.ts";
import { owner, precheck, writeVersion, type DocsDeps } from "./document-access.ts";
import { createOnce, fromDocx, storedMarkdown, type UploadedDocx } from "./document-create.ts";
import { parseInput } from "./validate.ts";

type Created = { document: DocumentSummary; replayed: boolean };

export async function createDocument(
  deps: DocsDeps,
  ctx: RequestContext,
  { name, markdown, idempotencyKey }: z.output<typeof createDocumentInputSchema>,
): Promise<Created> {
  const ownerId = owner(ctx, "write");
  const fingerprint = () => createHash("sha256").update(name).update("\0").update(markdown).digest("hex");
  return createOnce(
    deps,
    ctx,
    ownerId,
    name,
    idempotencyKey,
    fingerprint,
    async () => {
      const rendered = await deps.renderer.render(markdown, name, { signal: ctx.signal, principal: ownerId });
      return { docx: rendered.docx, text: rendered.text, markdown: storedMarkdown(markdown) };
    },
    "markdown",
  );
}

/** A new document from an uploaded .docx; its text and markdown are extracted from the file. */
export async function importDocument(
  deps: DocsDeps,
  ctx: RequestContext,
  input: Omit<z.output<typeof importDocumentUploadInputSchema>, "file">,
  file: UploadedDocx,
): Promise<Created> {
  const ownerId = owner(ctx, "write");
  const defaultName = file.filename?.replace(/\.docx$/i, "").trim();
  // The file's name stands in for a name not given: checked here, as the runner never saw it.
  const name = input.name ?? parseInput(importDocumentInputSchema.pick({ name: true }), defaultName ? { name: defaultName } : {}).name;
  const fingerprint = () => createHash("sha256").update("docx\0").update(name).update("\0").update(file.bytes).digest("hex");
  const content = () => fromDocx(deps.renderer, ctx, ownerId, file);
  return createOnce(deps, ctx, ownerId, name, input.idempotencyKey, fingerprint, content, "docx");
}

/** New content from markdown (and/or a new name): the next version. */
export async function updateDocument(
  { store, renderer, summary }: DocsDeps,
  ctx: RequestContext,
  { id, markdown, name, expectedVersion }: z.output<typeof updateDocumentInputSchema>,
): Promise<DocumentSummary> {
  const ownerId = owner(ctx, "write");
  const current = precheck(isDocumentId(id) ? await store.documents.get(ownerId, id) : null, expectedVersion);
  let content: DocumentContent | undefined;
  if (markdown !== undefined) {
    const rendered = await renderer.render(markdown, name ?? current.name, { signal: ctx.signal, principal: ownerId });
    if (ctx.signal.aborted) throw cancelled();
    content = { docx: rendered.docx, text: rendered.text, markdown: storedMarkdown(markdown) };
  }
  const source = content ? "markdown" : "rename";
  const record = await writeVersion(store, ctx, { ownerId, id, expectedVersion, name, content, source });
  ctx.log.info({ documentId: id, version: record.version }, "document updated");
  return summary(record);
}

/** New content from an uploaded .docx (and optionally a new name): the next version. */
export async function updateFromDocx(
  { store, renderer, summary }: DocsDeps,
  ctx: RequestContext,
  { id, name, expectedVersion }: z.output<typeof replaceFromDocxInputSchema>,
  file: UploadedDocx,
): Promise<DocumentSummary> {
  const ownerId = owner(ctx, "write");
  precheck(isDocumentId(id) ? await store.documents.get(ownerId, id) : null, expectedVersion);
  const content = await fromDocx(renderer, ctx, ownerId, file);
  const record = await writeVersion(store, ctx, { ownerId, id, expectedVersion, name, content, source: "docx" });
  ctx.log.info({ documentId: id, version: record.version }, "document replaced from a .docx");
  return summary(record);
}
