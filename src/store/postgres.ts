// Shared store: PostgreSQL through a small connection pool (postgres/connection.ts), for running
// several gateway replicas: the SQL written once for both databases (sql.ts) and PostgreSQL's own
// modules (postgres/), composed here over the one pool; connection failures reach callers as
// SERVICE_UNAVAILABLE.
import type pg from "pg";
import { createStorage, workbookItems } from "./contents.ts";
import { createIdempotency } from "./idempotency.ts";
import { unlimited } from "./quota.ts";
import { createShares } from "./shares.ts";
import { postgresExecutor } from "./postgres/executor.ts";
import type { Store, StoreOptions } from "./types.ts";
import { createPool, defaultPostgresSettings, pgContext, reportUnavailable, type PostgresSettings } from "./postgres/connection.ts";
import { createPostgresDocuments } from "./postgres/documents.ts";
import { createPostgresKeys } from "./postgres/keys.ts";
import { migrate } from "./postgres/migrations.ts";
import { createPostgresSessions } from "./postgres/sessions.ts";
import { collectBlobs, getBlobs, putBlobs } from "./postgres/blobs.ts";

export { defaultPostgresSettings, type PostgresSettings } from "./postgres/connection.ts";

/** The store, and its pool for tests and diagnostics. */
export type PostgresStore = Store & { readonly pool: pg.Pool };

export async function openPostgresStore(url: string, options: Partial<PostgresSettings> & StoreOptions = {}): Promise<PostgresStore> {
  const { quota, ...poolSettings } = options;
  const settings = { ...defaultPostgresSettings, ...poolSettings };
  const pool = createPool(url, settings);
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  const ctx = pgContext(pool, settings, quota ?? unlimited);
  const sql = postgresExecutor(ctx);
  let closing: Promise<void> | undefined;
  // Workbooks' blobs under the owner's usage lock (postgres/blobs.ts). Each kind's methods report a
  // lost connection as SERVICE_UNAVAILABLE too.
  const workbooks = workbookItems(sql, {
    put: (client, owner, content) => putBlobs(client, ctx.quota, owner, content),
    collect: collectBlobs,
    getBlobs: (ownerId, hashes) => getBlobs(ctx, ownerId, hashes),
  });
  const items = { documents: reportUnavailable(createPostgresDocuments(ctx, sql), []), workbooks: reportUnavailable(workbooks, []) };
  const store: PostgresStore = {
    kind: "postgres",
    pool,
    ...items,
    ...createShares(sql),
    ...createPostgresKeys(ctx),
    ...createPostgresSessions(ctx),
    ...createIdempotency(sql),
    ...createStorage(sql),
    async ping() {
      await pool.query(`SELECT 1`);
    },
    poolStats: () => ({ max: settings.poolMax, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      closing ??= pool.end();
      await closing;
    },
  };
  return reportUnavailable(store, ["close", "poolStats"]);
}
