// A document's history: every change keeps the previous content as a version, which can be read,
// downloaded and restored as the newest (docs/api.md "Living documents"); the list is the
// lifecycle's (documents.ts).
import type { z } from "zod";
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import {
  isDocumentId,
  type readVersionInputSchema,
  type restoreVersionInputSchema,
  type versionRefInputSchema,
  type DocumentSummary,
  type DocumentText,
  type DocumentVersion,
} from "../contract/documents.ts";
import { readAllowance, readBody, reader, textOf, writer, writeVersion, type DocsDeps, type Download } from "./document-access.ts";

type VersionRef = z.output<typeof versionRefInputSchema>;

/** One version's record; null when it is not kept, or the document is missing or someone else's (GraphQL `documentVersion`). */
export async function getVersion(deps: DocsDeps, ctx: RequestContext, { id, version }: VersionRef): Promise<DocumentVersion | null> {
  const ownerId = reader(ctx);
  if (!isDocumentId(id)) return null;
  // The history page that starts at this version: one lookup, the current version included.
  const rows = await deps.store.documents.listVersions({ ownerId, id, beforeVersion: version + 1, limit: 1 });
  return rows?.[0]?.version === version ? rows[0] : null;
}

export async function readVersion(
  { store, renderer }: DocsDeps,
  ctx: RequestContext,
  { id, version, maxChars, format }: z.output<typeof readVersionInputSchema>,
): Promise<DocumentText> {
  const ownerId = reader(ctx);
  const found = isDocumentId(id) ? await store.documents.readVersionText(ownerId, id, version, format, readAllowance(ctx, maxChars)) : null;
  if (!found) throw notFound("Version");
  const docx = async () => (await store.documents.readVersionContent(ownerId, id, version))?.docx ?? null;
  const text = await textOf(ctx, renderer, found, docx, ownerId);
  // The body describes the document as it was at that version: its name then.
  const then = { ...found.document, name: found.version.name, updatedAt: found.version.createdAt };
  return readBody(ctx, then, version, text, format, maxChars);
}

export async function downloadVersion(deps: DocsDeps, ctx: RequestContext, { id, version }: VersionRef): Promise<Download> {
  const ownerId = reader(ctx);
  const found = isDocumentId(id) ? await deps.store.documents.readVersionContent(ownerId, id, version) : null;
  if (!found) throw notFound("Version");
  return { name: found.version.name, docx: found.docx, version };
}

/** Version n's content as a new version (the name stays the current one). */
export async function restoreVersion(
  { store, summary }: DocsDeps,
  ctx: RequestContext,
  { id, version, expectedVersion }: z.output<typeof restoreVersionInputSchema>,
): Promise<DocumentSummary> {
  const ownerId = writer(ctx);
  const content = isDocumentId(id) ? await store.documents.readVersionData(ownerId, id, version) : null;
  if (!content) throw notFound("Version");
  const record = await writeVersion(store, ctx, { ownerId, id, expectedVersion, content, source: "restore" });
  ctx.log.info({ documentId: id, restored: version, version: record.version }, "document version restored");
  return summary(record);
}
