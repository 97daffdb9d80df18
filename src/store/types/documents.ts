// Documents and their trash: the records the service layer reads and writes, and the store's
// interface for them.
import type { IdempotencyClaim } from "./idempotency.ts";
import type { ItemChange } from "./items.ts";

/** What made a version: new markdown, an uploaded .docx, a rename, or a restored older version. */
export type VersionSource = "markdown" | "docx" | "rename" | "restore";

export interface DocumentRecord {
  id: string;
  ownerId: string;
  name: string;
  createdAt: string;
  /** When the current version was made. */
  updatedAt: string;
  sizeBytes: number;
  characters: number;
  /** 1 on create, +1 on every change (content, rename, restore of a version). */
  version: number;
  /** Who made the current version (a user id). */
  updatedBy: string;
  source: VersionSource;
  /** Set while the document is in the trash. */
  deletedAt: string | null;
}

/** A version's content: the .docx, its text, and the markdown it came from (null: derive it from the .docx). */
export interface DocumentContent {
  docx: Uint8Array;
  text: string;
  markdown: string | null;
}

export interface NewDocument extends DocumentContent {
  id: string;
  ownerId: string;
  name: string;
  createdAt: string;
  /** Who creates it: the user id (the author of version 1), never the owner key. */
  createdBy: string;
  /** "markdown" (default) or "docx" (an import). */
  source?: "markdown" | "docx";
}

/** A change to a live document: new content (a .docx, its text and markdown), a new name, or both. */
export interface DocumentChange extends ItemChange<DocumentContent, DocumentRecord> {
  source: VersionSource;
}

/** The outcome of a conditional write: done, no such (live) document, or a stale expectedVersion. */
export type ChangeResult =
  { ok: true; document: DocumentRecord } | { ok: false; reason: "not_found" } | { ok: false; reason: "conflict"; current: number };

export interface CreateResult {
  document: DocumentRecord;
  /** True when an earlier request with the same idempotency key already created it. */
  replayed: boolean;
  fingerprint: string;
}

export interface ListQuery {
  ownerId: string;
  /** Lower-cased substring of the name. */
  nameContains?: string;
  /** Only ids strictly older (smaller) than this. */
  beforeId?: string;
  limit: number;
}

/** Which text of a version to read: the extracted text, or the markdown (null when never stored). */
export type TextFormat = "text" | "markdown";

/**
 * A text read, cut in the store: at most `maxChars` UTF-16 units (never half a surrogate pair),
 * and the whole text's length in UTF-16 units, as stored. Both null: no markdown was stored for
 * this version (derive it from the .docx).
 */
export interface TextRead {
  document: DocumentRecord;
  text: string | null;
  totalChars: number | null;
}

/**
 * Documents and their trash. Every read here sees live documents only (not in the trash), except
 * where a method says otherwise.
 */
export interface DocumentStore {
  /**
   * Creates the document (version 1) and its idempotency record (with the record it answers) in one
   * transaction; with a fresh record for the claim's key, creates nothing and answers that first record.
   */
  createDocument(doc: NewDocument, idempotency?: IdempotencyClaim): Promise<CreateResult>;
  /** `includeDeleted`: also a document in the trash (an idempotent replay of its create). */
  getDocument(ownerId: string, id: string, options?: { includeDeleted?: boolean }): Promise<DocumentRecord | null>;
  getDocuments(ownerId: string, ids: readonly string[]): Promise<DocumentRecord[]>;
  /** The text or markdown, cut in the store to `maxChars` (default: all of it); never more is read into memory. */
  readText(ownerId: string, id: string, format?: TextFormat, maxChars?: number): Promise<TextRead | null>;
  readContent(ownerId: string, id: string): Promise<{ document: DocumentRecord; docx: Uint8Array } | null>;
  listDocuments(query: ListQuery): Promise<DocumentRecord[]>;
  /** New content and/or name as the next version; the current one is kept as a version, atomically. */
  changeDocument(change: DocumentChange): Promise<ChangeResult>;
  /** Moves a live document to the trash and deletes its share links (restoring it does not bring them back), atomically. */
  trashDocument(input: { ownerId: string; id: string; at: string; expectedVersion?: number | undefined }): Promise<ChangeResult>;
  /** Documents in the trash, most recently created first (ids, like the live list). */
  listTrash(query: ListQuery): Promise<DocumentRecord[]>;
  /** Back from the trash; null when it is not there. */
  restoreFromTrash(ownerId: string, id: string): Promise<DocumentRecord | null>;
  /** Deletes a document in the trash for good, with its versions, shares and idempotency records. */
  purgeDocument(ownerId: string, id: string): Promise<boolean>;
  /** Retention: purges documents trashed before the given instant; returns how many. */
  purgeTrash(deletedBefore: string): Promise<number>;
}

/** Case folding used for name search, identical in every store. */
export const foldName = (name: string): string => name.normalize("NFC").toLowerCase();

/** A new document's record, as both stores write it. */
export function newRecord(doc: NewDocument): DocumentRecord {
  return {
    id: doc.id,
    ownerId: doc.ownerId,
    name: doc.name,
    createdAt: doc.createdAt,
    updatedAt: doc.createdAt,
    sizeBytes: doc.docx.byteLength,
    characters: doc.text.length,
    version: 1,
    updatedBy: doc.createdBy,
    source: doc.source ?? "markdown",
    deletedAt: null,
  };
}
