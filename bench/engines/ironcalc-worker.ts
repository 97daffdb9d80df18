// Corpus workbooks through IronCalc in a worker thread, one message a workbook, so that the bench
// can give up on a workbook IronCalc takes too long over (whole-column VLOOKUPs take it minutes):
// it terminates this worker and starts another for the next workbook.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { ironCalcWorkbook, type IronModelClass } from "./ironcalc.ts";

const { peers } = workerData as { peers: string };
const require = createRequire(join(peers, "noop.js"));
const wasm = (await import(pathToFileURL(require.resolve("@ironcalc/wasm")).href)) as Record<string, unknown>;
(wasm["initSync"] as (m: { module: Uint8Array }) => void)({
  module: readFileSync(join(peers, "node_modules/@ironcalc/wasm/wasm_bg.wasm")),
});
const Model = wasm["Model"] as IronModelClass;
parentPort!.on("message", (file: string) => {
  const result = ironCalcWorkbook(Model, readFileSync(file));
  parentPort!.postMessage({ values: [...result.values], failed: result.failed });
});
