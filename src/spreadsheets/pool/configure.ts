// The spreadsheets pool from the gateway's configuration (docs/configuration.md "Spreadsheets").
import type { Config } from "../../core/config.ts";
import { SheetsPool } from "./index.ts";

export function createSheetsPool(config: Config): SheetsPool {
  return new SheetsPool({
    workers: config.SHEETS_WORKERS,
    maxHeapMb: config.SHEETS_WORKER_MAX_MB,
    maxQueue: 64,
    // The write's own budget stops a computation first; the deadline is for what does not check it (a parse, an .xlsx).
    jobTimeoutMs: config.SHEETS_JOB_TIMEOUT_MS,
    worker: {
      maxCells: config.SHEETS_MAX_CELLS,
      cacheCells: config.SHEETS_CACHE_CELLS,
      budget: { maxSteps: config.SHEETS_MAX_STEPS, maxMs: config.SHEETS_WRITE_BUDGET_MS, maxArrayCells: config.SHEETS_MAX_ARRAY_CELLS },
    },
  });
}
