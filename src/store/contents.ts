// Each kind's content in the one lifecycle, and storage usage, on either database (sql.ts).
// Documents' contents (content.ts addresses them) are stored once per owner and hash by creates
// and changes, collected when nothing refers to them, inside the caller's transaction. Every step
// that adds or collects an owner's content first locks the owner's storage_usage row, so that on
// PostgreSQL two transactions of one owner never race between "is it stored?" and "nothing refers
// to it any more", and the quota is checked against a usage no one else is changing (lock order:
// the item's row, then the usage row; several owners in owner order). SQLite's immediate
// transaction already holds the database.
import { contentRow } from "./content.ts";
import { workbookKind } from "./kinds.ts";
import { itemLifecycle, type ItemContent } from "./lifecycle.ts";
import { checkQuota, type QuotaSettings } from "./quota.ts";
import { toBuffer } from "./rows.ts";
import { call, inList, query, type Executor, type Tx } from "./sql.ts";
import type { DocumentContent, WorkbookContent } from "./types.ts";

/** Locks the owner's usage row (creating it at 0) and returns its bytes. */
export function* lockUsage(ownerId: string): Tx<number> {
  const [row] = yield* query(
    `INSERT INTO storage_usage (owner_id, bytes) VALUES (:ownerId, 0)
     ON CONFLICT (owner_id) DO UPDATE SET bytes = storage_usage.bytes RETURNING bytes`,
    { ownerId },
  );
  return Number(row!["bytes"]);
}

export function* addUsage(ownerId: string, bytes: number): Tx<void> {
  if (bytes !== 0) yield* query(`UPDATE storage_usage SET bytes = bytes + :bytes WHERE owner_id = :ownerId`, { ownerId, bytes });
}

/** Charges the owner `bytes`, or throws the quota error (rolling the transaction back). */
export function* chargeUsage(quota: QuotaSettings, ownerId: string, bytes: number): Tx<void> {
  if (bytes <= 0) return;
  checkQuota(quota, yield* lockUsage(ownerId), bytes);
  yield* addUsage(ownerId, bytes);
}

/**
 * Workbooks in the one lifecycle, their content blobs (shared by versions, collected when nothing
 * refers to them) through each database's own calls on its client K (sqlite/blobs.ts, postgres/blobs.ts);
 * SQLite's also stage a large content's blobs before the transaction.
 */
export function workbookItems<K>(
  sql: Executor<K>,
  blobs: Pick<ItemContent<WorkbookContent, K>, "stage"> & {
    put(client: K, ownerId: string, content: WorkbookContent): void | Promise<void>;
    collect(client: K, ownerId: string, manifests: Iterable<string>): void | Promise<void>;
    /** The owner's blobs by hash (those not stored are missing from the map). */
    getBlobs(ownerId: string, hashes: readonly string[]): Promise<Map<string, Uint8Array>>;
  },
) {
  const content: ItemContent<WorkbookContent, K> = {
    *put(ownerId, content) {
      yield* call((client: K) => blobs.put(client, ownerId, content));
      const { sizeBytes, cells, sheets, manifestHash } = content;
      return { size_bytes: sizeBytes, cells, sheets: JSON.stringify(sheets), manifest_hash: manifestHash };
    },
    collect: (ownerId, manifests) => call((client: K) => blobs.collect(client, ownerId, manifests)),
    stage: blobs.stage,
  };
  return { ...itemLifecycle(sql, workbookKind, content), getBlobs: blobs.getBlobs };
}

/**
 * Documents' content in the one lifecycle (lifecycle.ts), as both databases keep it: stored unless
 * the owner already has it (charging the quota), collected when no document or version of the
 * owner refers to it any more (releasing its bytes).
 */
export const documentContent = (quota: QuotaSettings): ItemContent<DocumentContent, unknown> => ({
  *put(ownerId, content) {
    const row = contentRow(content);
    const used = yield* lockUsage(ownerId);
    const inserted = yield* query(
      `INSERT INTO contents (owner_id, hash, size_bytes, text_chars, markdown_chars, docx, text, markdown)
       VALUES (:ownerId, :hash, :sizeBytes, :textChars, :markdownChars, :docx, :text, :markdown) ON CONFLICT (owner_id, hash) DO NOTHING
       RETURNING hash`,
      { ...row, ownerId, docx: toBuffer(content.docx), text: content.text, markdown: content.markdown },
    );
    if (inserted.length > 0) {
      // Over the quota: the throw rolls the insert back with everything else.
      checkQuota(quota, used, row.sizeBytes);
      yield* addUsage(ownerId, row.sizeBytes);
    }
    return { size_bytes: content.docx.byteLength, characters: row.textChars, content_hash: row.hash };
  },
  *collect(ownerId, hashes) {
    const distinct = [...new Set(hashes)];
    if (distinct.length === 0) return;
    yield* lockUsage(ownerId);
    const [among, values] = inList("hash", distinct);
    const gone = yield* query(
      `DELETE FROM contents WHERE owner_id = :ownerId AND hash ${among}
         AND NOT EXISTS (SELECT 1 FROM documents d WHERE d.owner_id = :ownerId AND d.content_hash = contents.hash)
         AND NOT EXISTS (SELECT 1 FROM document_versions v WHERE v.owner_id = :ownerId AND v.content_hash = contents.hash)
       RETURNING size_bytes`,
      { ...values, ownerId },
    );
    yield* addUsage(ownerId, -gone.reduce((sum, row) => sum + Number(row["size_bytes"]), 0));
  },
});

export const createStorage = (sql: Executor) => ({
  /** Bytes the owner's distinct contents and blobs hold (every version and the trash included). */
  async storageUsage(ownerId: string) {
    const [row] = await sql.all(`SELECT bytes FROM storage_usage WHERE owner_id = :ownerId`, { ownerId });
    return Number(row?.["bytes"] ?? 0);
  },
});
