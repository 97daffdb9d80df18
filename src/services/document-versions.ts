// A document's history: every change keeps the previous content as a version, which can be read
// and downloaded (docs/api.md "Living documents"); the list and restoring one as the newest are
// the lifecycle's (documents.ts).
import type { z } from "zod";
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import {
  isDocumentId,
  type readVersionInputSchema,
  type versionRefInputSchema,
  type DocumentText,
  type DocumentVersion,
} from "../contract/documents.ts";
import type { StoredDownload } from "../contract/files.ts";
import { docxFile, owner, type DocsDeps } from "./document-access.ts";
import { readAllowance, readBody, textOf } from "./document-reads.ts";

type VersionRef = z.output<typeof versionRefInputSchema>;

/** One version's record; null when it is not kept, or the document is missing or someone else's (GraphQL `documentVersion`). */
export async function getVersion(deps: DocsDeps, ctx: RequestContext, { id, version }: VersionRef): Promise<DocumentVersion | null> {
  const ownerId = owner(ctx, "read");
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
