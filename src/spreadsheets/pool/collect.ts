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

export function collectGarbage(): void {
  if (!gc) {
    // A process started with --expose-gc (a bench) has one already, and keeps its flag.
    const exposed = (globalThis as { gc?: Gc }).gc;
    if (typeof exposed === "function") gc = exposed;
    else {
      setFlagsFromString("--expose-gc");
      gc = runInNewContext("gc") as Gc;
      setFlagsFromString("--no-expose-gc");
    }
  }
  gc({ type: "major", execution: "sync", flavor: "last-resort" });
}
