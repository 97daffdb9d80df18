// A document's history: every change keeps the previous content as a version, which can be read,
// downloaded and restored as the newest (docs/api.md "Living documents"); the list is the
// lifecycle's (documents.ts).
import type { z } from "zod";
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import type { DocumentRenderer } from "../documents/renderer.ts";
import {
  isDocumentId,
  type readVersionInputSchema,
  type restoreVersionInputSchema,
  type versionRefInputSchema,
  type DocumentSummary,
  type DocumentText,
  type DocumentVersion,
} from "../contract/documents.ts";
import type { DocumentRecord, Store } from "../store/types.ts";
import { readAllowance, readBody, reader, textOf, writer, writeVersion } from "./document-access.ts";

type VersionRef = z.output<typeof versionRefInputSchema>;

export interface VersionsService {
  /** One version's record; null when it is not kept, or the document is missing or someone else's (GraphQL `documentVersion`). */
  version(ctx: RequestContext, input: VersionRef): Promise<DocumentVersion | null>;
  readVersion(ctx: RequestContext, input: z.output<typeof readVersionInputSchema>): Promise<DocumentText>;
  downloadVersion(ctx: RequestContext, input: VersionRef): Promise<{ name: string; docx: Uint8Array; version: number }>;
  /** Version n's content as a new version (the name stays the current one). */
  restoreVersion(ctx: RequestContext, input: z.output<typeof restoreVersionInputSchema>): Promise<DocumentSummary>;
}

export function createVersionsService(deps: {
  store: Store;
  renderer: DocumentRenderer;
  summary: (record: DocumentRecord) => DocumentSummary;
}): VersionsService {
  const { store, renderer } = deps;
  return {
    async version(ctx, { id, version }) {
      const ownerId = reader(ctx);
      if (!isDocumentId(id)) return null;
      // The history page that starts at this version: one lookup, the current version included.
      const rows = await store.listVersions({ ownerId, id, beforeVersion: version + 1, limit: 1 });
      return rows?.[0]?.version === version ? rows[0] : null;
    },

    async readVersion(ctx, { id, version, maxChars, format }) {
      const ownerId = reader(ctx);
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

    async downloadVersion(ctx, { id, version }) {
      const ownerId = reader(ctx);
      const found = isDocumentId(id) ? await store.readVersionContent(ownerId, id, version) : null;
      if (!found) throw notFound("Version");
      return { name: found.version.name, docx: found.docx, version };
    },

    async restoreVersion(ctx, { id, version, expectedVersion }) {
      const ownerId = writer(ctx);
      const content = isDocumentId(id) ? await store.readVersionData(ownerId, id, version) : null;
      if (!content) throw notFound("Version");
      const record = await writeVersion(store, ctx, { ownerId, id, expectedVersion, content, source: "restore" });
      ctx.log.info({ documentId: id, restored: version, version: record.version }, "document version restored");
      return deps.summary(record);
    },
  };
}
