// Document contents and storage usage on PostgreSQL (see sqlite/content.ts and sqlite/usage.ts).
// Every write that adds or collects an owner's content first locks the owner's storage_usage row,
// so that two transactions of one owner never race between "is it stored?" and "nothing refers to
// it any more", and the quota is checked against a usage no one else is changing. Lock order: a
// document's row (when the write has one), then the usage row; several owners in owner order.
import type pg from "pg";
import { contentRow } from "../content.ts";
import { checkQuota, type QuotaSettings } from "../quota.ts";
import { toBuffer } from "../rows.ts";
import type { DocumentContent, StorageStore } from "../types.ts";
import type { PgContext } from "./connection.ts";

/** Locks the owner's usage row (creating it at 0) and returns its bytes. */
export async function lockUsage(client: pg.PoolClient, ownerId: string): Promise<number> {
  const { rows } = await client.query<{ bytes: string }>(
    `INSERT INTO storage_usage (owner_id, bytes) VALUES ($1, 0)
     ON CONFLICT (owner_id) DO UPDATE SET bytes = storage_usage.bytes RETURNING bytes`,
    [ownerId],
  );
  return Number(rows[0]!.bytes);
}

export async function addUsage(client: pg.PoolClient, ownerId: string, bytes: number): Promise<void> {
  if (bytes !== 0) await client.query(`UPDATE storage_usage SET bytes = bytes + $2 WHERE owner_id = $1`, [ownerId, bytes]);
}

/** Stores the content unless the owner already has it (charging the quota); returns its hash and lengths. */
export async function putContent(client: pg.PoolClient, quota: QuotaSettings, ownerId: string, content: DocumentContent) {
  const row = contentRow(content);
  const used = await lockUsage(client, ownerId);
  const inserted = await client.query(
    `INSERT INTO contents (owner_id, hash, size_bytes, text_chars, markdown_chars, docx, text, markdown)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (owner_id, hash) DO NOTHING`,
    [ownerId, row.hash, row.sizeBytes, row.textChars, row.markdownChars, toBuffer(content.docx), content.text, content.markdown],
  );
  if (inserted.rowCount === 0) return row;
  // Over the quota: the throw rolls the insert back with everything else.
  checkQuota(quota, used, row.sizeBytes);
  await addUsage(client, ownerId, row.sizeBytes);
  return row;
}

/** Deletes those of `hashes` that no document or version of the owner refers to, releasing their bytes. */
export async function collectContents(client: pg.PoolClient, ownerId: string, hashes: Iterable<string>): Promise<void> {
  const distinct = [...new Set(hashes)];
  if (distinct.length === 0) return;
  await lockUsage(client, ownerId);
  const { rows } = await client.query<{ size_bytes: string }>(
    `DELETE FROM contents c WHERE c.owner_id = $1 AND c.hash = ANY($2::text[])
       AND NOT EXISTS (SELECT 1 FROM documents d WHERE d.owner_id = $1 AND d.content_hash = c.hash)
       AND NOT EXISTS (SELECT 1 FROM document_versions v WHERE v.owner_id = $1 AND v.content_hash = c.hash)
     RETURNING c.size_bytes`,
    [ownerId, distinct],
  );
  await addUsage(client, ownerId, -rows.reduce((sum, row) => sum + Number(row.size_bytes), 0));
}

export function createPostgresStorage({ pool }: PgContext): StorageStore {
  return {
    async storageUsage(ownerId) {
      const { rows } = await pool.query<{ bytes: string }>(`SELECT bytes FROM storage_usage WHERE owner_id = $1`, [ownerId]);
      return Number(rows[0]?.bytes ?? 0);
    },
  };
}
