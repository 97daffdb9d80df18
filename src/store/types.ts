// The store interfaces: everything the service layer needs from persistence, nothing more, one
// interface per kind of record (documents and their trash, versions, shares, API keys,
// idempotency records). SQLite (embedded, default) and PostgreSQL implement all of them as one
// `Store`; callers depend on the part they use and never know which database it is.

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
  /** "markdown" (default) or "docx" (an import). */
  source?: "markdown" | "docx";
}

/** A change to a live document: new content, a new name, or both. */
export interface DocumentChange {
  ownerId: string;
  id: string;
  /** Who changes it, and when. */
  actorId: string;
  at: string;
  /** When set, the change applies only if this is still the current version. */
  expectedVersion?: number | undefined;
  name?: string | undefined;
  content?: DocumentContent | undefined;
  source: VersionSource;
}

/** The outcome of a conditional write: done, no such (live) document, or a stale expectedVersion. */
export type ChangeResult =
  { ok: true; document: DocumentRecord } | { ok: false; reason: "not_found" } | { ok: false; reason: "conflict"; current: number };

/** One version in a document's history (the current one included). */
export interface VersionRecord {
  version: number;
  name: string;
  createdAt: string;
  createdBy: string;
  sizeBytes: number;
  characters: number;
  source: VersionSource;
}

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

export interface IdempotencyClaim {
  key: string;
  /** Hash of the request, so a reused key with a different body is detected. */
  fingerprint: string;
  /** Records older than this are ignored and replaced (24 h window). */
  notBefore: string;
}

export interface IdempotencyHit {
  documentId: string;
  fingerprint: string;
}

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

export interface VersionQuery {
  ownerId: string;
  id: string;
  /** Only versions strictly older (smaller) than this. */
  beforeVersion?: number;
  limit: number;
}

export interface ApiKeyRecord {
  id: string;
  userId: string;
  tenant: string | null;
  scopes: string[];
  /** sha-256 of the whole key, hex. */
  hash: string;
  /** First characters of the key, safe to show (never enough to use it). */
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** Which text of a version to read: the extracted text, or the markdown (null when never stored). */
export type TextFormat = "text" | "markdown";

/**
 * Documents and their trash. Every read here sees live documents only (not in the trash), except
 * where a method says otherwise.
 */
export interface DocumentStore {
  /** Creates the document (version 1) and its idempotency record in one transaction. */
  createDocument(doc: NewDocument, idempotency?: IdempotencyClaim): Promise<CreateResult>;
  /** `includeDeleted`: also a document in the trash (an idempotent replay of its create). */
  getDocument(ownerId: string, id: string, options?: { includeDeleted?: boolean }): Promise<DocumentRecord | null>;
  getDocuments(ownerId: string, ids: readonly string[]): Promise<DocumentRecord[]>;
  readText(ownerId: string, id: string, format?: TextFormat): Promise<{ document: DocumentRecord; text: string | null } | null>;
  readContent(ownerId: string, id: string): Promise<{ document: DocumentRecord; docx: Uint8Array } | null>;
  listDocuments(query: ListQuery): Promise<DocumentRecord[]>;
  /** New content and/or name as the next version; the current one is kept as a version, atomically. */
  changeDocument(change: DocumentChange): Promise<ChangeResult>;
  /** Moves a live document to the trash. */
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

/** Earlier versions of documents (the current version lives on the document). */
export interface VersionStore {
  /** Newest first, the current version included; null when the document is not live. */
  listVersions(query: VersionQuery): Promise<VersionRecord[] | null>;
  readVersionText(
    ownerId: string,
    id: string,
    version: number,
    format?: TextFormat,
  ): Promise<{ document: DocumentRecord; version: VersionRecord; text: string | null } | null>;
  readVersionContent(
    ownerId: string,
    id: string,
    version: number,
  ): Promise<{ document: DocumentRecord; version: VersionRecord; docx: Uint8Array } | null>;
  /** The whole content of a version (to restore it). */
  readVersionData(ownerId: string, id: string, version: number): Promise<DocumentContent | null>;
  /**
   * Retention: drops versions replaced before `replacedBefore`, except each document's `keepMin`
   * newest versions (the current one counts). Returns how many went.
   */
  pruneVersions(replacedBefore: string, keepMin: number): Promise<number>;
}

/** Share links: a token (stored as its hash) that reads one document without a credential. */
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

export interface KeyStore {
  insertApiKey(key: ApiKeyRecord): Promise<void>;
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  listApiKeys(userId?: string): Promise<ApiKeyRecord[]>;
  /** Returns false when no such key exists. */
  revokeApiKey(id: string, at: string): Promise<boolean>;
}

/** Idempotency records of creates (they are written by DocumentStore.createDocument, atomically). */
export interface IdempotencyStore {
  findIdempotent(ownerId: string, key: string, notBefore: string): Promise<IdempotencyHit | null>;
  /** Drops idempotency records older than the given instant. */
  pruneIdempotency(olderThan: string): Promise<number>;
}

/** Everything one database holds: what SQLite and PostgreSQL each implement. */
export interface Store extends DocumentStore, VersionStore, ShareStore, KeyStore, IdempotencyStore {
  readonly kind: "sqlite" | "postgres";
  ping(): Promise<void>;
  /** The connection pool's state, for /readyz (PostgreSQL only). */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  /** PG_POOL_MAX */
  max: number;
  /** Connections open (idle or in use). */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
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
    updatedBy: doc.ownerId,
    source: doc.source ?? "markdown",
    deletedAt: null,
  };
}
