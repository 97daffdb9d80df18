// What the SQLite modules share: the connection and the helpers their transactions call.
import type { QuotaSettings } from "../quota.ts";
import type { Db } from "./connection.ts";
import { contentsOf, type Contents } from "./content.ts";
import { documentLookups, type DocumentLookups } from "./lookups.ts";
import { usageOf, type Usage } from "./usage.ts";

export interface SqliteContext {
  db: Db;
  usage: Usage;
  contents: Contents;
  lookups: DocumentLookups;
}

export function sqliteContext(db: Db, quota: QuotaSettings): SqliteContext {
  const usage = usageOf(db, quota);
  return { db, usage, contents: contentsOf(db, usage), lookups: documentLookups(db) };
}
