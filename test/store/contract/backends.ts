// One contract, every store: the same behaviours run against SQLite (fresh temp dir) and
// PostgreSQL (fresh schema in the test database), so the service can never tell them apart. Each
// file under test/store/contract/ covers one interface of src/store/types.ts on both.
//
// PostgreSQL: TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test. Each run creates
// a uniquely named schema, points the stores at it with `options=-c search_path=<schema>` in the
// URL, and drops it (CASCADE) afterwards. PostgreSQL is part of the test environment: when it is
// unreachable these tests fail with a message saying so; they are never skipped.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { monotonicFactory } from "ulid";
import { afterAll, beforeAll, expect } from "vitest";
import { openPostgresStore } from "../../../src/store/postgres.ts";
import { openSqliteStore, sqliteFile } from "../../../src/store/sqlite.ts";
import type { NewDocument, Store, StoreOptions } from "../../../src/store/types.ts";

export const PG_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

/** One place a store lives (a directory, a schema); it can be opened any number of times. */
export interface Location {
  open(options?: StoreOptions): Promise<Store>;
  destroy(): Promise<void>;
  /** Runs SQL behind the store's back (`?` placeholders on both databases). */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Bytes the database holds: the SQLite file (after a checkpoint), or PostgreSQL's tables with their indexes and TOAST. */
  sizeBytes(): Promise<number>;
}

export interface Backend {
  name: "sqlite" | "postgres";
  createLocation(): Promise<Location>;
}

export const sqliteBackend: Backend = {
  name: "sqlite",
  async createLocation() {
    const dir = await mkdtemp(join(tmpdir(), "store-contract-"));
    const withDb = <T>(work: (db: Database.Database) => T): T => {
      const db = new Database(sqliteFile(dir));
      try {
        return work(db);
      } finally {
        db.close();
      }
    };
    return {
      open: async (options) => openSqliteStore(dir, options),
      destroy: () => rm(dir, { recursive: true, force: true }),
      async sql<T>(text: string, params: unknown[] = []) {
        return withDb((db) => {
          const statement = db.prepare(text);
          return (statement.reader ? statement.all(...params) : (statement.run(...params), [])) as T[];
        });
      },
      async sizeBytes() {
        return withDb((db) => {
          db.pragma("wal_checkpoint(TRUNCATE)");
          const { n } = db.prepare(`SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()`).get() as {
            n: number;
          };
          return n;
        });
      },
    };
  },
};

export function withSearchPath(url: string, schema: string): string {
  const separator = url.includes("?") ? "&" : "?";
  return `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    const reason = error instanceof Error ? error.message || error.name : String(error);
    throw new Error(
      `PostgreSQL is not reachable at ${PG_URL.replace(/\/\/[^@/]*@/, "//***@")} (${reason}). ` +
        `These tests need it; start it or set TEST_DATABASE_URL.`,
      { cause: error },
    );
  }
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export const postgresBackend: Backend = {
  name: "postgres",
  async createLocation() {
    // Lower-case letters, digits and '_' only: safe to splice into DDL without quoting.
    const schema = `store_test_${process.pid}_${randomBytes(6).toString("hex")}`;
    await adminQuery(`CREATE SCHEMA ${schema}`);
    const url = withSearchPath(PG_URL, schema);
    const sql = async <T>(text: string, params: unknown[] = []): Promise<T[]> => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        let n = 0;
        return (
          await client.query(
            text.replace(/\?/g, () => `$${++n}`),
            params,
          )
        ).rows as T[];
      } finally {
        await client.end();
      }
    };
    return {
      open: (options) => openPostgresStore(url, options),
      destroy: () => adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`),
      sql,
      async sizeBytes() {
        const [row] = await sql<{ n: string }>(
          `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
           WHERE s.nspname = ? AND c.relkind = 'r'`,
          [schema],
        );
        return Number(row!.n);
      },
    };
  },
};

export const backends = [sqliteBackend, postgresBackend];

/** A store at a fresh location for the enclosing describe, closed and destroyed after it. */
export function useStore(backend: Backend): { readonly store: Store; readonly location: Location; extra(): Promise<Location> } {
  let location: Location | undefined;
  let store: Store | undefined;
  const extras: Location[] = [];
  beforeAll(async () => {
    location = await backend.createLocation();
    store = await location.open();
  });
  afterAll(async () => {
    await store?.close();
    await location?.destroy();
    for (const extra of extras) await extra.destroy();
  });
  return {
    get store() {
      return store!;
    },
    get location() {
      return location!;
    },
    async extra() {
      const fresh = await backend.createLocation();
      extras.push(fresh);
      return fresh;
    },
  };
}

const ulid = monotonicFactory();
export const nextUlid = (): string => ulid();
/** Real-looking ids: doc_ + 26 Crockford base32 characters, strictly increasing. */
export const newId = (): string => `doc_${ulid()}`;
export const newOwner = (): string => `user_${randomUUID()}`;

export const bytes = (length: number, offset = 0): Uint8Array => {
  // A view into the middle of a larger buffer: stores must honour byteOffset/byteLength.
  const backing = randomBytes(length + offset + 7);
  backing[offset] = 0;
  return new Uint8Array(backing.buffer, backing.byteOffset + offset, length);
};

export const newDoc = (ownerId: string, overrides: Partial<NewDocument> = {}): NewDocument => ({
  id: newId(),
  ownerId,
  name: "Quarterly report",
  createdAt: "2026-11-22T08:00:00.000Z",
  createdBy: ownerId,
  docx: bytes(64),
  text: "Quarterly report\n\nNumbers.",
  markdown: null,
  ...overrides,
});

export const allOf = (store: Store, ownerId: string) => store.documents.list({ ownerId, limit: 10_000 });

export const CLAIM_AT = "2026-11-22T08:00:00.000Z";
export const NOT_BEFORE = "2026-11-21T08:00:00.000Z";

/** Minute `minute` of 2026-11-23 08:00 UTC. */
export const at = (minute: number): string => new Date(Date.UTC(2026, 10, 23, 8, minute)).toISOString();
export const content = (text: string, markdown: string | null = `# ${text}`) => ({ docx: bytes(32 + text.length), text, markdown });
export const sameBytes = (a: Uint8Array | undefined, b: Uint8Array) => expect(Buffer.compare(Buffer.from(a!), Buffer.from(b))).toBe(0);

/** Rows of `table` whose `column` is `value`, counted behind the store's back. */
export async function countRows(location: Location, table: string, column: string, value: string): Promise<number> {
  const [row] = await location.sql<{ n: number | string }>(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`, [value]);
  return Number(row!.n);
}
