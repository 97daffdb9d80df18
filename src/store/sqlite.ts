// Embedded store: one SQLite file under DATA_DIR (sqlite/connection.ts), each interface of
// types.ts in a module of its own under sqlite/, composed here over the one connection.
import type { Store } from "./types.ts";
import { openDatabase } from "./sqlite/connection.ts";
import { createSqliteDocuments } from "./sqlite/documents.ts";
import { createSqliteIdempotency } from "./sqlite/idempotency.ts";
import { createSqliteKeys } from "./sqlite/keys.ts";
import { createSqliteShares } from "./sqlite/shares.ts";
import { createSqliteVersions } from "./sqlite/versions.ts";

export { sqliteFile } from "./sqlite/connection.ts";

export function openSqliteStore(dataDir: string): Store {
  const db = openDatabase(dataDir);
  const ping = db.prepare(`SELECT 1`);
  return {
    kind: "sqlite",
    ...createSqliteDocuments(db),
    ...createSqliteVersions(db),
    ...createSqliteShares(db),
    ...createSqliteKeys(db),
    ...createSqliteIdempotency(db),
    async ping() {
      ping.get();
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
