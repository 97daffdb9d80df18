// Documents operations: the one implementation REST, GraphQL, tRPC and MCP call.
// Scopes, validation, limits, paging, idempotency and preconditions live here and nowhere else;
// versions, trash and shares are in their own files (document-*.ts) and composed below.
import { createHash } from "node:crypto";
import { monotonicFactory } from "ulid";
import type { RequestContext } from "../core/context.ts";
import { GatewayError, notFound } from "../core/errors.ts";
import { parseInput } from "./validate.ts";
import { DOCX_UPLOAD_LIMIT_BYTES } from "../documents/import/limits.ts";
import { cancelled, type DocumentRenderer } from "../documents/renderer.ts";
import {
  createDocumentInputSchema,
  deleteDocumentInputSchema,
  getDocumentInputSchema,
  importDocumentInputSchema,
  isDocumentId,
  listDocumentsInputSchema,
  readDocumentInputSchema,
  renameDocumentInputSchema,
  replaceFromDocxInputSchema,
  updateDocumentInputSchema,
  type CreateDocumentInput,
  type DeleteDocumentInput,
  type DocumentList,
  type DocumentSummary,
  type DocumentText,
  type GetDocumentInput,
  type ListDocumentsInput,
  type ReadDocumentInput,
  type RenameDocumentInput,
  type UpdateDocumentInput,
} from "../contract/documents.ts";
import { foldName, type DocumentContent, type DocumentRecord, type Store } from "../store/types.ts";
import {
  actorOf,
  changed,
  decodeCursor,
  encodeCursor,
  page,
  precheck,
  readAllowance,
  readBody,
  reader,
  textOf,
  toSummary,
  writer,
  writeVersion,
} from "./document-access.ts";
import { createSharesService, type SharesService } from "./document-shares.ts";
import { createTrashService, type TrashService } from "./document-trash.ts";
import { createVersionsService, type VersionsService } from "./document-versions.ts";

export { decodeCursor, encodeCursor, etagOf, TEXT_PER_REQUEST, toSummary } from "./document-access.ts";
export { DOCX_UPLOAD_LIMIT_BYTES };

const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const newDocumentId = (() => {
  const ulid = monotonicFactory();
  return () => `doc_${ulid()}`;
})();

/**
 * The markdown as stored. CommonMark replaces U+0000 with U+FFFD before parsing, so this is the
 * same document; PostgreSQL text cannot hold NUL (a 500 there), SQLite can: both now store alike.
 */
const storedMarkdown = (markdown: string): string => (markdown.includes("\u0000") ? markdown.replaceAll("\u0000", "\uFFFD") : markdown);

/** A .docx the caller uploaded (import, or new content). */
export interface UploadedDocx {
  bytes: Uint8Array;
  /** The file's own name, the default document name on import. */
  filename?: string | undefined;
}

/** A downloadable .docx: the document's name, its bytes, and the version they are. */
export interface Download {
  name: string;
  docx: Uint8Array;
  version: number;
}

export interface DocumentsService extends VersionsService, TrashService, SharesService {
  list(ctx: RequestContext, input: ListDocumentsInput): Promise<DocumentList>;
  /** One document's summary, or null when missing or someone else's (GraphQL `document`). */
  get(ctx: RequestContext, input: GetDocumentInput): Promise<DocumentSummary | null>;
  read(ctx: RequestContext, input: ReadDocumentInput): Promise<DocumentText>;
  create(ctx: RequestContext, input: CreateDocumentInput): Promise<{ document: DocumentSummary; replayed: boolean }>;
  /** A new document from an uploaded .docx; its text and markdown are extracted from the file. */
  import(
    ctx: RequestContext,
    input: { name?: string | undefined; idempotencyKey?: string | undefined },
    file: UploadedDocx,
  ): Promise<{ document: DocumentSummary; replayed: boolean }>;
  download(ctx: RequestContext, id: string): Promise<Download>;
  /** New content from markdown (and/or a new name): the next version. */
  update(ctx: RequestContext, input: UpdateDocumentInput): Promise<DocumentSummary>;
  /** New content from an uploaded .docx (and optionally a new name): the next version. */
  updateFromDocx(
    ctx: RequestContext,
    input: { id: string; name?: string | undefined; expectedVersion?: number | undefined },
    file: UploadedDocx,
  ): Promise<DocumentSummary>;
  rename(ctx: RequestContext, input: RenameDocumentInput): Promise<DocumentSummary>;
  /** Moves the document to the trash. */
  delete(ctx: RequestContext, input: DeleteDocumentInput): Promise<void>;
}

export interface DocumentsServiceDeps {
  store: Store;
  renderer: DocumentRenderer;
  publicUrl?: string;
}

