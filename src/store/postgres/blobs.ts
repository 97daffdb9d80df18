// Workbook blobs (roots, pages, tiles, and the references between them) on PostgreSQL (see
// sqlite/blobs.ts). Putting and collecting an owner's blobs hold the owner's usage row lock
// (../contents.ts), so "already stored?" and "nothing refers to it any more" never race between
// two transactions of one owner.
import type pg from "pg";
import { inSlices } from "../../core/slices.ts";
import { checkingBlobs } from "../blob-graph.ts";
import { checkQuota, type QuotaSettings } from "../quota.ts";
import { bytesOf, toBuffer } from "../rows.ts";
import type { WorkbookContent } from "../types.ts";
import type { PgContext } from "./connection.ts";
import { addUsage, lockUsage } from "../contents.ts";
import { onClient } from "./executor.ts";

/**
 * Stores the blobs the owner lacks (charging the quota) and the references between them. The
 * hashes are checked a few milliseconds at a time (a large workbook's thousands of blobs); the
 * statements do not hold the event loop, so unlike SQLite's (sqlite/blobs.ts) nothing is staged.
 */
export async function putBlobs(client: pg.PoolClient, quota: QuotaSettings, ownerId: string, content: WorkbookContent): Promise<void> {
  const { given, named, refs } = await inSlices(checkingBlobs(content));
  const used = await onClient(client, lockUsage(ownerId));
  const { rows } = await client.query<{ size: string }>(
    `INSERT INTO blobs (owner_id, hash, size, bytes)
     SELECT $1, t.hash, t.size, t.bytes FROM unnest($2::text[], $3::bigint[], $4::bytea[]) AS t (hash, size, bytes)
     ON CONFLICT (owner_id, hash) DO NOTHING RETURNING size`,
    [ownerId, [...given.keys()], [...given.values()].map((b) => b.byteLength), [...given.values()].map(toBuffer)],
  );
  const added = rows.reduce((sum, row) => sum + Number(row.size), 0);
  checkQuota(quota, used, added); // a throw rolls the inserts back
  await onClient(client, addUsage(ownerId, added));
  if (named.length > 0) {
    const present = await client.query(`SELECT 1 FROM blobs WHERE owner_id = $1 AND hash = ANY($2::text[])`, [ownerId, named]);
    if (present.rowCount !== named.length)
      throw new Error("A workbook blob named by the manifest or a reference is neither given nor stored");
  }
  await client.query(
    `INSERT INTO blob_refs (owner_id, parent_hash, child_hash) SELECT $1, r.parent, r.child FROM unnest($2::text[], $3::text[]) AS r (parent, child)
     ON CONFLICT DO NOTHING`,
    [ownerId, refs.map(([parent]) => parent), refs.map(([, child]) => child)],
  );
}

/** Collects, from the given manifest roots down, every blob nothing refers to any more (no workbook, version or reference). */
export async function collectBlobs(client: pg.PoolClient, ownerId: string, manifestHashes: Iterable<string>): Promise<void> {
  let candidates = [...new Set(manifestHashes)];
  if (candidates.length === 0) return;
  await onClient(client, lockUsage(ownerId));
  let freed = 0;
  // Level by level from the roots: a blob goes once nothing refers to it, then its children are looked at.
  while (candidates.length > 0) {
    const dead = await client.query<{ hash: string }>(
      `SELECT c.hash FROM unnest($2::text[]) AS c (hash)
       WHERE NOT EXISTS (SELECT 1 FROM workbooks w WHERE w.owner_id = $1 AND w.manifest_hash = c.hash)
         AND NOT EXISTS (SELECT 1 FROM workbook_versions v WHERE v.owner_id = $1 AND v.manifest_hash = c.hash)
         AND NOT EXISTS (SELECT 1 FROM blob_refs r WHERE r.owner_id = $1 AND r.child_hash = c.hash)`,
      [ownerId, candidates],
    );
    if (dead.rows.length === 0) break;
    const hashes = dead.rows.map((row) => row.hash);
    const children = await client.query<{ child_hash: string }>(
      `DELETE FROM blob_refs WHERE owner_id = $1 AND parent_hash = ANY($2::text[]) RETURNING child_hash`,
      [ownerId, hashes],
    );
    const gone = await client.query<{ size: string }>(`DELETE FROM blobs WHERE owner_id = $1 AND hash = ANY($2::text[]) RETURNING size`, [
      ownerId,
      hashes,
    ]);
    freed += gone.rows.reduce((sum, row) => sum + Number(row.size), 0);
    candidates = [...new Set(children.rows.map((row) => row.child_hash))];
  }
  await onClient(client, addUsage(ownerId, -freed));
}

export async function getBlobs({ pool }: PgContext, ownerId: string, hashes: readonly string[]): Promise<Map<string, Uint8Array>> {
  if (hashes.length === 0) return new Map();
  const { rows } = await pool.query<{ hash: string; bytes: Buffer }>(
    `SELECT hash, bytes FROM blobs WHERE owner_id = $1 AND hash = ANY($2::text[])`,
    [ownerId, [...new Set(hashes)]],
  );
  return new Map(rows.map((row) => [row.hash, bytesOf(row.bytes)]));
}
