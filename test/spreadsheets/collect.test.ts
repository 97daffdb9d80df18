// The full collection a spreadsheets worker runs after a large job: it frees dead objects at once,
// gives the freed pages back to the system, and leaves no `gc` to any other context.
import { getHeapStatistics } from "node:v8";
import { runInNewContext } from "node:vm";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { collectGarbage, gcFunction } from "../../src/spreadsheets/pool/collect.ts";

/** Threads that set and clear --expose-gc over and over, as other workers getting their gc do. */
const TOGGLER = `
const { setFlagsFromString } = require("node:v8");
const { parentPort } = require("node:worker_threads");
let stop = false;
parentPort.once("message", () => (stop = true));
const spin = () => {
  for (let i = 0; i < 500; i++) { setFlagsFromString("--expose-gc"); setFlagsFromString("--no-expose-gc"); }
  if (stop) parentPort.postMessage("stopped"); else setImmediate(spin);
};
spin();`;

describe("collectGarbage", () => {
  it("frees what is dead now, and exposes gc to no other context", () => {
    collectGarbage();
    const before = getHeapStatistics().used_heap_size;
    let dead: string[][] | undefined = Array.from({ length: 4_000 }, (_, i) => Array.from({ length: 100 }, (_, j) => `cell ${i}:${j}`));
    // ~18 MB live; a scavenge while it is built may already have freed its temporaries.
    expect(getHeapStatistics().used_heap_size - before).toBeGreaterThan(6_000_000);
    dead = undefined;
    collectGarbage();
    expect(dead).toBeUndefined();
    expect(getHeapStatistics().used_heap_size - before).toBeLessThan(2_000_000);
    expect(runInNewContext("typeof gc")).toBe("undefined");
  });

  it("gives the freed pages back rather than pooling them (RSS falls)", () => {
    collectGarbage();
    let dead: { row: number; text: string }[] | undefined = Array.from({ length: 1_500_000 }, (_, row) => ({ row, text: `cell ${row}` }));
    const built = process.memoryUsage.rss();
    expect(dead.length).toBe(1_500_000);
    dead = undefined;
    collectGarbage();
    // ~100 MB of objects: a plain full collection frees them but keeps their pages (RSS stays).
    expect(built - process.memoryUsage.rss()).toBeGreaterThan(50_000_000);
  });

  it("finds its gc function while other threads set and clear the flag", async () => {
    const togglers = [0, 1].map(() => new Worker(TOGGLER, { eval: true }));
    let missed = 0;
    try {
      for (let i = 0; i < 3_000; i++) if (typeof gcFunction() !== "function") missed++;
    } finally {
      await Promise.all(
        togglers.map((worker) => {
          const stopped = new Promise((resolve) => worker.once("message", resolve));
          worker.postMessage("stop");
          return stopped.then(() => worker.terminate());
        }),
      );
    }
    expect(missed).toBe(0);
    expect(runInNewContext("typeof gc")).toBe("undefined");
  });
});
