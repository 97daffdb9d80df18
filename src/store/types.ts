// The store interfaces: everything the service layer needs from persistence, nothing more, one
// interface per kind of record, each in types/ (documents and their trash, versions, shares, API
// keys, idempotency records). SQLite (embedded, default) and PostgreSQL implement all of them as
// one `Store`, each concern in a module of its own (sqlite/, postgres/); callers depend on the
// part they use and never know which database it is.
import type { DocumentStore } from "./types/documents.ts";
import type { IdempotencyStore } from "./types/idempotency.ts";
import type { KeyStore } from "./types/keys.ts";
import type { ShareStore } from "./types/shares.ts";
import type { VersionStore } from "./types/versions.ts";

export * from "./types/documents.ts";
export type * from "./types/idempotency.ts";
export type * from "./types/keys.ts";
export type * from "./types/shares.ts";
export type * from "./types/versions.ts";

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
