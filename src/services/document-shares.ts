// A document's share links (./share-links.ts): creating, listing and revoking them, and what a link
// reads (text, markdown, the .docx) once ./shared.ts has found its document.
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import { parseInput } from "./validate.ts";
import type { DocumentRenderer } from "../documents/renderer.ts";
import {
  createShareInputSchema,
  documentRefInputSchema,
  isDocumentId,
  readSharedInputSchema,
  revokeShareInputSchema,
  type CreatedShare,
  type CreateShareInput,
  type DocumentRefInput,
  type DocumentShare,
  type DocumentText,
  type ReadSharedInput,
  type RevokeShareInput,
} from "../contract/documents.ts";
import type { DocumentRecord, Store } from "../store/types.ts";
import { readAllowance, readBody, reader, textOf, writer } from "./document-access.ts";
import { isShareId, linkNotFound, newShare, publicShare } from "./share-links.ts";

export interface SharesService {
  share(ctx: RequestContext, input: CreateShareInput): Promise<CreatedShare>;
  /** The document's valid shares (never their tokens). */
  shares(ctx: RequestContext, input: DocumentRefInput): Promise<{ shares: DocumentShare[] }>;
  revokeShare(ctx: RequestContext, input: RevokeShareInput): Promise<void>;
  /** The current version's text through a share link (shared.ts found it): no credential, the token is one. */
  readSharedDocument(ctx: RequestContext, document: DocumentRecord, input: Omit<ReadSharedInput, "token">): Promise<DocumentText>;
  downloadSharedDocument(document: DocumentRecord): Promise<{ name: string; docx: Uint8Array; version: number }>;
}

export function createSharesService(deps: { store: Store; renderer: DocumentRenderer; publicUrl: string }): SharesService {
  const { store, renderer } = deps;

  return {
    async share(ctx, input) {
      const ownerId = writer(ctx);
      const { id, expiresInSeconds } = parseInput(createShareInputSchema, input);
      const document = isDocumentId(id) ? await store.getDocument(ownerId, id) : null;
      if (!document) throw notFound("Document");
      const share = await newShare(store, { kind: "document", targetId: id, ownerId }, expiresInSeconds, deps.publicUrl);
      ctx.log.info({ documentId: id, shareId: share.id, expiresAt: share.expiresAt }, "share link created");
      return share;
    },

    async shares(ctx, input) {
      const ownerId = reader(ctx);
      const { id } = parseInput(documentRefInputSchema, input);
      const document = isDocumentId(id) ? await store.getDocument(ownerId, id) : null;
      if (!document) throw notFound("Document");
      return { shares: (await store.listShares(ownerId, id, new Date().toISOString())).map(publicShare) };
    },

    async revokeShare(ctx, input) {
      const ownerId = writer(ctx);
      const { id, shareId } = parseInput(revokeShareInputSchema, input);
      // A document in the trash is invisible to every route until restored (docs/api.md), its shares included.
      const document = isDocumentId(id) ? await store.getDocument(ownerId, id) : null;
      if (!(document && isShareId(shareId) && (await store.deleteShare(ownerId, id, shareId)))) throw notFound("Share");
      ctx.log.info({ documentId: id, shareId }, "share link revoked");
    },

    async readSharedDocument(ctx, document, input) {
      const { maxChars, format } = parseInput(readSharedInputSchema.omit({ token: true }), input);
      const found = await store.readText(document.ownerId, document.id, format, readAllowance(ctx, maxChars));
      if (!found) throw linkNotFound();
      const docx = async () => (await store.readContent(document.ownerId, document.id))?.docx ?? null;
      const text = await textOf(ctx, renderer, found, docx, document.ownerId);
      return readBody(ctx, found.document, found.document.version, text, format, maxChars);
    },

    async downloadSharedDocument(document) {
      const found = await store.readContent(document.ownerId, document.id);
      if (!found) throw linkNotFound();
      return { name: found.document.name, docx: found.docx, version: found.document.version };
    },
  };
}
