// Heap limits for worker threads. `npm start` gives the main thread a 32 MB semi-space
// (--max-semi-space-size, for request garbage), but V8 applies that flag to every isolate created
// after it and lets it override a worker's resourceLimits.maxYoungGenerationSizeMb: at 64 MB each
// spreadsheets worker let ~190 MB of garbage pile up before a scavenge (a 1M-cell CSV import
// lifted the gateway's RSS by 265 MB, 107 MB without the flag). The main isolate keeps the size it
// was created with, so the flag is cleared once, before the first worker, and each pool's own
// young-generation size decides for its workers.
import { setFlagsFromString } from "node:v8";
import type { ResourceLimits } from "node:worker_threads";

let cleared = false;

/** resourceLimits for a new worker: its old and young generation, in MB, whatever flags the process got. */
export function workerHeap(oldGenerationMb: number, youngGenerationMb: number): ResourceLimits {
  if (!cleared) {
    setFlagsFromString("--max-semi-space-size=0");
    cleared = true;
  }
  return { maxOldGenerationSizeMb: oldGenerationMb, maxYoungGenerationSizeMb: youngGenerationMb };
}
