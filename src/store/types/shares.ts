// Share links: a token (stored as its hash) that reads one document or workbook without a credential.
import type { DocumentRecord } from "./documents.ts";
import type { WorkbookRecord } from "./workbooks.ts";

export type ShareKind = "document" | "workbook";

export interface ShareRecord {
  id: string;
  kind: ShareKind;
  /** The document's or workbook's id. */
  targetId: string;
  ownerId: string;
  createdAt: string;
  expiresAt: string;
}

export interface NewShare extends ShareRecord {
  /** sha-256 of the share token, hex: the token itself is never stored. */
  tokenHash: string;
}

/** A document's or workbook's record with its kind: what a share link reads, an entry of a list across kinds. */
export type KindRecord = { kind: "document"; record: DocumentRecord } | { kind: "workbook"; record: WorkbookRecord };

export interface ShareStore {
  insertShare(share: NewShare): Promise<void>;
  /** The target's shares that are still valid at `now`, newest first. */
  listShares(ownerId: string, targetId: string, now: string): Promise<ShareRecord[]>;
  /** Returns false when no such share exists. */
  deleteShare(ownerId: string, targetId: string, shareId: string): Promise<boolean>;
  /** A valid share by its token's hash, and its live target. */
  findShare(tokenHash: string, now: string): Promise<{ share: ShareRecord; target: KindRecord } | null>;
  /** Retention: drops shares expired before the given instant. */
  pruneShares(expiredBefore: string): Promise<number>;
}
