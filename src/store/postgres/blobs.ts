// Workbook blobs and value tiles on PostgreSQL (see sqlite/blobs.ts). Putting and collecting an
// owner's blobs hold the owner's usage row lock (content.ts), so "already stored?" and "nothing
// refers to it any more" never race between two transactions of one owner.
import type pg from "pg";
import { blobHash } from "../content.ts";
import { checkQuota, type QuotaSettings } from "../quota.ts";
import { bytesOf, toBuffer } from "../rows.ts";
import type { ValueTile, ValueTilesChange, WorkbookContent } from "../types.ts";
import type { PgContext } from "./connection.ts";
import { addUsage, lockUsage } from "./content.ts";

const unreferenced = (column: string) =>
  `NOT EXISTS (SELECT 1 FROM workbooks w WHERE w.owner_id = $1 AND w.manifest_hash = ${column})
   AND NOT EXISTS (SELECT 1 FROM workbook_versions v WHERE v.owner_id = $1 AND v.manifest_hash = ${column})`;

/** Stores the manifest and the new blobs (charging the quota), records which tiles the manifest lists; returns its hash. */
export async function putBlobs(client: pg.PoolClient, quota: QuotaSettings, ownerId: string, content: WorkbookContent): Promise<string> {
  const manifestHash = blobHash(content.manifest);
  const tiles = [...new Set(content.tiles)];
  const given = new Map<string, Uint8Array>([[manifestHash, content.manifest]]);
  for (const bytes of content.blobs) {
    const hash = blobHash(bytes);
    // A blob no manifest lists could never be collected.
    if (!tiles.includes(hash)) throw new Error(`Blob ${hash} is not a tile the manifest lists`);
    given.set(hash, bytes);
  }
  const used = await lockUsage(client, ownerId);
  const { rows } = await client.query<{ size: string }>(
    `INSERT INTO blobs (owner_id, hash, size, bytes)
     SELECT $1, t.hash, t.size, t.bytes FROM unnest($2::text[], $3::bigint[], $4::bytea[]) AS t (hash, size, bytes)
     ON CONFLICT (owner_id, hash) DO NOTHING RETURNING size`,
    [ownerId, [...given.keys()], [...given.values()].map((b) => b.byteLength), [...given.values()].map(toBuffer)],
  );
  const added = rows.reduce((sum, row) => sum + Number(row.size), 0);
  checkQuota(quota, used, added); // a throw rolls the inserts back
  await addUsage(client, ownerId, added);
  const present = await client.query<{ hash: string }>(`SELECT hash FROM blobs WHERE owner_id = $1 AND hash = ANY($2::text[])`, [
    ownerId,
    tiles,
  ]);
  if (present.rows.length !== tiles.length) throw new Error("The manifest lists a tile that is neither given nor stored");
  await client.query(
    `INSERT INTO blob_refs (owner_id, manifest_hash, tile_hash) SELECT $1, $2, unnest($3::text[]) ON CONFLICT DO NOTHING`,
    [ownerId, manifestHash, tiles],
  );
  return manifestHash;
}

/** Collects the manifests among `manifestHashes` no workbook or version refers to, with the tiles only they listed. */
export async function collectBlobs(client: pg.PoolClient, ownerId: string, manifestHashes: Iterable<string>): Promise<void> {
  const manifests = [...new Set(manifestHashes)];
  if (manifests.length === 0) return;
  await lockUsage(client, ownerId);
  const dead = await client.query<{ hash: string }>(`SELECT m.hash FROM unnest($2::text[]) AS m (hash) WHERE ${unreferenced("m.hash")}`, [
    ownerId,
    manifests,
  ]);
  if (dead.rows.length === 0) return;
  const deadHashes = dead.rows.map((row) => row.hash);
  const tiles = await client.query<{ tile_hash: string }>(
    `DELETE FROM blob_refs WHERE owner_id = $1 AND manifest_hash = ANY($2::text[]) RETURNING tile_hash`,
    [ownerId, deadHashes],
  );
  const { rows } = await client.query<{ size: string }>(
    `DELETE FROM blobs b WHERE b.owner_id = $1 AND b.hash = ANY($2::text[]) AND ${unreferenced("b.hash")}
       AND NOT EXISTS (SELECT 1 FROM blob_refs r WHERE r.owner_id = $1 AND r.tile_hash = b.hash)
     RETURNING b.size`,
    [ownerId, [...new Set([...deadHashes, ...tiles.rows.map((row) => row.tile_hash)])]],
  );
  await addUsage(client, ownerId, -rows.reduce((sum, row) => sum + Number(row.size), 0));
}

export async function putValueTiles(
  client: pg.PoolClient,
  workbookId: string,
  version: number,
  tiles: readonly ValueTile[],
): Promise<void> {
  if (tiles.length === 0) return;
  await client.query(
    `INSERT INTO workbook_values (workbook_id, tile_key, version, bytes)
     SELECT $1, t.key, $2, t.bytes FROM unnest($3::text[], $4::bytea[]) AS t (key, bytes)
     ON CONFLICT (workbook_id, tile_key) DO UPDATE SET version = EXCLUDED.version, bytes = EXCLUDED.bytes`,
    [workbookId, version, tiles.map((tile) => tile.key), tiles.map((tile) => toBuffer(tile.bytes))],
  );
}

/** Applies a change to a workbook's value tiles (clear, delete, put), the put ones marked with `version`. */
export async function applyValueTiles(
  client: pg.PoolClient,
  workbookId: string,
  version: number,
  change: ValueTilesChange | undefined,
): Promise<void> {
  if (!change) return;
  if (change.clear) await client.query(`DELETE FROM workbook_values WHERE workbook_id = $1`, [workbookId]);
  if (change.delete?.length) {
    await client.query(`DELETE FROM workbook_values WHERE workbook_id = $1 AND tile_key = ANY($2::text[])`, [
      workbookId,
      [...change.delete],
    ]);
  }
  await putValueTiles(client, workbookId, version, change.put ?? []);
}

export async function getBlobs({ pool }: PgContext, ownerId: string, hashes: readonly string[]): Promise<Map<string, Uint8Array>> {
  if (hashes.length === 0) return new Map();
  const { rows } = await pool.query<{ hash: string; bytes: Buffer }>(
    `SELECT hash, bytes FROM blobs WHERE owner_id = $1 AND hash = ANY($2::text[])`,
    [ownerId, [...new Set(hashes)]],
  );
  return new Map(rows.map((row) => [row.hash, bytesOf(row.bytes)]));
}

export async function getValueTiles(
  { pool }: PgContext,
  ownerId: string,
  workbookId: string,
  keys: readonly string[],
): Promise<Map<string, { version: number; bytes: Uint8Array }>> {
  if (keys.length === 0) return new Map();
  const { rows } = await pool.query<{ tile_key: string; version: number; bytes: Buffer }>(
    `SELECT v.tile_key, v.version, v.bytes FROM workbook_values v JOIN workbooks w ON w.id = v.workbook_id
     WHERE w.owner_id = $1 AND w.id = $2 AND w.deleted_at IS NULL AND v.tile_key = ANY($3::text[])`,
    [ownerId, workbookId, [...new Set(keys)]],
  );
  return new Map(rows.map((row) => [row.tile_key, { version: row.version, bytes: bytesOf(row.bytes) }]));
}
