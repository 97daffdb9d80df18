// A document's history: every change keeps the previous content as a version, which can be read
// and downloaded (docs/api.md "Living documents"); the list, one version's record and restoring
// one as the newest are the lifecycle's (documents.ts).
import type { z } from "zod";
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import { isDocumentId, type readVersionInputSchema, type versionRefInputSchema, type DocumentText } from "../contract/documents.ts";
import type { StoredDownload } from "../contract/files.ts";
import { docxFile, owner, type DocsDeps } from "./document-access.ts";
import { readAllowance, readBody, textOf } from "./document-reads.ts";

type VersionRef = z.output<typeof versionRefInputSchema>;

export async function readVersion(
  { store, renderer }: DocsDeps,
  ctx: RequestContext,
  { id, version, maxChars, format }: z.output<typeof readVersionInputSchema>,
): Promise<DocumentText> {
  const ownerId = owner(ctx, "read");
  const found = isDocumentId(id) ? await store.documents.readVersionText(ownerId, id, version, format, readAllowance(ctx, maxChars)) : null;
  if (!found) throw notFound("Version");
  const docx = async () => (await store.documents.readVersionContent(ownerId, id, version))?.docx ?? null;
  const text = await textOf(ctx, renderer, found, docx, ownerId);
  // The body describes the document as it was at that version: its name then.
  const then = { ...found.document, name: found.version.name, updatedAt: found.version.createdAt };
  return readBody(ctx, then, version, text, format, maxChars);
}

export async function downloadVersion(deps: DocsDeps, ctx: RequestContext, { id, version }: VersionRef): Promise<StoredDownload> {
  const ownerId = owner(ctx, "read");
  const found = isDocumentId(id) ? await deps.store.documents.readVersionContent(ownerId, id, version) : null;
  if (!found) throw notFound("Version");
  return docxFile(found.version.name, found.docx, version);
}
