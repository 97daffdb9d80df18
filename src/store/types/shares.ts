// Share links: a token (stored as its hash) that reads one document or workbook without a credential.
import type { createShares } from "../shares.ts";
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

/** Share links in the store (../shares.ts). */
export type ShareStore = ReturnType<typeof createShares>;
