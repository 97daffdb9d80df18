// Run by worker-heap.test.ts under npm start's --max-semi-space-size=64: a worker churns
// short-lived objects, then says how large its new space grew; first with plain resourceLimits,
// then with workerHeap(). Prints {"plain": bytes, "sized": bytes}.
import { Worker, type ResourceLimits } from "node:worker_threads";
import { workerHeap } from "../../src/core/worker-heap.ts";

const churn = `
  const { getHeapSpaceStatistics } = require("node:v8");
  let keep = [];
  for (let i = 0; i < 3e6; i++) { keep.push({ i, a: [i] }); if (keep.length > 200000) keep = []; }
  const space = getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
  require("node:worker_threads").parentPort.postMessage(space.space_size);
`;

const newSpace = (resourceLimits: ResourceLimits) =>
  new Promise<number>((resolve, reject) => {
    const worker = new Worker(churn, { eval: true, resourceLimits });
    worker.once("message", (size: number) => {
      resolve(size);
      void worker.terminate();
    });
    worker.once("error", reject);
  });

const plain = await newSpace({ maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 8 });
const sized = await newSpace(workerHeap(256, 8));
console.log(JSON.stringify({ plain, sized }));
