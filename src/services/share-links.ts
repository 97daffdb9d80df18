// Share links: a random token that reads one document or spreadsheet without the owner's
// credential. Only its hash is stored; the link is shown once, on creation. Creating, listing and
// revoking are the lifecycle's (./lifecycle.ts); what a token reads is here: it is looked up once,
// then its document's text (or .docx) or its spreadsheet's record and a range (or .xlsx) is read.
import { createHash, randomBytes } from "node:crypto";
import { monotonicFactory } from "ulid";
import type { z } from "zod";
import type { RequestContext } from "../core/context.ts";
import { notFound } from "../core/errors.ts";
import type { DocumentShare } from "../contract/documents.ts";
import type { StoredDownload } from "../contract/files.ts";
import type { readSharedAnyInputSchema, sharedReadSchema } from "../contract/spreadsheets.ts";
import type { ShareKind, ShareRecord, KindRecord, Store } from "../store/types.ts";
import type { DocumentsService } from "./documents.ts";
import type { SpreadsheetsService } from "./spreadsheets/index.ts";

/** wgs_ + 32 random bytes, base64url: what a share link's last segment must look like. */
const TOKEN_PATTERN = /^wgs_[A-Za-z0-9_-]{43}$/;
const shareUlid = monotonicFactory();

const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex");
export const publicShare = ({ id, createdAt, expiresAt }: ShareRecord): DocumentShare => ({ id, createdAt, expiresAt });
export const linkNotFound = () => notFound("Share link");
/** The ids newShare issues: anything else is no one's share (and never reaches the store). */
export const isShareId = (id: string): boolean => /^shr_[0-9A-HJKMNP-TV-Z]{26}$/.test(id);

/** A new link to `targetId`: stored by its token's hash; the url (with the token) is for the caller, once. */
export async function newShare(
  store: Pick<Store, "insertShare">,
  target: { kind: ShareKind; targetId: string; ownerId: string },
  expiresInSeconds: number,
  publicUrl: string,
): Promise<DocumentShare & { url: string }> {
  const token = `wgs_${randomBytes(32).toString("base64url")}`;
  const now = new Date();
  const share = {
    id: `shr_${shareUlid()}`,
    ...target,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + expiresInSeconds * 1000).toISOString(),
  };
  await store.insertShare({ ...share, tokenHash: hashToken(token) });
  return { ...publicShare(share), url: `${publicUrl}/api/v1/shared/${token}` };
}

/** The live document or spreadsheet a link reads; NOT_FOUND for an unknown, revoked or expired link. */
async function shareTarget(store: Pick<Store, "findShare">, token: string): Promise<KindRecord> {
  if (!TOKEN_PATTERN.test(token)) throw linkNotFound();
  const found = await store.findShare(hashToken(token), new Date().toISOString());
  if (!found) throw linkNotFound();
  return found.target;
}

export type SharedService = ReturnType<typeof createSharedService>;
/** What the services across kinds (share links, the trash: ./items.ts) dispatch to: each kind's service, and the store. */
export type KindServices = { store: Store; documents: DocumentsService; sheets: SpreadsheetsService };

export function createSharedService({ store, documents, sheets }: KindServices) {
  return {
    async read(ctx: RequestContext, input: z.output<typeof readSharedAnyInputSchema>): Promise<z.output<typeof sharedReadSchema>> {
      const { kind, record } = await shareTarget(store, input.token);
      return kind === "workbook" ? sheets.readShared(ctx, record, input) : documents.readShared(ctx, record, input);
    },
    async download(_ctx: RequestContext, { token }: { token: string }): Promise<StoredDownload> {
      const { kind, record } = await shareTarget(store, token);
      return kind === "workbook" ? sheets.downloadShared(record) : documents.downloadShared(record);
    },
  };
}
