// What every documents operation shares: who may read or write, the public shape of a record,
// cursors, the read body, and the errors a conditional write ends in.
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import { idCursors, versionCursors as versionCursorsOf } from "../core/paging.ts";
import { chargeRead, readLeft } from "../core/read-budget.ts";
import type { DocumentRenderer } from "../documents/renderer.ts";
import { isDocumentId, type DocumentSummary, type DocumentText } from "../contract/documents.ts";
import type { DocumentChange, DocumentRecord, Store, TextFormat, VersionRecord } from "../store/types.ts";
import { changeAsCaller, kindRules, type ServiceKind } from "./lifecycle.ts";

/** What the document operations work with. */
export interface DocsDeps {
  store: Store;
  renderer: DocumentRenderer;
  /** A record as callers see it (links under PUBLIC_URL). */
  summary: (record: DocumentRecord) => DocumentSummary;
}

/** A downloadable .docx: the document's name, its bytes, and the version they are. */
export interface Download {
  name: string;
  docx: Uint8Array;
  version: number;
}

/** `base` is PUBLIC_URL (absolute links) or "" (paths, as docs/api.md shows them); see docs/configuration.md. */
export function toSummary(record: DocumentRecord, base = ""): DocumentSummary {
  const url = `${base}/api/v1/documents/${record.id}`;
  return {
    id: record.id,
    name: record.name,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    sizeBytes: record.sizeBytes,
    characters: record.characters,
    version: record.version,
    url,
    downloadUrl: `${url}/content`,
  };
}

/** Document lists (live and trash): the position is the last document's id. */
const documentCursors = idCursors("c1.", isDocumentId);
export const encodeCursor = documentCursors.encode;

/** A document's versions: the position is the last version's number. */
const versionCursors = versionCursorsOf("v2.");
export const encodeVersionCursor = versionCursors.encode;

/** Cuts at most `max` UTF-16 units without splitting a surrogate pair. */
function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * How many characters a read may ask the store for: maxChars, or one more than what is left of
 * the request's read budget (enough to tell that it is over), so a read never fetches past it.
 */
export function readAllowance(ctx: RequestContext, maxChars: number): number {
  return Math.max(1, Math.min(maxChars, readLeft(ctx) + 1));
}

/** A text as the store cut it (at most the allowance), or derived whole, and its whole length. */
export interface ReadText {
  text: string;
  totalChars: number;
}

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
  const text = truncateText(found.text, maxChars);
  return {
    id: document.id,
    name: document.name,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
    version,
    format,
    text,
    truncated: text.length < found.totalChars,
    totalChars: found.totalChars,
  };
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

/** Writes the next version of a live document as the caller, now; a stale expectedVersion is 412 and writes nothing. */
export async function writeVersion(
  store: Pick<Store, "documents">,
  ctx: RequestContext,
  change: Omit<DocumentChange, "actorId" | "at">,
): Promise<DocumentRecord> {
  return changed(await changeAsCaller(store.documents, ctx, change));
}

/** Documents as the one service lifecycle (./lifecycle.ts) sees them. */
export const documentItems: ServiceKind<DocumentRecord, VersionRecord> = {
  noun: "Document",
  scope: "docs",
  share: "document",
  logKey: "documentId",
  isId: isDocumentId,
  cursors: documentCursors,
  versionCursors,
  items: (store) => store.documents,
};

/** Who may (docs:read, docs:write), what a failed write answers: the rules of ./lifecycle.ts. */
const rules = kindRules<DocumentRecord>(documentItems);
export const { changed, precheck } = rules;
export const reader = (ctx: RequestContext): string => rules.owner(ctx, "read");
export const writer = (ctx: RequestContext): string => rules.owner(ctx, "write");
