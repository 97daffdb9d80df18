// Emptying a render worker's young generation while it is idle. A 400k-character render allocates
// about 28 MB of short-lived objects (tokens, blocks, XML strings). Left to V8, the nursery fills
// during the next render, and its scavenge copies that render's live blocks and strings and
// promotes them, so the old generation fills and a mark-compact follows every few renders: in the
// pool the bench document took 45–50 ms when no collection fell inside it and 65–100 ms when one
// did. Collected between jobs, the nursery holds little (its collection takes about a millisecond)
// and the next render fits in it whole, given a young generation a little larger than that
// render's garbage (the pool's youngGenerationMb).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

type Collect = (options: { type: "minor" | "major"; execution?: "sync"; flavor?: "last-resort" }) => void;

let collect: Collect | undefined;

/** V8's own collector, taken once from a context made while --expose-gc is on (the flag is then turned off again). */
function collector(): Collect {
  if (!collect) {
    setFlagsFromString("--expose-gc");
    try {
      collect = runInNewContext("gc") as Collect;
    } finally {
      setFlagsFromString("--no-expose-gc");
    }
  }
  return collect;
}

/** Scavenges the young generation twice: the first keeps what survives in it, the second promotes that. */
export function emptyYoungGeneration(): void {
  const gc = collector();
  gc({ type: "minor" });
  gc({ type: "minor" });
}

/**
 * A full collection, once, when a worker has loaded its code and before it takes a job: what
 * loading left (a fresh worker's heap in use went 15.4 → 14.1 MB built, 23.2 → 16.6 MB through tsx)
 * is not charged to its first render by the pool's heap watch (../../core/heap-watch.ts).
 */
export function collectAll(): void {
  collector()({ type: "major", execution: "sync", flavor: "last-resort" });
}
