// WAL checkpoints off the event loop. SQLite checkpoints on its own inside the commit that takes
// the WAL past wal_autocheckpoint pages, on the thread that committed: here the event loop. A
// 400,000-character document's create (1 MB of content) then took 13–15 ms instead of 3 every
// fifth time, copying ~4 MB from the WAL into the database and syncing it while every other
// request waited. A worker thread with a connection of its own checkpoints instead, a few times a
// second, in PASSIVE mode (it never waits for, nor blocks, the gateway's readers and writers).
// The main connection keeps an automatic checkpoint as a backstop, at a higher threshold, should
// the worker fall behind or stop.
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { Db } from "./connection.ts";

/** How often the worker is asked to checkpoint. */
const INTERVAL_MS = 250;
/** The main connection's own automatic checkpoint, in pages (4 KB): 16 MB of WAL, 4× SQLite's default. */
export const BACKSTOP_PAGES = 4000;

// Plain CommonJS, run with eval: no TypeScript loader is needed in the worker, under tsx or from dist/.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.module);
const db = new Database(workerData.file);
db.pragma("busy_timeout = 0");
parentPort.on("message", (message) => {
  if (message === "close") {
    db.close();
    parentPort.close();
    return;
  }
  let checkpointed = 0;
  try {
    checkpointed = db.pragma("wal_checkpoint(PASSIVE)")[0].checkpointed;
  } catch {
    // Busy (another checkpoint is running): the next round takes it.
  }
  parentPort.postMessage(checkpointed);
});
`;

export interface Checkpointer {
  /** Stops the worker after its current checkpoint; the main connection's close checkpoints the rest. */
  close(): Promise<void>;
}

/** Starts checkpointing `file`'s WAL in a worker thread, and raises `db`'s own automatic checkpoint to the backstop. */
export function startCheckpointer(db: Db, file: string): Checkpointer {
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  const module = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, module } });
  // Neither keeps the process alive: a store left open does not hold a CLI or a test run.
  worker.unref();
  let waiting = false;
  worker.on("message", () => (waiting = false));
  worker.on("error", () => {
    // The backstop checkpoints from now on.
    clearInterval(timer);
  });
  const timer = setInterval(() => {
    if (waiting) return;
    waiting = true;
    worker.postMessage("checkpoint");
  }, INTERVAL_MS);
  timer.unref();
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return {
    async close() {
      clearInterval(timer);
      worker.postMessage("close");
      const force = setTimeout(() => void worker.terminate(), 2_000);
      await exited;
      clearTimeout(force);
    },
  };
}
