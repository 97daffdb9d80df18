// What each owner's stored blobs take up (storage_usage), charged and released by the workbook
// writes that add or collect them, inside their transactions, and checked against the quota
// (documents' contents do the same as steps, ../contents.ts; the stage writes of a large
// workbook, sqlite/blobs.ts, run outside any write's steps, so SQLite's blobs keep these).
import { checkQuota, type QuotaSettings } from "../quota.ts";
import type { Db } from "./connection.ts";

export interface Usage {
  /** Adds `bytes` to the owner's usage, or throws the quota error (rolling the transaction back). */
  charge(ownerId: string, bytes: number): void;
  release(ownerId: string, bytes: number): void;
  /** Throws the quota error when adding `bytes` would pass the quota; adds nothing. */
  check(ownerId: string, bytes: number): void;
  of(ownerId: string): number;
}

export function usageOf(db: Db, quota: QuotaSettings): Usage {
  const get = db.prepare(`SELECT bytes FROM storage_usage WHERE owner_id = ?`);
  const add = db.prepare(
    `INSERT INTO storage_usage (owner_id, bytes) VALUES (?, ?) ON CONFLICT (owner_id) DO UPDATE SET bytes = bytes + excluded.bytes`,
  );
  const of = (ownerId: string) => (get.get(ownerId) as { bytes: number } | undefined)?.bytes ?? 0;
  return {
    of,
    charge(ownerId, bytes) {
      if (bytes <= 0) return;
      checkQuota(quota, of(ownerId), bytes);
      add.run(ownerId, bytes);
    },
    check: (ownerId, bytes) => checkQuota(quota, of(ownerId), bytes),
    release(ownerId, bytes) {
      if (bytes > 0) add.run(ownerId, -bytes);
    },
  };
}
