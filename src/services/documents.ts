// Documents operations: the one implementation REST, GraphQL, tRPC and MCP call.
// Scopes, validation, limits, paging and idempotency live here and nowhere else.
import { createHash } from "node:crypto";
import { monotonicFactory } from "ulid";
import { requireOwner, requireScope } from "../auth/authenticate.ts";
import { memoize, type RequestContext } from "../core/context.ts";
import { GatewayError, notFound } from "../core/errors.ts";
import { parseInput } from "../core/validate.ts";
import { cancelled, type DocumentRenderer } from "../documents/renderer.ts";
import {
  createDocumentInputSchema,
  getDocumentInputSchema,
  isDocumentId,
  listDocumentsInputSchema,
  readDocumentInputSchema,
  type CreateDocumentInput,
  type DocumentList,
  type DocumentSummary,
  type DocumentText,
  type GetDocumentInput,
  type ListDocumentsInput,
  type ReadDocumentInput,
} from "../documents/schemas.ts";
import { foldName, type DocumentRecord, type DocumentStore } from "../documents/store/types.ts";

const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Characters of document text one request may read, whatever the surface: five full-size reads.
 * GraphQL's cost limit cannot see `first` or `maxChars`, so 20 aliased lists of 100 documents'
 * text would otherwise build a response of billions of characters.
 */
export const TEXT_PER_REQUEST = 5_000_000;
const TEXT_READ = Symbol("text-read");
const CURSOR_PREFIX = "c1.";
const newDocumentId = (() => {
  const ulid = monotonicFactory();
  return () => `doc_${ulid()}`;
})();

/** `base` is PUBLIC_URL (absolute links) or "" (paths, as CONTRACT §4 shows them); see docs/configuration.md. */
export function toSummary(record: DocumentRecord, base = ""): DocumentSummary {
  const url = `${base}/api/v1/documents/${record.id}`;
  return {
    id: record.id,
    name: record.name,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    sizeBytes: record.sizeBytes,
    characters: record.characters,
    url,
    downloadUrl: `${url}/content`,
  };
}

export const encodeCursor = (id: string): string => CURSOR_PREFIX + Buffer.from(id).toString("base64url");

/** The document id a list cursor stands for; `field` is the name the caller gave it (REST `cursor`, GraphQL `after`). */
export function decodeCursor(cursor: string, field = "cursor"): string {
  const id = cursor.startsWith(CURSOR_PREFIX) ? Buffer.from(cursor.slice(CURSOR_PREFIX.length), "base64url").toString() : "";
  if (!isDocumentId(id)) throw new GatewayError("BAD_USER_INPUT", `${field}: not a cursor this API issued`);
  return id;
}

/** Cuts at most `max` UTF-16 units without splitting a surrogate pair. */
function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

export interface DocumentsService {
  list(ctx: RequestContext, input: ListDocumentsInput): Promise<DocumentList>;
  /** One document's summary, or null when missing or someone else's (GraphQL `document`). */
  get(ctx: RequestContext, input: GetDocumentInput): Promise<DocumentSummary | null>;
  read(ctx: RequestContext, input: ReadDocumentInput): Promise<DocumentText>;
  create(ctx: RequestContext, input: CreateDocumentInput): Promise<{ document: DocumentSummary; replayed: boolean }>;
  download(ctx: RequestContext, id: string): Promise<{ name: string; docx: Uint8Array }>;
}

