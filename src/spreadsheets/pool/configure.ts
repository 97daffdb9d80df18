// The spreadsheets pool from the gateway's configuration (docs/configuration.md "Spreadsheets").
import type { Config } from "../../core/config.ts";
import { SheetsPool } from "./index.ts";

/** `bodyParser`: the URL of the module that parses a create's JSON body in a worker (./body-parser.ts). */
export function createSheetsPool(config: Config, bodyParser?: string): SheetsPool {
  const workers = config.SHEETS_WORKERS;
  return new SheetsPool({
    workers,
    maxHeapMb: config.SHEETS_WORKER_MAX_MB,
    jobsPerPrincipal: config.SHEETS_JOBS_PER_PRINCIPAL ?? Math.max(1, workers - 1),
    queuePerPrincipal: config.SHEETS_QUEUE_PER_PRINCIPAL,
    maxQueue: 64,
    // The write's own budget stops a computation first; the deadline is for what does not check it (a parse, an .xlsx).
    jobTimeoutMs: config.SHEETS_JOB_TIMEOUT_MS,
    worker: {
      maxCells: config.SHEETS_MAX_CELLS,
      niceness: config.SHEETS_WORKER_NICE,
      // SHEETS_CACHE_CELLS is for all the workers together: more workers do not hold more memory.
      cacheCells: Math.floor(config.SHEETS_CACHE_CELLS / workers),
      budget: { maxSteps: config.SHEETS_MAX_STEPS, maxMs: config.SHEETS_WRITE_BUDGET_MS, maxArrayCells: config.SHEETS_MAX_ARRAY_CELLS },
      ...(bodyParser ? { bodyParser } : {}),
    },
  });
}
