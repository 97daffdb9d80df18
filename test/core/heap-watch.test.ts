// A busy worker's heap, watched from the pool's thread (src/core/heap-watch.ts): the watch stops a
// job whose heap passes its limit long before V8's own cap, whose out-of-memory path can abort the
// whole process on Node.js 26.
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { heapCapMb, watchHeap } from "../../src/core/heap-watch.ts";

/** A worker that keeps arrays alive (about `kbPerMs` more each millisecond) until it is stopped. */
function growing(capMb: number, kbPerMs: number): Worker {
  const code = `const kept = []; let n = 0;
    setInterval(() => { for (let i = 0; i < ${kbPerMs / 8}; i++) kept.push(Array.from({ length: 1000 }, () => n++ / 3)); }, 1);`;
  return new Worker(code, { eval: true, resourceLimits: { maxOldGenerationSizeMb: capMb, maxYoungGenerationSizeMb: 4 } });
}

const workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.terminate()));
});

describe("watchHeap", () => {
  it("calls onOver once, with the heap in use, when a busy worker passes its limit; V8's cap is never reached", async () => {
    const worker = growing(heapCapMb(32), 200);
    workers.push(worker);
    const errors: Error[] = [];
    worker.on("error", (error: Error) => errors.push(error));
    const calls: number[] = [];
    const usedMb = await new Promise<number>((resolve) => {
      watchHeap(worker, 32, (used) => {
        calls.push(used);
        resolve(used);
      });
    });
    expect(usedMb).toBeGreaterThan(32);
    expect(usedMb).toBeLessThan(heapCapMb(32));
    // Still growing for a few samples more (far from V8's cap, whose path is what the watch
    // avoids), but the watch has stopped: one call only. Then stopped, as a pool would.
    await new Promise((resolve) => setTimeout(resolve, 40));
    await worker.terminate();
    expect(calls).toEqual([usedMb]);
    expect(errors).toEqual([]);
  });

  it("samples nothing more once stopped", async () => {
    // A cap far above what it reaches here: V8's own out-of-memory path is not what this tests.
    const worker = growing(512, 80);
    workers.push(worker);
    let over = 0;
    const stop = watchHeap(worker, 32, () => over++);
    stop();
    await once(worker, "online");
    // Well past the limit, which a watch would have seen.
    const deadline = Date.now() + 10_000;
    let used = 0;
    while (used <= 48 * 1024 * 1024 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      used = (await worker.getHeapStatistics()).used_heap_size;
    }
    expect(used).toBeGreaterThan(48 * 1024 * 1024);
    expect(over).toBe(0);
  });

  it("ends with its worker: a pool closed mid-job leaves no watch behind", async () => {
    const worker = growing(512, 8);
    workers.push(worker);
    await once(worker, "online");
    const before = worker.listenerCount("exit");
    watchHeap(worker, 1024, () => {});
    expect(worker.listenerCount("exit")).toBe(before + 1);
    const exited = once(worker, "exit");
    await worker.terminate();
    await exited;
    expect(worker.listenerCount("exit")).toBe(before);
  });

  it("sets V8's cap a quarter over the limit, and at least 32 MB over it", () => {
    expect(heapCapMb(24)).toBe(56);
    expect(heapCapMb(512)).toBe(640);
    expect(heapCapMb(1536)).toBe(1920);
    // A Node.js without Worker#getHeapStatistics() watches nothing: V8's cap is the limit.
    expect(heapCapMb(512, false)).toBe(512);
  });
});
