// The PostgreSQL store's connection: a small pool, its settings (PG_* variables), transactions,
// named prepared statements for the hot reads, and connection failures reported as 503.
//
// Same schema and semantics as the SQLite store (sqlite/ is the reference): timestamps are the
// ISO strings the service hands in, stored as text, so they come back byte-for-byte and compare
// exactly like they do in SQLite. Every text key column uses the "C" collation so ordering and
// `<` are plain byte order whatever the database's default collation is.
import pg from "pg";
import { GatewayError } from "../../core/errors.ts";
import type { QuotaSettings } from "../quota.ts";

/** The pool's settings (PG_* variables, docs/deploy.md#postgresql). */
export interface PostgresSettings {
  poolMax: number;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  /** 0: none. Sent as a startup parameter, so it holds for every statement on every connection. */
  statementTimeoutMs: number;
  /**
   * Behind PgBouncer in transaction mode: nothing session-scoped. PgBouncer refuses startup
   * parameters it does not know (statement_timeout, options) unless told to ignore them, so none
   * is sent; set the timeout on the role instead (ALTER ROLE … SET statement_timeout). Statements
   * are unnamed (no prepared statement outlives its transaction). The store never relies on
   * session state otherwise: no SET, and the migration lock is transaction-scoped
   * (pg_advisory_xact_lock).
   */
  pgbouncer: boolean;
}

export const defaultPostgresSettings: PostgresSettings = {
  poolMax: 10,
  connectTimeoutMs: 10_000,
  idleTimeoutMs: 30_000,
  statementTimeoutMs: 30_000,
  pgbouncer: false,
};

/** What every PostgreSQL module works with: the pool and how to name a hot statement. */
export interface PgContext {
  pool: pg.Pool;
  settings: PostgresSettings;
  quota: QuotaSettings;
  /**
   * A hot read as a named prepared statement: parsed and planned once per connection, then only
   * bound and executed. Not behind PgBouncer in transaction mode, where the next transaction may
   * run on a server connection that never saw the Parse.
   */
  prepared(name: string, text: string, values: unknown[]): pg.QueryConfig;
}

export function createPool(url: string, settings: PostgresSettings): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    // pg-pool reads its size and timeouts only from here, never from the URL.
    max: settings.poolMax,
    // Fail a request (and readiness) instead of queueing forever when the database is unreachable.
    connectionTimeoutMillis: settings.connectTimeoutMs,
    idleTimeoutMillis: settings.idleTimeoutMs,
    // Connection parameters in the URL (application_name, options…) win over these.
    application_name: "workspace-gateway",
    ...(settings.statementTimeoutMs > 0 && !settings.pgbouncer ? { statement_timeout: settings.statementTimeoutMs } : {}),
  });
  // An idle client losing its connection emits 'error' on the pool; without a listener that would
  // crash the process. The pool drops the client, and the next query reports the problem itself.
  pool.on("error", () => {});
  return pool;
}

export function pgContext(pool: pg.Pool, settings: PostgresSettings, quota: QuotaSettings): PgContext {
  return {
    pool,
    settings,
    quota,
    prepared: (name, text, values) => (settings.pgbouncer ? { text, values } : { name: `wg_${name}`, text, values }),
  };
}

export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A client whose ROLLBACK failed is in an unknown state: destroy it instead of returning it to the pool.
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((rollbackError: unknown) => {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

/** Connection-level failures (network, PostgreSQL restarting or refusing, pool timeout), as opposed to a bad statement. */
const unavailableCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006", // connection exceptions
  "57P01",
  "57P02",
  "57P03", // admin_shutdown, crash_shutdown, cannot_connect_now
  "53300", // too_many_connections
]);

/**
 * A database that cannot be reached is a 503 with Retry-After for the caller (docs/deploy.md),
 * not a 500: the request can be retried once PostgreSQL is back, with no restart of the gateway.
 */
function asUnavailable(error: unknown): unknown {
  if (error instanceof GatewayError || !(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  const connectionLevel =
    (typeof code === "string" && unavailableCodes.has(code)) ||
    /timeout exceeded when trying to connect|Connection terminated/i.test(error.message);
  return connectionLevel
    ? new GatewayError("SERVICE_UNAVAILABLE", "The document store is unavailable; retry shortly", { retryAfter: 1, cause: error })
    : error;
}

/** Wraps every async method of `store` (but `except`) so connection failures reject as SERVICE_UNAVAILABLE. */
export function reportUnavailable<T extends object>(store: T, except: readonly string[]): T {
  const methods = store as unknown as Record<string, unknown>;
  for (const [name, method] of Object.entries(store)) {
    if (typeof method !== "function" || except.includes(name)) continue;
    const call = method as (...args: unknown[]) => Promise<unknown>;
    methods[name] = async (...args: unknown[]) => {
      try {
        return await call.apply(store, args);
      } catch (error) {
        throw asUnavailable(error);
      }
    };
  }
  return store;
}
