// What the SQLite modules share: the connection and the helpers their transactions call.
import type { QuotaSettings } from "../quota.ts";
import type { Db } from "./connection.ts";
import { blobsOf, valueTilesOf, type Blobs, type ValueTiles } from "./blobs.ts";
import { contentsOf, type Contents } from "./content.ts";
import { usageOf, type Usage } from "./usage.ts";
import { sqliteExecutor } from "./executor.ts";
import type { Executor } from "../sql.ts";

export interface SqliteContext {
  db: Db;
  /** The connection as the SQL written once for both databases runs on it (../sql.ts). */
  sql: Executor<Db>;
  usage: Usage;
  contents: Contents;
  blobs: Blobs;
  values: ValueTiles;
}

export function sqliteContext(db: Db, quota: QuotaSettings): SqliteContext {
  const usage = usageOf(db, quota);
  return {
    db,
    sql: sqliteExecutor(db),
    usage,
    contents: contentsOf(db, usage),
    blobs: blobsOf(db, usage),
    values: valueTilesOf(db),
  };
}
