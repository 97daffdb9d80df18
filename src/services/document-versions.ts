// A document's history: every change keeps the previous content as a version, which can be
// listed, read, downloaded and restored as the newest (docs/api.md "Living documents").
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import { parseInput } from "./validate.ts";
import type { DocumentRenderer } from "../documents/renderer.ts";
import {
  isDocumentId,
  listVersionsInputSchema,
  readVersionInputSchema,
  restoreVersionInputSchema,
  versionNumberSchema,
  type DocumentSummary,
  type DocumentText,
  type DocumentVersion,
  type DocumentVersionList,
  type ListVersionsInput,
  type ReadVersionInput,
  type RestoreVersionInput,
} from "../contract/documents.ts";
import type { DocumentRecord, Store } from "../store/types.ts";
import {
  decodeVersionCursor,
  encodeVersionCursor,
  page,
  readAllowance,
  readBody,
  reader,
  textOf,
  writer,
  writeVersion,
} from "./document-access.ts";

export interface VersionsService {
  /** Newest first, the current version included. */
  versions(ctx: RequestContext, input: ListVersionsInput): Promise<DocumentVersionList>;
  /** One version's record; null when it is not kept, or the document is missing or someone else's (GraphQL `documentVersion`). */
  version(ctx: RequestContext, input: { id: string; version: unknown }): Promise<DocumentVersion | null>;
  readVersion(ctx: RequestContext, input: ReadVersionInput): Promise<DocumentText>;
  downloadVersion(
    ctx: RequestContext,
    input: { id: string; version: unknown },
  ): Promise<{ name: string; docx: Uint8Array; version: number }>;
  /** Version n's content as a new version (the name stays the current one). */
  restoreVersion(ctx: RequestContext, input: RestoreVersionInput): Promise<DocumentSummary>;
}

export function createVersionsService(deps: {
  store: Store;
  renderer: DocumentRenderer;
  summary: (record: DocumentRecord) => DocumentSummary;
}): VersionsService {
  const { store, renderer } = deps;
  return {
    async version(ctx, input) {
      const ownerId = reader(ctx);
      const version = parseInput(versionNumberSchema, input.version);
      if (!isDocumentId(input.id)) return null;
      // The history page that starts at this version: one lookup, the current version included.
      const rows = await store.listVersions({ ownerId, id: input.id, beforeVersion: version + 1, limit: 1 });
      return rows?.[0]?.version === version ? rows[0] : null;
    },

    async versions(ctx, input) {
      const ownerId = reader(ctx);
      const { id, limit, cursor } = parseInput(listVersionsInputSchema, input);
      const rows = isDocumentId(id)
        ? await store.listVersions({ ownerId, id, limit: limit + 1, ...(cursor ? { beforeVersion: decodeVersionCursor(cursor) } : {}) })
        : null;
      if (!rows) throw notFound("Document");
      const { items, nextCursor } = page(rows, limit, (last) => encodeVersionCursor(last.version));
      return { versions: items, nextCursor };
    },

    async readVersion(ctx, input) {
      const ownerId = reader(ctx);
      const { id, version, maxChars, format } = parseInput(readVersionInputSchema, input);
      const found = isDocumentId(id) ? await store.readVersionText(ownerId, id, version, format, readAllowance(ctx, maxChars)) : null;
      if (!found) throw notFound("Version");
      const text = await textOf(
        ctx,
        renderer,
        found,
        async () => (await store.readVersionContent(ownerId, id, version))?.docx ?? null,
        ownerId,
      );
      // The body describes the document as it was at that version: its name then.
      return readBody(
        ctx,
        { ...found.document, name: found.version.name, updatedAt: found.version.createdAt },
        version,
        text,
        format,
        maxChars,
      );
    },

    async downloadVersion(ctx, input) {
      const ownerId = reader(ctx);
      const version = parseInput(versionNumberSchema, input.version);
      const found = isDocumentId(input.id) ? await store.readVersionContent(ownerId, input.id, version) : null;
      if (!found) throw notFound("Version");
      return { name: found.version.name, docx: found.docx, version };
    },

    async restoreVersion(ctx, input) {
      const ownerId = writer(ctx);
      const { id, version, expectedVersion } = parseInput(restoreVersionInputSchema, input);
      const content = isDocumentId(id) ? await store.readVersionData(ownerId, id, version) : null;
      if (!content) throw notFound("Version");
      const record = await writeVersion(store, ctx, { ownerId, id, expectedVersion, content, source: "restore" });
      ctx.log.info({ documentId: id, restored: version, version: record.version }, "document version restored");
      return deps.summary(record);
    },
  };
}