export function createDocumentsService(deps: DocumentsServiceDeps): DocumentsService {
  const { store, renderer } = deps;
  const summary = (record: DocumentRecord) => toSummary(record, deps.publicUrl);

  /** Text and markdown of an uploaded .docx, validated and extracted in the render pool. */
  async function fromDocx(ctx: RequestContext, ownerId: string, file: UploadedDocx): Promise<DocumentContent> {
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
  async function createOnce(
    ctx: RequestContext,
    ownerId: string,
    name: string,
    idempotencyKey: string | undefined,
    fingerprintOf: () => string,
    content: () => Promise<DocumentContent>,
    source: "markdown" | "docx",
  ): Promise<{ document: DocumentSummary; replayed: boolean }> {
    const now = new Date();
    const claim = idempotencyKey
      ? { key: idempotencyKey, fingerprint: fingerprintOf(), notBefore: new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString() }
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
      const record = first ?? (await store.getDocument(ownerId, documentId, { includeDeleted: true }));
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
    const result = await store.createDocument(created, claim);
    // A concurrent request with the same key won the race: answer with its first record.
    if (result.replayed) return replay(result.document.id, result.fingerprint, result.document);
    ctx.log.info({ documentId: result.document.id, sizeBytes: result.document.sizeBytes, source }, "document created");
    return { document: summary(result.document), replayed: false };
  }

  const shared = { store, renderer, summary };
  const core: Omit<DocumentsService, keyof VersionsService | keyof TrashService | keyof SharesService> = {
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
      const { items, nextCursor } = page(rows, limit, (last) => encodeCursor(last.id));
      return { documents: items.map(summary), nextCursor };
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
      const { id, maxChars, format } = parseInput(readDocumentInputSchema, input);
      // Cut in the store: no more than maxChars (or what the request's budget has left) is read.
      const found = isDocumentId(id) ? await store.readText(ownerId, id, format, readAllowance(ctx, maxChars)) : null;
      if (!found) throw notFound("Document");
      const text = await textOf(ctx, renderer, found, async () => (await store.readContent(ownerId, id))?.docx ?? null, ownerId);
      return readBody(ctx, found.document, found.document.version, text, format, maxChars);
    },

    async create(ctx, input) {
      const ownerId = writer(ctx);
      const { name, markdown, idempotencyKey } = parseInput(createDocumentInputSchema, input);
      return createOnce(
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
      const { name, idempotencyKey } = parseInput(importDocumentInputSchema, {
        ...input,
        ...(input.name === undefined && defaultName ? { name: defaultName } : {}),
      });
      return createOnce(
        ctx,
        ownerId,
        name,
        idempotencyKey,
        () => createHash("sha256").update("docx\0").update(name).update("\0").update(file.bytes).digest("hex"),
        () => fromDocx(ctx, ownerId, file),
        "docx",
      );
    },

    async download(ctx, id) {
      const ownerId = reader(ctx);
      const found = isDocumentId(id) ? await store.readContent(ownerId, id) : null;
      if (!found) throw notFound("Document");
      return { name: found.document.name, docx: found.docx, version: found.document.version };
    },

    async update(ctx, input) {
      const ownerId = writer(ctx);
      const { id, markdown, name, expectedVersion } = parseInput(updateDocumentInputSchema, input);
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

    async updateFromDocx(ctx, input, file) {
      const ownerId = writer(ctx);
      const { id, name, expectedVersion } = parseInput(replaceFromDocxInputSchema, input);
      precheck(isDocumentId(id) ? await store.getDocument(ownerId, id) : null, expectedVersion);
      const content = await fromDocx(ctx, ownerId, file);
      const record = await writeVersion(store, ctx, { ownerId, id, expectedVersion, name, content, source: "docx" });
      ctx.log.info({ documentId: id, version: record.version }, "document replaced from a .docx");
      return summary(record);
    },

    async rename(ctx, input) {
      const ownerId = writer(ctx);
      const { id, name, expectedVersion } = parseInput(renameDocumentInputSchema, input);
      if (!isDocumentId(id)) throw notFound("Document");
      const record = await writeVersion(store, ctx, { ownerId, id, expectedVersion, name, source: "rename" });
      return summary(record);
    },

    async delete(ctx, input) {
      const ownerId = writer(ctx);
      const { id, expectedVersion } = parseInput(deleteDocumentInputSchema, input);
      if (!isDocumentId(id)) throw notFound("Document");
      changed(await store.trashDocument({ ownerId, id, at: new Date().toISOString(), expectedVersion }));
      ctx.log.info({ documentId: id }, "document moved to the trash");
    },
  };

  return {
    ...core,
    ...createVersionsService(shared),
    ...createTrashService(shared),
    ...createSharesService({ ...shared, publicUrl: deps.publicUrl ?? "" }),
  };
}
