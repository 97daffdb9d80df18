// Run by worker-heap.test.ts under --max-semi-space-size=64 (npm start passes 32): starts a worker
// with plain resourceLimits, then one with workerHeap(), and says what young generation each was
// allowed.
// V8's heap_size_limit is the old generation's bound plus the young generation's, so it shows the
// configured bound itself, not how far the new space happened to grow (which depends on the
// machine's load). Prints {"plain": bytes, "sized": bytes}: the young generation's share.
import { Worker, type ResourceLimits } from "node:worker_threads";
import { workerHeap } from "../../src/core/worker-heap.ts";

const oldGenerationMb = 256;
const report = `
  const { getHeapStatistics } = require("node:v8");
  require("node:worker_threads").parentPort.postMessage(getHeapStatistics().heap_size_limit);
`;

const youngGeneration = (resourceLimits: ResourceLimits) =>
  new Promise<number>((resolve, reject) => {
    const worker = new Worker(report, { eval: true, resourceLimits });
    worker.once("message", (limit: number) => {
      resolve(limit - oldGenerationMb * 1024 * 1024);
      void worker.terminate();
    });
    worker.once("error", reject);
  });

const plain = await youngGeneration({ maxOldGenerationSizeMb: oldGenerationMb, maxYoungGenerationSizeMb: 8 });
const sized = await youngGeneration(workerHeap(oldGenerationMb, 8));
console.log(JSON.stringify({ plain, sized }));
