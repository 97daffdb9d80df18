// What the SQLite modules share: the connection and the helpers their transactions call.
import type { QuotaSettings } from "../quota.ts";
import type { Db } from "./connection.ts";
import { blobsOf, type Blobs } from "./blobs.ts";
import { sqliteExecutor, type SqliteExecutor } from "./executor.ts";

export interface SqliteContext {
  db: Db;
  /** The connection as the SQL written once for both databases runs on it (../sql.ts). */
  sql: SqliteExecutor;
  quota: QuotaSettings;
  blobs: Blobs;
}

export function sqliteContext(db: Db, quota: QuotaSettings): SqliteContext {
  const sql = sqliteExecutor(db);
  return {
    db,
    sql,
    quota,
    blobs: blobsOf(db, sql, quota),
  };
}
