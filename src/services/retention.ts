// Retention rules, run on a schedule: expired idempotency records (24 h), versions past
// VERSION_RETENTION_DAYS beyond each document's (and workbook's) VERSION_KEEP_MIN newest, the
// trash after TRASH_RETENTION_DAYS, expired share links, expired or ended sessions and sign-in
// links. Every replica runs it; each rule is one idempotent DELETE, so replicas running it at
// once only repeat work.
import type { Logger } from "../core/logger.ts";
import type { Store } from "../store/types.ts";
import { idempotentSince } from "./lifecycle.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

interface RetentionSettings {
  trashDays: number;
  versionDays: number;
  versionKeepMin: number;
  /** 0: never runs on its own (runRetention can still be called). */
  intervalMs: number;
}

/** One pass of every rule, as of `now`. */
export async function runRetention(store: Store, settings: RetentionSettings, now = Date.now()) {
  const before = (ms: number) => new Date(now - ms).toISOString();
  return {
    idempotency: await store.pruneIdempotency(idempotentSince(now)),
    versions: await store.documents.pruneVersions(before(settings.versionDays * DAY_MS), settings.versionKeepMin),
    trash: await store.documents.purgeTrash(before(settings.trashDays * DAY_MS)),
    shares: await store.pruneShares(before(0)),
    workbookVersions: await store.workbooks.pruneVersions(before(settings.versionDays * DAY_MS), settings.versionKeepMin),
    workbookTrash: await store.workbooks.purgeTrash(before(settings.trashDays * DAY_MS)),
    sessions: await store.pruneSessions(before(0)),
  };
}

/**
 * Runs the rules soon after start, then every intervalMs, never two passes at once. A failed pass
 * (the database away) is logged and tried again at the next tick. Returns the stop function.
 */
export function scheduleRetention(store: Store, settings: RetentionSettings, log: Logger): () => Promise<void> {
  if (settings.intervalMs <= 0) return async () => {};
  let running: Promise<void> | undefined;
  let stopped = false;
  const pass = () => {
    if (running || stopped) return;
    running = runRetention(store, settings)
      .then((result) => {
        if (Object.values(result).some((n) => n > 0)) log.info({ retention: result }, "retention pass removed expired records");
      })
      .catch((error: unknown) => log.warn({ err: error }, "retention pass failed; retrying at the next interval"))
      .finally(() => {
        running = undefined;
      });
  };
  // A few seconds after start, not during it: start-up stays quick and readiness is not delayed.
  const first = setTimeout(pass, Math.min(5_000, settings.intervalMs)).unref();
  const timer = setInterval(pass, settings.intervalMs).unref();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