export function createDocumentsService(deps: { store: DocumentStore; renderer: DocumentRenderer; publicUrl?: string }): DocumentsService {
  const { store, renderer } = deps;
  const summary = (record: DocumentRecord) => toSummary(record, deps.publicUrl);

  function reader(ctx: RequestContext): string {
    const ownerId = requireOwner(ctx.principal);
    requireScope(ctx.principal, "docs:read");
    return ownerId;
  }

  return {
    async list(ctx, input) {
      const ownerId = reader(ctx);
      const { query, limit, cursor } = parseInput(listDocumentsInputSchema, input);
      const needle = query === undefined || query === "" ? undefined : foldName(query);
      const rows = await store.listDocuments({
        ownerId,
        limit: limit + 1,
        ...(needle === undefined ? {} : { nameContains: needle }),
        ...(cursor ? { beforeId: decodeCursor(cursor) } : {}),
      });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        documents: page.map(summary),
        nextCursor: rows.length > limit && last ? encodeCursor(last.id) : null,
      };
    },

    async get(ctx, input) {
      const ownerId = reader(ctx);
      const { id } = parseInput(getDocumentInputSchema, input);
      // An id this service never issues cannot be anyone's: no store lookup for it.
      if (!isDocumentId(id)) return null;
      const record = await store.getDocument(ownerId, id);
      return record ? summary(record) : null;
    },

    async read(ctx, input) {
      const ownerId = reader(ctx);
      const { id, maxChars } = parseInput(readDocumentInputSchema, input);
      const found = isDocumentId(id) ? await store.readText(ownerId, id) : null;
      if (!found) throw notFound("Document");
      const text = truncateText(found.text, maxChars);
      const read = memoize(ctx, TEXT_READ, () => ({ chars: 0 }));
      if (read.chars + text.length > TEXT_PER_REQUEST) {
        throw new GatewayError(
          "PAYLOAD_TOO_LARGE",
          `One request may read at most ${TEXT_PER_REQUEST} characters of document text; ask for fewer documents or a smaller maxChars`,
          { details: { limit: TEXT_PER_REQUEST } },
        );
      }
      read.chars += text.length;
      const { document } = found;
      return {
        id: document.id,
        name: document.name,
        createdAt: document.createdAt,
        updatedAt: document.updatedAt,
        text,
        truncated: text.length < found.text.length,
        totalChars: found.text.length,
      };
    },

    async create(ctx, input) {
      const ownerId = requireOwner(ctx.principal);
      requireScope(ctx.principal, "docs:write");
      const { name, markdown, idempotencyKey } = parseInput(createDocumentInputSchema, input);
      const now = new Date();
      const claim = idempotencyKey
        ? {
            key: idempotencyKey,
            fingerprint: createHash("sha256").update(name).update("\0").update(markdown).digest("hex"),
            notBefore: new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString(),
          }
        : undefined;

      // docs/api.md "REST documents interface": a key already used answers with the first result, whatever this body says. The
      // fingerprint only tells the log that a caller reused a key for a different document.
      const replay = async (documentId: string, fingerprint: string) => {
        if (fingerprint !== claim?.fingerprint) {
          ctx.log.info({ documentId }, "idempotency key reused with a different body; replaying the first result");
        }
        const record = await store.getDocument(ownerId, documentId);
        if (!record) throw new GatewayError("INTERNAL", "Idempotency record points to a missing document");
        return { document: summary(record), replayed: true };
      };

      if (claim) {
        const hit = await store.findIdempotent(ownerId, claim.key, claim.notBefore);
        if (hit) return replay(hit.documentId, hit.fingerprint);
      }

      // The render is bounded in time and memory, fair across owners, and stops when the caller
      // goes away (docs/rendering-limits.md); a render that fails stores nothing.
      const rendered = await renderer.render(markdown, name, { signal: ctx.signal, principal: ownerId });
      // The caller may have gone away while the last bytes came back: nothing is stored for it.
      if (ctx.signal.aborted) throw cancelled();
      const result = await store.createDocument(
        { id: newDocumentId(), ownerId, name, createdAt: now.toISOString(), docx: rendered.docx, text: rendered.text },
        claim,
      );
      // A concurrent request with the same key won the race: answer with its document.
      if (result.replayed) return replay(result.document.id, result.fingerprint);
      ctx.log.info({ documentId: result.document.id, sizeBytes: result.document.sizeBytes }, "document created");
      return { document: summary(result.document), replayed: false };
    },

    async download(ctx, id) {
      const ownerId = reader(ctx);
      const found = isDocumentId(id) ? await store.readContent(ownerId, id) : null;
      if (!found) throw notFound("Document");
      return { name: found.document.name, docx: found.docx };
    },
  };
}
