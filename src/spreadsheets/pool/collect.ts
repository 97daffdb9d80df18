// A full garbage collection, which a spreadsheets worker asks for after a job that built or walked
// a whole large workbook. An import or a download of a million cells leaves ~100 MB of dead cells,
// strings and tile buffers in the worker's heap, which V8 keeps as RSS until its memory reducer
// runs, so the next jobs' peaks stacked on top of it (bench:sheets:gateway: 372–391 MB through the
// issue's steps without, 334–341 with). Node has no API for it: the gc function of a context made
// while --expose-gc is set is the usual way, and the flag is cleared at once so no other context
// (in this thread or another) gets one.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** A job touching at least this many cells is followed by a collection. */
export const COLLECT_AFTER_CELLS = 100_000;

let gc: (() => void) | undefined;

export function collectGarbage(): void {
  if (!gc) {
    // A process started with --expose-gc (a bench) has one already, and keeps its flag.
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (typeof exposed === "function") gc = exposed;
    else {
      setFlagsFromString("--expose-gc");
      gc = runInNewContext("gc") as () => void;
      setFlagsFromString("--no-expose-gc");
    }
  }
  gc();
}
