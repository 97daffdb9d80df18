// Share links: a random token that reads one document or spreadsheet without the owner's
// credential. Only its hash is stored; the link is shown once, on creation.
import { createHash, randomBytes } from "node:crypto";
import { monotonicFactory } from "ulid";
import { notFound } from "../core/errors.ts";
import type { DocumentShare } from "../contract/documents.ts";
import type { ShareKind, ShareRecord, KindRecord, Store } from "../store/types.ts";

const TOKEN_PREFIX = "wgs_";
/** wgs_ + 32 random bytes, base64url: what a share link's last segment must look like. */
const TOKEN_PATTERN = /^wgs_[A-Za-z0-9_-]{43}$/;
const shareUlid = monotonicFactory();
const newShareId = () => `shr_${shareUlid()}`;

export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex");
export const publicShare = (share: ShareRecord): DocumentShare => ({
  id: share.id,
  createdAt: share.createdAt,
  expiresAt: share.expiresAt,
});
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
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const now = new Date();
  const share = {
    id: newShareId(),
    ...target,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + expiresInSeconds * 1000).toISOString(),
  };
  await store.insertShare({ ...share, tokenHash: hashToken(token) });
  return { ...publicShare(share), url: `${publicUrl}/api/v1/shared/${token}` };
}

/** The live document or spreadsheet a link reads; NOT_FOUND for an unknown, revoked or expired link. */
export async function shareTarget(store: Pick<Store, "findShare">, token: string): Promise<KindRecord> {
  if (!TOKEN_PATTERN.test(token)) throw linkNotFound();
  const found = await store.findShare(hashToken(token), new Date().toISOString());
  if (!found) throw linkNotFound();
  return found.target;
}
