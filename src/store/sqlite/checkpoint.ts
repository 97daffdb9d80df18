// WAL checkpoints off the request path. SQLite's automatic checkpoint runs inside the commit that
// takes the WAL past 1,000 pages: with 400,000-character documents (about 1 MB of content a
// create) every fourth or fifth create paid 12–25 ms for copying the WAL into the database and
// syncing it. The connection's automatic checkpoint is raised to a backstop (BACKSTOP_PAGES, in
// case the timer cannot keep up), and a timer checkpoints between requests instead: PASSIVE, so
// it never waits for a reader or a writer, and a WAL with nothing new costs it microseconds.
// Durability is unchanged: a commit is in the WAL (synchronous = NORMAL) whether or not a
// checkpoint has copied it.
import type { Db } from "./connection.ts";

/** How often the timer checkpoints (ms): a burst of writes is copied into the database within this. */
export const CHECKPOINT_INTERVAL_MS = 100;
/** The connection's own automatic checkpoint, at twice SQLite's default (8 MB of 4 KiB pages): only if more than that is written between two ticks. */
export const BACKSTOP_PAGES = 2_000;

export interface Checkpoints {
  /** Stops the timer (closing the connection checkpoints what is left). */
  stop(): void;
}

export function checkpointInBackground(db: Db, intervalMs = CHECKPOINT_INTERVAL_MS): Checkpoints {
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  const timer = setInterval(() => {
    try {
      if (db.open) db.pragma("wal_checkpoint(PASSIVE)");
    } catch {
      // An I/O error here fails no request: the next tick tries again, and a commit past the
      // backstop checkpoints (and reports the error to its caller) as SQLite always has.
    }
  }, intervalMs);
  // The timer never keeps the process alive: a gateway shutting down closes the store.
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
