// The store interfaces: everything the service layer needs from persistence, nothing more, each in
// types/ (the one lifecycle of every kind of item, items.ts, held once per kind; shares, API keys,
// sessions, idempotency records) and storage, here. `Store` is one database's: SQLite (embedded,
// default) or PostgreSQL; callers never know which.
import type { createStorage } from "./contents.ts";
import type { DocumentItems } from "./types/documents.ts";
import type { IdempotencyStore } from "./types/idempotency.ts";
import type { KeyStore } from "./types/keys.ts";
import type { SessionStore } from "./types/sessions.ts";
import type { ShareStore } from "./types/shares.ts";
import type { WorkbookItems } from "./types/workbooks.ts";
import type { QuotaSettings } from "./quota.ts";

export * from "./types/documents.ts";
export * from "./types/idempotency.ts";
export type * from "./types/items.ts";
export type * from "./types/keys.ts";
export type * from "./types/sessions.ts";
export type * from "./types/shares.ts";
export * from "./types/workbooks.ts";

/** What a user's stored content takes up, as the quota counts it (quota.ts, contents.ts). */
export type StorageStore = ReturnType<typeof createStorage>;

/** Everything one database holds: what SQLite and PostgreSQL each implement. */
export interface Store extends ShareStore, KeyStore, SessionStore, IdempotencyStore, StorageStore {
  readonly kind: "sqlite" | "postgres";
  readonly documents: DocumentItems;
  readonly workbooks: WorkbookItems;
  ping(): Promise<void>;
  /** The connection pool's state, for /readyz (PostgreSQL only). */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

/** How either store is opened, besides where. */
export interface StoreOptions {
  /** STORAGE_QUOTA_MB, in bytes, and what to call when it refuses a write; default unlimited. */
  quota?: QuotaSettings;
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
