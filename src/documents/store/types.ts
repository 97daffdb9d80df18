// The store interface: everything the service layer needs from persistence, nothing more.
// SQLite (embedded, default) and PostgreSQL implement it; callers never know which.

export interface DocumentRecord {
  id: string;
  ownerId: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  sizeBytes: number;
  characters: number;
}

export interface NewDocument {
  id: string;
  ownerId: string;
  name: string;
  createdAt: string;
  docx: Uint8Array;
  text: string;
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

export interface DocumentStore {
  readonly kind: "sqlite" | "postgres";
  /** Creates the document and its idempotency record in one transaction. */
  createDocument(doc: NewDocument, idempotency?: IdempotencyClaim): Promise<CreateResult>;
  findIdempotent(ownerId: string, key: string, notBefore: string): Promise<IdempotencyHit | null>;
  getDocument(ownerId: string, id: string): Promise<DocumentRecord | null>;
  getDocuments(ownerId: string, ids: readonly string[]): Promise<DocumentRecord[]>;
  readText(ownerId: string, id: string): Promise<{ document: DocumentRecord; text: string } | null>;
  readContent(ownerId: string, id: string): Promise<{ document: DocumentRecord; docx: Uint8Array } | null>;
  listDocuments(query: ListQuery): Promise<DocumentRecord[]>;

  insertApiKey(key: ApiKeyRecord): Promise<void>;
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  listApiKeys(userId?: string): Promise<ApiKeyRecord[]>;
  /** Returns false when no such key exists. */
  revokeApiKey(id: string, at: string): Promise<boolean>;

  /** Drops idempotency records older than the given instant. */
  pruneIdempotency(olderThan: string): Promise<number>;
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
