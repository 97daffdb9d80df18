// What each owner's stored content takes up (storage_usage), charged and released by the writes
// that add or collect content, inside their transactions, and checked against the quota.
import { checkQuota, type QuotaSettings } from "../quota.ts";
import type { StorageStore } from "../types.ts";
import type { Db } from "./connection.ts";
import type { SqliteContext } from "./context.ts";

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

export function createSqliteStorage({ usage }: SqliteContext): StorageStore {
  return {
    async storageUsage(ownerId) {
      return usage.of(ownerId);
    },
  };
}
