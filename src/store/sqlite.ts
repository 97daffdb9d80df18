// Embedded store: one SQLite file under DATA_DIR (sqlite/connection.ts), each interface of
// types.ts in a module of its own under sqlite/, composed here over the one connection.
import { createStorage, workbookItems } from "./contents.ts";
import { documentStore } from "./document-reads.ts";
import { createIdempotency } from "./idempotency.ts";
import { unlimited } from "./quota.ts";
import { createShares } from "./shares.ts";
import type { Store, StoreOptions } from "./types.ts";
import { checkpointInBackground } from "./sqlite/checkpoint.ts";
import { openDatabase } from "./sqlite/connection.ts";
import { sqliteContext } from "./sqlite/context.ts";
import { createSqliteKeys } from "./sqlite/keys.ts";
import { createSqliteSessions } from "./sqlite/sessions.ts";

export { sqliteFile } from "./sqlite/connection.ts";

export function openSqliteStore(dataDir: string, options: StoreOptions = {}): Store {
  const db = openDatabase(dataDir);
  const ctx = sqliteContext(db, options.quota ?? unlimited);
  const { blobs } = ctx;
  blobs.collectStages();
  const ping = db.prepare(`SELECT 1`);
  const checkpoints = checkpointInBackground(db);
  // Workbooks' blobs (sqlite/blobs.ts): synchronous writes, as steps of the transaction, a large content's staged before it.
  const workbooks = workbookItems(ctx.sql, {
    put: (_, ownerId, content) => blobs.put(ownerId, content),
    collect: (_, ownerId, manifests) => blobs.collect(ownerId, manifests),
    getBlobs: async (ownerId, hashes) => blobs.get(ownerId, hashes),
    stage: (ownerId, content) => blobs.stage(ownerId, content),
  });
  const items = { documents: documentStore(ctx.sql, ctx.quota), workbooks };
  return {
    kind: "sqlite",
    ...items,
    ...createShares(ctx.sql),
    ...createSqliteKeys(ctx),
    ...createSqliteSessions(ctx),
    ...createIdempotency(ctx.sql),
    ...createStorage(ctx.sql),
    async ping() {
      ping.get();
    },
    async close() {
      checkpoints.stop();
      if (db.open) db.close();
    },
  };
}
