// The per-user storage quota (STORAGE_QUOTA_MB, docs/configuration.md): what a user's distinct
// contents and blobs hold, in bytes. A write that would take a user past it stores nothing and is
// 413 PAYLOAD_TOO_LARGE naming the variable; a write that adds nothing (a rename, content already
// stored) always goes through, so an owner over a lowered quota can still rename, trash and purge.
import { GatewayError } from "../core/errors.ts";

export interface QuotaSettings {
  /** Bytes per owner; 0: unlimited. */
  limitBytes: number;
  /** Called once per refused write (the /metrics counter). */
  onExceeded?: () => void;
}

export const unlimited: QuotaSettings = { limitBytes: 0 };

/** Throws when adding `adding` bytes to `usage` would pass the limit. */
export function checkQuota(settings: QuotaSettings, usage: number, adding: number): void {
  const limit = settings.limitBytes;
  if (limit <= 0 || adding <= 0 || usage + adding <= limit) return;
  settings.onExceeded?.();
  throw new GatewayError(
    "PAYLOAD_TOO_LARGE",
    `Storage quota exceeded: this write needs ${adding} more bytes and ${usage} of the ${limit} bytes STORAGE_QUOTA_MB allows each user are in use; purge documents from the trash, or ask the operator to raise STORAGE_QUOTA_MB`,
    { details: { limit, usage, required: adding } },
  );
}
