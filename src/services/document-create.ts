// Creating a document once: the render (or a .docx's extraction) and the store's insert with its
// idempotency record, so that a retry with the same key answers the first document.
import { monotonicFactory } from "ulid";
import type { RequestContext } from "../core/context.ts";
import { GatewayError } from "../core/errors.ts";
import { DOCX_UPLOAD_LIMIT_BYTES } from "../documents/import/limits.ts";
import { cancelled, type DocumentRenderer } from "../documents/renderer.ts";
import type { DocumentSummary } from "../contract/documents.ts";
import type { DocumentContent, DocumentRecord, Store } from "../store/types.ts";
import { actorOf, idempotentSince } from "./lifecycle.ts";

const newDocumentId = (() => {
  const ulid = monotonicFactory();
  return () => `doc_${ulid()}`;
})();

/**
 * The markdown as stored. CommonMark replaces U+0000 with U+FFFD before parsing, so this is the
 * same document; PostgreSQL text cannot hold NUL (a 500 there), SQLite can: both now store alike.
 */
export const storedMarkdown = (markdown: string): string =>
  markdown.includes("\u0000") ? markdown.replaceAll("\u0000", "\uFFFD") : markdown;

/** A .docx the caller uploaded (import, or new content). */
export interface UploadedDocx {
  bytes: Uint8Array;
  /** The file's own name, the default document name on import. */
  filename?: string | undefined;
}

export interface CreateDeps {
  store: Store;
  summary: (record: DocumentRecord) => DocumentSummary;
}

/** Text and markdown of an uploaded .docx, validated and extracted in the render pool. */
export async function fromDocx(
  renderer: DocumentRenderer,
  ctx: RequestContext,
  ownerId: string,
  file: UploadedDocx,
): Promise<DocumentContent> {
  if (file.bytes.byteLength > DOCX_UPLOAD_LIMIT_BYTES) {
    throw new GatewayError("PAYLOAD_TOO_LARGE", `The file is over the ${DOCX_UPLOAD_LIMIT_BYTES}-byte limit`, {
      details: { limit: DOCX_UPLOAD_LIMIT_BYTES },
    });
  }
  // What is stored is the package the pool wrote anew from what it checked, never the upload's bytes.
  const { text, markdown, docx } = await renderer.extract(file.bytes, { signal: ctx.signal, principal: ownerId });
  if (ctx.signal.aborted) throw cancelled();
  // U+0000 (a raw NUL or &#0;) is not allowed in XML, so the package is not a well-formed .docx;
  // stored, it would be a 500 on PostgreSQL, whose text cannot hold NUL.
  if (text.includes("\u0000") || markdown.includes("\u0000")) {
    throw new GatewayError(
      "UNSUPPORTED_MEDIA_TYPE",
      "The upload is not a .docx document that can be imported: its XML contains U+0000, which XML does not allow",
    );
  }
  return { docx, text, markdown };
}

/** Creates a document, or answers with the one an earlier request with the same key created. */
export async function createOnce(
  deps: CreateDeps,
  ctx: RequestContext,
  ownerId: string,
  name: string,
  idempotencyKey: string | undefined,
  fingerprintOf: () => string,
  content: () => Promise<DocumentContent>,
  source: "markdown" | "docx",
): Promise<{ document: DocumentSummary; replayed: boolean }> {
  const { store, summary } = deps;
  const now = new Date();
  const claim = idempotencyKey
    ? { key: idempotencyKey, fingerprint: fingerprintOf(), notBefore: idempotentSince(now.getTime()) }
    : undefined;

  // docs/api.md "REST documents interface": a key already used answers with the first result,
  // whatever this body says: the record the first request answered, as the store kept it (records
  // kept before answers were: the document as it is now). The fingerprint only tells the log that
  // a caller reused a key for a different document.
  const replay = async (documentId: string, fingerprint: string, first: DocumentRecord | null) => {
    if (fingerprint !== claim?.fingerprint) {
      ctx.log.info({ documentId }, "idempotency key reused with a different body; replaying the first result");
    }
    // The first document may be in the trash by now: the replay still names it.
    const record = first ?? (await store.documents.get(ownerId, documentId, { includeDeleted: true }));
    if (!record) throw new GatewayError("INTERNAL", "Idempotency record points to a missing document");
    return { document: summary(record), replayed: true };
  };

  if (claim) {
    const hit = await store.findIdempotent(ownerId, claim.key, claim.notBefore);
    if (hit) return replay(hit.targetId, hit.fingerprint, hit.response as DocumentRecord | null);
  }
  // The render is bounded in time and memory, fair across owners, and stops when the caller
  // goes away (docs/rendering-limits.md); a render that fails stores nothing.
  const body = await content();
  // The caller may have gone away while the last bytes came back: nothing is stored for it.
  if (ctx.signal.aborted) throw cancelled();
  // Version 1's author is the user, as every later version's (actorOf), never the owner key.
  const created = { id: newDocumentId(), ownerId, name, createdAt: now.toISOString(), createdBy: actorOf(ctx), ...body, source };
  const result = await store.documents.create(created, claim);
  // A concurrent request with the same key won the race: answer with its first record.
  if (result.replayed) return replay(result.record.id, result.fingerprint, result.record);
  ctx.log.info({ documentId: result.record.id, sizeBytes: result.record.sizeBytes, source }, "document created");
  return { document: summary(result.record), replayed: false };
}
