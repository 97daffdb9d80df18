// Share links: a token (stored as its hash) that reads one document without a credential.
import type { DocumentRecord } from "./documents.ts";

export interface ShareRecord {
  id: string;
  documentId: string;
  ownerId: string;
  createdAt: string;
  expiresAt: string;
}

export interface NewShare extends ShareRecord {
  /** sha-256 of the share token, hex: the token itself is never stored. */
  tokenHash: string;
}

export interface ShareStore {
  insertShare(share: NewShare): Promise<void>;
  /** The document's shares that are still valid at `now`, newest first. */
  listShares(ownerId: string, documentId: string, now: string): Promise<ShareRecord[]>;
  /** Returns false when no such share exists. */
  deleteShare(ownerId: string, documentId: string, shareId: string): Promise<boolean>;
  /** A valid share by its token's hash, and its live document. */
  findShare(tokenHash: string, now: string): Promise<{ share: ShareRecord; document: DocumentRecord } | null>;
  /** Retention: drops shares expired before the given instant. */
  pruneShares(expiredBefore: string): Promise<number>;
}
