// WAL checkpoints off the main thread. SQLite's automatic checkpoint runs inside the commit that
// takes the WAL past 1,000 pages: with 400,000-character documents (about 1 MB of content a
// create) every fourth or fifth create paid 12–25 ms for copying the WAL into the database and
// syncing it, and a 100,000-formula workbook's commit 84–243 ms, all on the event loop that
// answers /healthz and every other request. The main connection's automatic checkpoint is turned
// off, and a worker thread with a connection of its own to the same file runs
// `wal_checkpoint(PASSIVE)` on a timer: PASSIVE never waits for a reader or a writer, and a WAL
// with nothing new costs it microseconds. The thread is not niced: it takes SQLite's locks, and a
// lock holder starved of the CPU would keep the event loop's reads waiting. Durability is unchanged: a commit is in the WAL
// (synchronous = NORMAL) whether or not a checkpoint has copied it.
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { Db } from "./connection.ts";

/** How often the worker checkpoints (ms): a burst of writes is copied into the database within this. */
export const CHECKPOINT_INTERVAL_MS = 100;

export interface Checkpoints {
  /** Stops the worker (closing the main connection checkpoints what is left). */
  stop(): void;
}

/**
 * The worker's code, evaluated (not a file): it needs no TypeScript loader from the sources and no
 * copy step in the build. It opens the database the main connection has already created and
 * migrated; a failed tick fails no request, and the next one tries again.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("busy_timeout = 0");
db.pragma("wal_autocheckpoint = 0");
const tick = () => {
  try {
    const [row] = db.pragma("wal_checkpoint(PASSIVE)");
    if (row && row.checkpointed > 0) parentPort.postMessage({ checkpointed: row.checkpointed });
  } catch {}
};
const timer = setInterval(tick, workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface CheckpointOptions {
  intervalMs?: number;
  /** Told the pages each checkpoint copied (tests: proof that the worker did it). */
  onCheckpoint?: (pages: number) => void;
}

export function checkpointInBackground(db: Db, options: CheckpointOptions = {}): Checkpoints {
  // No checkpoint inside a commit on the main thread: the worker copies the WAL instead.
  db.pragma("wal_autocheckpoint = 0");
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      module: createRequire(import.meta.url).resolve("better-sqlite3"),
      file: db.name,
      intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS,
    },
  });
  // The worker never keeps the process alive: a gateway shutting down closes the store.
  worker.unref();
  worker.on("message", (message: { checkpointed: number }) => options.onCheckpoint?.(message.checkpointed));
  worker.on("error", () => {
    // The worker could not open the database (or died): SQLite's own automatic checkpoint, inside
    // the commit that takes the WAL past 1,000 pages, keeps the WAL bounded as it always has.
    if (db.open) db.pragma("wal_autocheckpoint = 1000");
  });
  return { stop: () => worker.postMessage("stop") };
}
