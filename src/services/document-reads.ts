// Reading documents: one record, its text or markdown (cut in the store) in the read body every
// text read answers (a version's too: document-versions.ts), its .docx, and the same through a
// share link (./share-links.ts found its document). The list is the lifecycle's (documents.ts).
import type { z } from "zod";
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import { chargeRead, readLeft } from "../core/read-budget.ts";
import type { DocumentRenderer } from "../documents/renderer.ts";
import {
  isDocumentId,
  type getDocumentInputSchema,
  type readDocumentInputSchema,
  type DocumentSummary,
  type DocumentText,
} from "../contract/documents.ts";
import type { StoredDownload } from "../contract/files.ts";
import type { DocumentRecord, TextFormat } from "../store/types.ts";
import { docxFile, owner, type DocsDeps } from "./document-access.ts";
import { fitUtf16 } from "../store/content.ts";
import { linkNotFound } from "./share-links.ts";

/**
 * How many characters a read may ask the store for: maxChars, or one more than what is left of
 * the request's read budget (enough to tell that it is over), so a read never fetches past it.
 */
export function readAllowance(ctx: RequestContext, maxChars: number): number {
  return Math.max(1, Math.min(maxChars, readLeft(ctx) + 1));
}

/** A text as the store cut it (at most the allowance), or derived whole, and its whole length. */
type ReadText = { text: string; totalChars: number };

/**
 * The read body of a document (or of one of its versions): the text cut to maxChars, the
 * characters actually read counted against the request's read budget (REQUEST_READ_BUDGET_CHARS).
 */
export function readBody(
  ctx: RequestContext,
  document: DocumentRecord,
  version: number,
  found: ReadText,
  format: TextFormat,
  maxChars: number,
): DocumentText {
  // What the store read (cut to the allowance) counts; PAYLOAD_TOO_LARGE once over the budget.
  chargeRead(ctx, found.text.length, maxChars);
  const text = fitUtf16(found.text, maxChars);
  const { id, name, createdAt, updatedAt } = document;
  return { id, name, createdAt, updatedAt, version, format, text, truncated: text.length < found.totalChars, totalChars: found.totalChars };
}

/**
 * The text of a read as the store cut it. Documents made before markdown was stored have none:
 * it is derived from the .docx (in the render pool), as for an uploaded file, and cut here.
 */
export async function textOf(
  ctx: RequestContext,
  renderer: DocumentRenderer,
  found: { text: string | null; totalChars: number | null },
  docx: () => Promise<Uint8Array | null>,
  ownerId: string,
): Promise<ReadText> {
  if (found.text !== null) return { text: found.text, totalChars: found.totalChars ?? found.text.length };
  const bytes = await docx();
  if (!bytes) throw notFound("Document");
  const { markdown } = await renderer.extract(bytes, { signal: ctx.signal, principal: ownerId });
  return { text: markdown, totalChars: markdown.length };
}

type Ctx = RequestContext;

/** The text of a live document of `ownerId`, cut to what the request may read; null when there is none. */
async function readOf({ store, renderer }: DocsDeps, ctx: Ctx, ownerId: string, id: string, maxChars: number, format: TextFormat) {
  // Cut in the store: no more than maxChars (or what the request's budget has left) is read.
  const found = isDocumentId(id) ? await store.documents.readText(ownerId, id, format, readAllowance(ctx, maxChars)) : null;
  if (!found) return null;
  const text = await textOf(ctx, renderer, found, async () => (await store.documents.readContent(ownerId, id))?.docx ?? null, ownerId);
  return readBody(ctx, found.document, found.document.version, text, format, maxChars);
}

/** One document's summary, or null when missing or someone else's (GraphQL `document`). */
export async function getDocument(
  deps: DocsDeps,
  ctx: Ctx,
  { id }: z.output<typeof getDocumentInputSchema>,
): Promise<DocumentSummary | null> {
  const ownerId = owner(ctx, "read");
  // An id this service never issues cannot be anyone's: no store lookup for it.
  if (!isDocumentId(id)) return null;
  const record = await deps.store.documents.get(ownerId, id);
  return record ? deps.summary(record) : null;
}

export async function readDocument(deps: DocsDeps, ctx: Ctx, input: z.output<typeof readDocumentInputSchema>): Promise<DocumentText> {
  const body = await readOf(deps, ctx, owner(ctx, "read"), input.id, input.maxChars, input.format);
  if (!body) throw notFound("Document");
  return body;
}

export async function downloadDocument(deps: DocsDeps, ctx: Ctx, id: string): Promise<StoredDownload> {
  const ownerId = owner(ctx, "read");
  const found = isDocumentId(id) ? await deps.store.documents.readContent(ownerId, id) : null;
  if (!found) throw notFound("Document");
  return docxFile(found.document.name, found.docx, found.document.version);
}

/** The current version's text through a share link: no credential, the token is one. */
export async function readShared(deps: DocsDeps, ctx: Ctx, document: DocumentRecord, input: { maxChars: number; format: TextFormat }) {
  const body = await readOf(deps, ctx, document.ownerId, document.id, input.maxChars, input.format);
  if (!body) throw linkNotFound();
  return body;
}

export async function downloadShared(deps: DocsDeps, document: DocumentRecord): Promise<StoredDownload> {
  const found = await deps.store.documents.readContent(document.ownerId, document.id);
  if (!found) throw linkNotFound();
  return docxFile(found.document.name, found.docx, found.document.version);
}
