// Workbook blobs on SQLite (types/workbooks.ts): manifests and tiles stored once per owner and
// hash, charged against the quota when new, collected when no version's manifest refers to them;
// and the current version's value tiles. Everything here runs inside the caller's transaction.
import { blobHash } from "../content.ts";
import { bytesOf, toBuffer } from "../rows.ts";
import type { ValueTile, ValueTilesChange, WorkbookContent } from "../types.ts";
import type { Db } from "./connection.ts";
import type { Usage } from "./usage.ts";

export interface Blobs {
  /** Stores the manifest and the new blobs (charging the quota), records which tiles the manifest lists; returns its hash. */
  put(ownerId: string, content: WorkbookContent): string;
  /** Collects the manifests among `manifestHashes` no workbook or version refers to, with the tiles only they listed. */
  collect(ownerId: string, manifestHashes: Iterable<string>): void;
  get(ownerId: string, hashes: readonly string[]): Map<string, Uint8Array>;
}

function blobStatements(db: Db) {
  const unreferenced = (column: string) =>
    `NOT EXISTS (SELECT 1 FROM workbooks WHERE owner_id = @ownerId AND manifest_hash = ${column})
     AND NOT EXISTS (SELECT 1 FROM workbook_versions WHERE owner_id = @ownerId AND manifest_hash = ${column})`;
  return {
    exists: db.prepare(`SELECT 1 FROM blobs WHERE owner_id = ? AND hash = ?`),
    insert: db.prepare(`INSERT INTO blobs (owner_id, hash, size, bytes) VALUES (?, ?, ?, ?)`),
    ref: db.prepare(`INSERT OR IGNORE INTO blob_refs (owner_id, manifest_hash, tile_hash) VALUES (?, ?, ?)`),
    get: db.prepare(`SELECT bytes FROM blobs WHERE owner_id = ? AND hash = ?`),
    deadManifest: db.prepare(`SELECT 1 WHERE ${unreferenced("@hash")}`),
    tilesOf: db.prepare(`SELECT tile_hash FROM blob_refs WHERE owner_id = @ownerId AND manifest_hash = @hash`),
    unref: db.prepare(`DELETE FROM blob_refs WHERE owner_id = @ownerId AND manifest_hash = @hash`),
    collect: db.prepare(
      `DELETE FROM blobs WHERE owner_id = @ownerId AND hash = @hash AND ${unreferenced("@hash")}
         AND NOT EXISTS (SELECT 1 FROM blob_refs WHERE owner_id = @ownerId AND tile_hash = @hash)
       RETURNING size`,
    ),
  };
}

export function blobsOf(db: Db, usage: Usage): Blobs {
  const stmt = blobStatements(db);
  return {
    put(ownerId, content) {
      const manifestHash = blobHash(content.manifest);
      const tiles = new Set(content.tiles);
      const fresh = new Map<string, Uint8Array>();
      for (const bytes of [content.manifest, ...content.blobs]) {
        const hash = blobHash(bytes);
        // A blob no manifest lists could never be collected.
        if (bytes !== content.manifest && !tiles.has(hash)) throw new Error(`Blob ${hash} is not a tile the manifest lists`);
        if (!fresh.has(hash) && !stmt.exists.get(ownerId, hash)) fresh.set(hash, bytes);
      }
      usage.charge(
        ownerId,
        [...fresh.values()].reduce((sum, bytes) => sum + bytes.byteLength, 0),
      );
      for (const [hash, bytes] of fresh) stmt.insert.run(ownerId, hash, bytes.byteLength, toBuffer(bytes));
      for (const tile of tiles) {
        if (!stmt.exists.get(ownerId, tile)) throw new Error(`The manifest lists tile ${tile}, which is neither given nor stored`);
        stmt.ref.run(ownerId, manifestHash, tile);
      }
      return manifestHash;
    },
    collect(ownerId, manifestHashes) {
      const candidates = new Set<string>();
      for (const hash of new Set(manifestHashes)) {
        if (!stmt.deadManifest.get({ ownerId, hash })) continue;
        candidates.add(hash);
        for (const row of stmt.tilesOf.all({ ownerId, hash }) as { tile_hash: string }[]) candidates.add(row.tile_hash);
        stmt.unref.run({ ownerId, hash });
      }
      let freed = 0;
      for (const hash of candidates) freed += (stmt.collect.get({ ownerId, hash }) as { size: number } | undefined)?.size ?? 0;
      usage.release(ownerId, freed);
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
