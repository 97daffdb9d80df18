// A full garbage collection, which a spreadsheets worker asks for after a job that built or walked
// a whole large workbook. An import or a download of a million cells leaves ~100 MB of dead cells,
// strings and tile buffers in the worker's heap, which V8 keeps as RSS until its memory reducer
// runs, so the next jobs' peaks stacked on top of it (bench:sheets:gateway: 372–391 MB through the
// issue's steps without, 334–341 with). Node has no API for it: the gc function of a context made
// while --expose-gc is set is the usual way, and the flag is cleared at once so no other context
// (in this thread or another) gets one.
// The collection is V8's "last resort" one (what Isolate::LowMemoryNotification runs): a plain
// full collection frees the objects but keeps their pages pooled for reuse, and keeps the young
// generation as large as it grew — after a 1M-cell import, ~30–40 MB of the worker's RSS (trace-gc's
// "pooled: 29–39 MB") held through every step after it. This one releases both.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** A job touching at least this many cells is followed by a collection. */
export const COLLECT_AFTER_CELLS = 100_000;

type Gc = (options?: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;

let gc: Gc | undefined;

/**
 * This thread's gc function. The flag is process-wide: two workers starting together may clear it
 * for each other between the set and the new context (the second then finds no gc: it tries again;
 * a single try failed ~1 in 700 with three threads at it, and threw from the worker's start-up).
 * @internal exported for its test
 */
export function gcFunction(): Gc | undefined {
  // A process started with --expose-gc (a bench) has one already, and keeps its flag.
  const exposed = (globalThis as { gc?: Gc }).gc;
  if (typeof exposed === "function") return exposed;
  for (let attempt = 0; attempt < 20; attempt++) {
    setFlagsFromString("--expose-gc");
    const found = runInNewContext("typeof gc === 'function' ? gc : undefined") as Gc | undefined;
    setFlagsFromString("--no-expose-gc");
    if (found) return found;
  }
  return undefined;
}

/** Runs the collection; without a gc function (not found) it is skipped: it only gives memory back. */
export function collectGarbage(): void {
  gc ??= gcFunction();
  gc?.({ type: "major", execution: "sync", flavor: "last-resort" });
}
