// What every documents operation shares: who may read or write, the public shape of a record,
// cursors, the read body, and the errors a conditional write ends in.
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import { chargeRead, readLeft } from "../core/read-budget.ts";
import type { DocumentRenderer } from "../documents/renderer.ts";
import { isDocumentId, type DocumentSummary, type DocumentText } from "../contract/documents.ts";
import { DOCX_MEDIA_TYPE, type StoredDownload } from "../contract/files.ts";
import type { DocumentChange, DocumentRecord, Store, TextFormat, VersionRecord } from "../store/types.ts";
import { serviceKind, shownAs } from "./lifecycle.ts";
import { fitUtf16 } from "../store/content.ts";

/** What the document operations work with. */
export interface DocsDeps {
  store: Store;
  renderer: DocumentRenderer;
  /** A record as callers see it (links under PUBLIC_URL). */
  summary: (record: DocumentRecord) => DocumentSummary;
}

/** A .docx as every surface sends it: the document's name (at that version), its bytes, and the version they are. */
export const docxFile = (name: string, bytes: Uint8Array, version: number): StoredDownload => ({
  name,
  extension: "docx",
  contentType: DOCX_MEDIA_TYPE,
  bytes,
  version,
});

export const toSummary = (record: DocumentRecord, base = ""): DocumentSummary =>
  shownAs(record, ["id", "name", "createdAt", "updatedAt", "sizeBytes", "characters", "version"], "documents", base);

/** Documents as the one service lifecycle (./lifecycle.ts) sees them: who may (docs:read, docs:write), what a failed write answers. */
export const documentItems = serviceKind<DocumentRecord, VersionRecord, DocumentChange>({
  noun: "Document",
  scope: "docs",
  share: "document",
  store: "documents",
  isId: isDocumentId,
  cursors: ["c1.", "v2."],
});
export const { owner, precheck, write: writeVersion } = documentItems;

/**
 * How many characters a read may ask the store for: maxChars, or one more than what is left of
 * the request's read budget (enough to tell that it is over), so a read never fetches past it.
 */
export function readAllowance(ctx: RequestContext, maxChars: number): number {
  return Math.max(1, Math.min(maxChars, readLeft(ctx) + 1));
}

/** A text as the store cut it (at most the allowance), or derived whole, and its whole length. */
export type ReadText = { text: string; totalChars: number };

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
