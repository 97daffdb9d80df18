// Share links: a random token that reads one document (text, markdown, download) without the
// owner's credential. Only its hash is stored; the link is shown once, on creation.
import { createHash, randomBytes } from "node:crypto";
import { monotonicFactory } from "ulid";
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
import type { DocumentRecord, ShareRecord, Store } from "../store/types.ts";
import { readAllowance, readBody, reader, textOf, writer } from "./document-access.ts";

const TOKEN_PREFIX = "wgs_";
/** wgs_ + 32 random bytes, base64url: what a share link's last segment must look like. */
const TOKEN_PATTERN = /^wgs_[A-Za-z0-9_-]{43}$/;
const newShareId = (() => {
  const ulid = monotonicFactory();
  return () => `shr_${ulid()}`;
})();
const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex");
const publicShare = (share: ShareRecord): DocumentShare => ({ id: share.id, createdAt: share.createdAt, expiresAt: share.expiresAt });
const linkNotFound = () => notFound("Share link");
/** The ids newShareId issues: anything else is no one's share (and never reaches the store). */
const isShareId = (id: string): boolean => /^shr_[0-9A-HJKMNP-TV-Z]{26}$/.test(id);

export interface SharesService {
  share(ctx: RequestContext, input: CreateShareInput): Promise<CreatedShare>;
  /** The document's valid shares (never their tokens). */
  shares(ctx: RequestContext, input: DocumentRefInput): Promise<{ shares: DocumentShare[] }>;
  revokeShare(ctx: RequestContext, input: RevokeShareInput): Promise<void>;
  /** The current version's text through a share link: no credential, the token is one. */
  readShared(ctx: RequestContext, input: ReadSharedInput): Promise<DocumentText>;
  downloadShared(ctx: RequestContext, token: string): Promise<{ name: string; docx: Uint8Array; version: number }>;
}

export function createSharesService(deps: { store: Store; renderer: DocumentRenderer; publicUrl: string }): SharesService {
  const { store, renderer } = deps;

  /** The live document a share link reads (a link to a spreadsheet is not one of these). */
  async function findShare(token: string): Promise<{ document: DocumentRecord }> {
    if (!TOKEN_PATTERN.test(token)) throw linkNotFound();
    const found = await store.findShare(hashToken(token), new Date().toISOString());
    if (found?.target.kind !== "document") throw linkNotFound();
    return { document: found.target.record };
  }

  return {
    async share(ctx, input) {
      const ownerId = writer(ctx);
      const { id, expiresInSeconds } = parseInput(createShareInputSchema, input);
      const document = isDocumentId(id) ? await store.getDocument(ownerId, id) : null;
      if (!document) throw notFound("Document");
      const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
      const now = new Date();
      const share = {
        id: newShareId(),
        kind: "document" as const,
        targetId: id,
        ownerId,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + expiresInSeconds * 1000).toISOString(),
      };
      await store.insertShare({ ...share, tokenHash: hashToken(token) });
      ctx.log.info({ documentId: id, shareId: share.id, expiresAt: share.expiresAt }, "share link created");
      return { ...publicShare(share), url: `${deps.publicUrl}/api/v1/shared/${token}` };
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

    async readShared(ctx, input) {
      const { token, maxChars, format } = parseInput(readSharedInputSchema, input);
      const { document } = await findShare(token);
      const found = await store.readText(document.ownerId, document.id, format, readAllowance(ctx, maxChars));
      if (!found) throw linkNotFound();
      const docx = async () => (await store.readContent(document.ownerId, document.id))?.docx ?? null;
      const text = await textOf(ctx, renderer, found, docx, document.ownerId);
      return readBody(ctx, found.document, found.document.version, text, format, maxChars);
    },

    async downloadShared(_ctx, token) {
      const { document } = await findShare(token);
      const found = await store.readContent(document.ownerId, document.id);
      if (!found) throw linkNotFound();
      return { name: found.document.name, docx: found.docx, version: found.document.version };
    },
  };
}
