// What the SQLite modules share: the connection and the helpers their transactions call.
import type { QuotaSettings } from "../quota.ts";
import type { Db } from "./connection.ts";
import { blobsOf, valueTilesOf, type Blobs, type ValueTiles } from "./blobs.ts";
import { contentsOf, type Contents } from "./content.ts";
import { documentLookups, workbookLookups, type DocumentLookups, type WorkbookLookups } from "./lookups.ts";
import { usageOf, type Usage } from "./usage.ts";

export interface SqliteContext {
  db: Db;
  usage: Usage;
  contents: Contents;
  lookups: DocumentLookups;
  blobs: Blobs;
  values: ValueTiles;
  workbooks: WorkbookLookups;
}

export function sqliteContext(db: Db, quota: QuotaSettings): SqliteContext {
  const usage = usageOf(db, quota);
  return {
    db,
    usage,
    contents: contentsOf(db, usage),
    lookups: documentLookups(db),
    blobs: blobsOf(db, usage),
    values: valueTilesOf(db),
    workbooks: workbookLookups(db),
  };
}
