import { existsSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { ConfigError, type Config } from "../core/config.ts";
import type { Store } from "./types.ts";

export type { Store } from "./types.ts";

/** The SQLite file under DATA_DIR (the same name as sqlite.ts's sqliteFile, without loading the driver). */
const sqlitePath = (dataDir: string): string => join(resolve(dataDir), "gateway.sqlite");

/**
 * Which store a configuration means, for people: the SQLite file (and DATA_DIR as given), or
 * PostgreSQL's user, host, port and database — never the password.
 */
export function describeStore(config: Pick<Config, "DATABASE_URL" | "DATA_DIR">): string {
  if (config.DATABASE_URL) return `PostgreSQL ${postgresLocation(config.DATABASE_URL)} (DATABASE_URL)`;
  return `SQLite ${sqlitePath(config.DATA_DIR)} (DATA_DIR=${config.DATA_DIR})`;
}

/** user@host:port/database of a PostgreSQL URL, without the password. */
function postgresLocation(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const user = url.username ? `${decodeURIComponent(url.username)}@` : "";
  return `${user}${url.hostname || "localhost"}:${url.port || "5432"}/${decodeURIComponent(url.pathname.slice(1)) || "(default database)"}`;
}

/** A gateway process that marked DATA_DIR as in use (DATA_DIR/gateway.pid). */
export interface DataDirHolder {
  pid: number;
  hostname: string;
  startedAt: string;
}

export interface OpenStoreOptions {
  /**
   * false: an embedded store that does not exist yet is an error naming DATA_DIR, not a new empty
   * file (the keys CLI without --init, run from the wrong directory). Default true.
   */
  create?: boolean;
  /**
   * Set by the server: DATA_DIR is marked as in use while the store is open, and another live
   * gateway already using it is reported here. Two gateways on one SQLite file stay consistent
   * (WAL, busy timeout), so this warns rather than refuses (docs/configuration.md). The CLI
   * never marks DATA_DIR, so it works while the server runs.
   */
  onSharedDataDir?: (holder: DataDirHolder, dataDir: string) => void;
  /** Called each time STORAGE_QUOTA_MB refuses a write (the /metrics counter). */
  onQuotaExceeded?: () => void;
}

/** STORAGE_QUOTA_MB in bytes (MiB); 0: unlimited. */
export const quotaBytes = (megabytes: number): number => megabytes * 1024 * 1024;

/** PostgreSQL when DATABASE_URL is set, else the embedded SQLite file under DATA_DIR. */
export async function openStore(
  config: Pick<Config, "DATABASE_URL" | "DATA_DIR"> &
    Partial<
      Pick<
        Config,
        "PG_POOL_MAX" | "PG_CONNECT_TIMEOUT_MS" | "PG_IDLE_TIMEOUT_MS" | "PG_STATEMENT_TIMEOUT_MS" | "PG_PGBOUNCER" | "STORAGE_QUOTA_MB"
      >
    >,
  options: OpenStoreOptions = {},
): Promise<Store> {
  const quota = {
    limitBytes: quotaBytes(config.STORAGE_QUOTA_MB ?? 0),
    ...(options.onQuotaExceeded ? { onExceeded: options.onQuotaExceeded } : {}),
  };
  // A store that cannot be opened is a configuration problem: say which variable to look at.
  const failed = (variable: string, error: unknown) =>
    new ConfigError(`${variable}: the store could not be opened: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  if (config.DATABASE_URL) {
    if (options.create === false) await requirePostgresTables(config.DATABASE_URL, failed);
    const { openPostgresStore } = await import("./postgres.ts");
    try {
      return await openPostgresStore(config.DATABASE_URL, {
        ...(config.PG_POOL_MAX !== undefined ? { poolMax: config.PG_POOL_MAX } : {}),
        ...(config.PG_CONNECT_TIMEOUT_MS !== undefined ? { connectTimeoutMs: config.PG_CONNECT_TIMEOUT_MS } : {}),
        ...(config.PG_IDLE_TIMEOUT_MS !== undefined ? { idleTimeoutMs: config.PG_IDLE_TIMEOUT_MS } : {}),
        ...(config.PG_STATEMENT_TIMEOUT_MS !== undefined ? { statementTimeoutMs: config.PG_STATEMENT_TIMEOUT_MS } : {}),
        ...(config.PG_PGBOUNCER !== undefined ? { pgbouncer: config.PG_PGBOUNCER } : {}),
        quota,
      });
    } catch (error) {
      throw failed("DATABASE_URL", error);
    }
  }
  const file = sqlitePath(config.DATA_DIR);
  if (options.create === false && !existsSync(file)) {
    throw new ConfigError(
      `DATA_DIR (${config.DATA_DIR}): no gateway store at ${file}; use the server's DATA_DIR (its start-up log line shows storeLocation), or pass --init to create an empty store here`,
    );
  }
  const { openSqliteStore } = await import("./sqlite.ts");
  let store: Store;
  try {
    store = openSqliteStore(config.DATA_DIR, { quota });
  } catch (error) {
    throw failed(`DATA_DIR (${config.DATA_DIR})`, error);
  }
  if (options.onSharedDataDir) {
    const release = markDataDir(resolve(config.DATA_DIR), options.onSharedDataDir);
    const close = store.close.bind(store);
    store.close = async () => {
      release();
      await close();
    };
  }
  return store;
}

/**
 * The CLI without --init, on PostgreSQL: the database must already hold the gateway's tables (the
 * server creates them on its first start), else this is not the server's database or schema.
 */
async function requirePostgresTables(url: string, failed: (variable: string, error: unknown) => ConfigError): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  let present: boolean;
  try {
    await client.connect();
    const { rows } = await client.query<{ present: boolean }>(`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`);
    present = rows[0]?.present === true;
  } catch (error) {
    throw failed("DATABASE_URL", error);
  } finally {
    await client.end().catch(() => {});
  }
  if (!present) {
    throw new ConfigError(
      `DATABASE_URL (${postgresLocation(url)}): no gateway tables here; use the server's DATABASE_URL, or pass --init to create them`,
    );
  }
}

/** Whether a process with this id runs on this machine. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Writes DATA_DIR/gateway.pid unless a live gateway on this machine holds it (then reports it and
 * leaves its file alone); a file left by a process that is gone is taken over. Returns the release.
 */
function markDataDir(dataDir: string, onShared: NonNullable<OpenStoreOptions["onSharedDataDir"]>): () => void {
  const path = join(dataDir, "gateway.pid");
  const mine: DataDirHolder = { pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString() };
  let holder: DataDirHolder | undefined;
  try {
    holder = JSON.parse(readFileSync(path, "utf8")) as DataDirHolder;
  } catch {
    holder = undefined; // none, or unreadable: ours now
  }
  // Another machine's process (a shared volume) cannot be checked: it counts as live.
  if (holder && holder.pid !== process.pid && (holder.hostname !== mine.hostname || alive(holder.pid))) {
    onShared(holder, dataDir);
    return () => {};
  }
  try {
    writeFileSync(path, `${JSON.stringify(mine)}\n`);
  } catch {
    return () => {}; // a read-only DATA_DIR would already have failed to open; nothing to release
  }
  return () => {
    try {
      const current = JSON.parse(readFileSync(path, "utf8")) as DataDirHolder;
      if (current.pid === process.pid) unlinkSync(path);
    } catch {
      // already gone
    }
  };
}
