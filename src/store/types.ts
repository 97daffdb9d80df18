// The store interfaces: everything the service layer needs from persistence, nothing more, one
// interface per kind of record, each in types/ (documents and their trash, versions, shares, API
// keys, idempotency records, storage, workbooks, the trash across kinds). SQLite (embedded,
// default) and PostgreSQL implement all of them as one `Store`, each concern in a module of its
// own (sqlite/, postgres/); callers depend on the part they use and never know which database it is.
import type { DocumentStore } from "./types/documents.ts";
import type { IdempotencyStore } from "./types/idempotency.ts";
import type { KeyStore } from "./types/keys.ts";
import type { SessionStore } from "./types/sessions.ts";
import type { ShareStore } from "./types/shares.ts";
import type { StorageStore } from "./types/storage.ts";
import type { TrashStore } from "./types/trash.ts";
import type { WorkbookStore } from "./types/workbooks.ts";
import type { VersionStore } from "./types/versions.ts";
import type { QuotaSettings } from "./quota.ts";

export * from "./types/documents.ts";
export * from "./types/idempotency.ts";
export type * from "./types/items.ts";
export type * from "./types/keys.ts";
export type * from "./types/sessions.ts";
export type * from "./types/shares.ts";
export type * from "./types/storage.ts";
export type * from "./types/trash.ts";
export * from "./types/workbooks.ts";
export type { QuotaSettings } from "./quota.ts";
export type * from "./types/versions.ts";

/** Everything one database holds: what SQLite and PostgreSQL each implement. */
export interface Store
  extends DocumentStore, VersionStore, ShareStore, KeyStore, SessionStore, IdempotencyStore, StorageStore, WorkbookStore, TrashStore {
  readonly kind: "sqlite" | "postgres";
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
