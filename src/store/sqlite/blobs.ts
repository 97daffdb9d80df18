// Workbook blobs on SQLite (types/workbooks.ts): roots, pages and tiles stored once per owner and
// hash, charged against the quota when new, with the references between them; collected, from a
// root down, once nothing refers to them; and the current version's value tiles. Everything here
// runs inside the caller's transaction.
import { checkBlobs } from "../blob-graph.ts";
import { bytesOf, toBuffer } from "../rows.ts";
import type { ValueTile, ValueTilesChange, WorkbookContent } from "../types.ts";
import type { Db } from "./connection.ts";
import { addUsage, lockUsage } from "../contents.ts";
import { checkQuota, type QuotaSettings } from "../quota.ts";
import type { SqliteExecutor } from "./executor.ts";

export interface Blobs {
  /** Stores the blobs the owner lacks (charging the quota) and the references between them. */
  put(ownerId: string, content: WorkbookContent): void;
  /** Collects, from the given manifest roots down, every blob nothing refers to any more (no workbook, version or reference). */
  collect(ownerId: string, manifestHashes: Iterable<string>): void;
  get(ownerId: string, hashes: readonly string[]): Map<string, Uint8Array>;
}

function blobStatements(db: Db) {
  return {
    exists: db.prepare(`SELECT 1 FROM blobs WHERE owner_id = ? AND hash = ?`),
    insert: db.prepare(`INSERT INTO blobs (owner_id, hash, size, bytes) VALUES (?, ?, ?, ?)`),
    ref: db.prepare(`INSERT OR IGNORE INTO blob_refs (owner_id, parent_hash, child_hash) VALUES (?, ?, ?)`),
    get: db.prepare(`SELECT bytes FROM blobs WHERE owner_id = ? AND hash = ?`),
    dead: db.prepare(
      `SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM workbooks WHERE owner_id = @ownerId AND manifest_hash = @hash)
         AND NOT EXISTS (SELECT 1 FROM workbook_versions WHERE owner_id = @ownerId AND manifest_hash = @hash)
         AND NOT EXISTS (SELECT 1 FROM blob_refs WHERE owner_id = @ownerId AND child_hash = @hash)`,
    ),
    childrenOf: db.prepare(`DELETE FROM blob_refs WHERE owner_id = @ownerId AND parent_hash = @hash RETURNING child_hash`),
    delete: db.prepare(`DELETE FROM blobs WHERE owner_id = @ownerId AND hash = @hash RETURNING size`),
  };
}

export function blobsOf(db: Db, sql: SqliteExecutor, quota: QuotaSettings): Blobs {
  const stmt = blobStatements(db);
  return {
    put(ownerId, content) {
      const { given, named, refs } = checkBlobs(content);
      const fresh = [...given].filter(([hash]) => !stmt.exists.get(ownerId, hash));
      const added = fresh.reduce((sum, [, bytes]) => sum + bytes.byteLength, 0);
      if (added > 0) {
        checkQuota(quota, sql.now(lockUsage(ownerId)), added);
        sql.now(addUsage(ownerId, added));
      }
      for (const [hash, bytes] of fresh) stmt.insert.run(ownerId, hash, bytes.byteLength, toBuffer(bytes));
      for (const hash of named) if (!stmt.exists.get(ownerId, hash)) throw new Error(`Workbook blob ${hash} is neither given nor stored`);
      for (const [parent, child] of refs) stmt.ref.run(ownerId, parent, child);
    },
    collect(ownerId, manifestHashes) {
      // Level by level from the roots: a blob goes once nothing refers to it, then its children are looked at.
      let candidates = new Set(manifestHashes);
      let freed = 0;
      while (candidates.size > 0) {
        const next = new Set<string>();
        for (const hash of candidates) {
          if (!stmt.dead.get({ ownerId, hash })) continue;
          for (const row of stmt.childrenOf.all({ ownerId, hash }) as { child_hash: string }[]) next.add(row.child_hash);
          freed += (stmt.delete.get({ ownerId, hash }) as { size: number } | undefined)?.size ?? 0;
        }
        candidates = next;
      }
      sql.now(addUsage(ownerId, -freed));
    },
    get(ownerId, hashes) {
      const found = new Map<string, Uint8Array>();
      for (const hash of new Set(hashes)) {
        const row = stmt.get.get(ownerId, hash) as { bytes: Buffer } | undefined;
        if (row) found.set(hash, bytesOf(row.bytes));
      }
      return found;
    },
  };
}

export interface ValueTiles {
  /** Applies a change to a workbook's value tiles (clear, delete, put), the put ones marked with `version`. */
  apply(workbookId: string, version: number, change: ValueTilesChange | undefined): void;
  put(workbookId: string, version: number, tiles: readonly ValueTile[]): void;
  drop(workbookId: string): void;
  get(ownerId: string, workbookId: string, keys: readonly string[]): Map<string, { version: number; bytes: Uint8Array }>;
}

export function valueTilesOf(db: Db): ValueTiles {
  const stmt = {
    put: db.prepare(
      `INSERT INTO workbook_values (workbook_id, tile_key, version, bytes) VALUES (?, ?, ?, ?)
       ON CONFLICT (workbook_id, tile_key) DO UPDATE SET version = excluded.version, bytes = excluded.bytes`,
    ),
    delete: db.prepare(`DELETE FROM workbook_values WHERE workbook_id = ? AND tile_key = ?`),
    drop: db.prepare(`DELETE FROM workbook_values WHERE workbook_id = ?`),
    get: db.prepare(
      `SELECT v.version, v.bytes FROM workbook_values v JOIN workbooks w ON w.id = v.workbook_id
       WHERE w.owner_id = ? AND w.id = ? AND w.deleted_at IS NULL AND v.tile_key = ?`,
    ),
  };
  const put = (workbookId: string, version: number, tiles: readonly ValueTile[]) => {
    for (const tile of tiles) stmt.put.run(workbookId, tile.key, version, toBuffer(tile.bytes));
  };
  return {
    put,
    apply(workbookId, version, change) {
      if (!change) return;
      if (change.clear) stmt.drop.run(workbookId);
      for (const key of change.delete ?? []) stmt.delete.run(workbookId, key);
      put(workbookId, version, change.put ?? []);
    },
    drop: (workbookId) => void stmt.drop.run(workbookId),
    get(ownerId, workbookId, keys) {
      const found = new Map<string, { version: number; bytes: Uint8Array }>();
      for (const key of new Set(keys)) {
        const row = stmt.get.get(ownerId, workbookId, key) as { version: number; bytes: Buffer } | undefined;
        if (row) found.set(key, { version: row.version, bytes: bytesOf(row.bytes) });
      }
      return found;
    },
  };
}
