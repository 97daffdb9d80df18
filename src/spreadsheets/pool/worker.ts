// A spreadsheets worker thread: runs the pool's jobs one at a time against the models it holds
// (./models.ts), so no whole-workbook work (parsing a file, loading tiles, recalculating, writing
// an .xlsx) runs on the gateway's event loop.
import { readFileSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { isGatewayError } from "../../core/errors.ts";
import { isSheetsError } from "../cells/errors.ts";
import { bodyParser } from "./body-parser.ts";
import { COLLECT_AFTER_CELLS, collectGarbage } from "./collect.ts";
import { applyChange, createWorkbook, firstSheetCsv, importWorkbook, loadWorkbook, render, renderStoredXlsx } from "./jobs.ts";
import { Models, type Held } from "./models.ts";
import type { Base, FromWorker, Job, JobOutput, SheetsWorkerData, ToWorker } from "./protocol.ts";
import { sheetsErrorCode } from "./errors.ts";
import { decodeJob } from "./wire.ts";

const data = workerData as SheetsWorkerData;

// On Linux a nice value belongs to a thread, and pid 0 means the calling thread: this lowers the
// priority of this worker only, so that when workers and the event loop compete for a core,
// /healthz and the other requests get it first. Elsewhere (or without permission) it may apply to
// the process or fail; failing is harmless.
if (data.niceness) {
  try {
    setPriority(0, data.niceness);
  } catch {
    // not permitted here: the worker keeps the default priority
  }
}
const options = { maxCells: data.maxCells, budget: data.budget };
const models = new Models(data.cacheCells);
const port = parentPort!;
const post = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

class NeedBlobs extends Error {}

/** Set by a job that built or walked a large workbook: a collection follows its answer. */
let collectAfter = false;

/**
 * The model of a base: held, or loaded from the blobs the job carries (else the pool must send
 * them). "take": out of the cache for a change; "peek": left in it (a loaded one is kept, for the
 * reads and writes that follow); "once": a loaded one is not kept. A download renders each version
 * once (the service caches the bytes), so keeping its model would only hold a whole workbook's
 * memory for a write that may never come (a 1M-cell model is ~80 MB).
 */
function modelOf(base: Base, use: "take" | "peek" | "once"): Held {
  const held = use === "take" ? models.take(base.workbookId, base.version) : models.peek(base.workbookId, base.version);
  if (held) return held;
  if (!base.blobs) throw new NeedBlobs();
  const loaded = loadWorkbook(base, options);
  if (use === "peek") models.keep(loaded);
  return loaded;
}

async function run(job: Job): Promise<JobOutput> {
  switch (job.kind) {
    case "create":
      return { kind: "saved", saved: createWorkbook(job.sheets, job.input, options).saved };
    case "import": {
      // An upload's temp file is read here, so its bytes never sit on the event loop's heap.
      const bytes = job.bytes ?? readFileSync(job.path ?? "");
      const { saved } = importWorkbook(bytes, job.format, job.sheetName, job.input, options);
      collectAfter = saved.cells >= COLLECT_AFTER_CELLS;
      return { kind: "saved", saved };
    }
    case "change": {
      const model = modelOf(job.base, "take");
      const saved = applyChange(model, job.change, options);
      models.hold(job.token, model);
      return { kind: "saved", saved };
    }
    case "evaluate":
      return {
        kind: "value",
        value: modelOf(job.base, "peek").workbook.evaluate(job.formula, {
          ...(job.sheet ? { sheet: job.sheet } : {}),
          budget: options.budget,
        }),
      };
    case "read": {
      const read = modelOf(job.base, "peek").workbook.read(job.range, { render: job.render, maxCells: job.maxCells, offset: job.offset });
      return { kind: "read", range: read.range, values: read.values, truncated: read.truncated, nextOffset: read.nextOffset };
    }
    case "names":
      return { kind: "names", names: modelOf(job.base, "peek").workbook.names() };
    case "render": {
      // A held model is used as it is; else a workbook of constants is written from its tiles.
      if (job.format === "xlsx" && job.base.blobs && !models.peek(job.base.workbookId, job.base.version)) {
        const stored = await renderStoredXlsx(job.base, job.title);
        if (stored) {
          collectAfter = stored.cells >= COLLECT_AFTER_CELLS;
          return stored.output;
        }
      }
      const model = modelOf(job.base, "once");
      collectAfter = model.workbook.cells >= COLLECT_AFTER_CELLS;
      return render(model, job.format, job.sheet, job.title);
    }
    case "csv":
      return { kind: "bytes", bytes: new TextEncoder().encode(firstSheetCsv(job.bytes, options)) };
    case "createJson": {
      const parsed = (await bodyParser(data.bodyParser)).parseCreateBody(job.bytes, job.fixed);
      if (!parsed.sheets) return { kind: "created", input: parsed.input, fingerprint: parsed.fingerprint };
      const { saved } = createWorkbook(parsed.sheets, parsed.mode, options);
      collectAfter = saved.cells >= COLLECT_AFTER_CELLS;
      return { kind: "created", input: parsed.input, fingerprint: parsed.fingerprint, saved };
    }
  }
}

/** The buffers of an output, moved to the main thread rather than copied. */
function transferables(output: JobOutput): ArrayBuffer[] {
  if (output.kind === "bytes") return [output.bytes.buffer as ArrayBuffer];
  const saved = output.kind === "saved" || output.kind === "created" ? output.saved : undefined;
  if (saved) return saved.blobs.map(([, bytes]) => bytes.buffer as ArrayBuffer).filter((b, i, all) => all.indexOf(b) === i);
  return [];
}

port.on("message", (message: ToWorker) => {
  if (message.type === "commit") return models.commit(message.token, message.version);
  if (message.type === "forget") return models.forget(message.token);
  void run(decodeJob(message))
    .then(
      (output) => post({ type: "done", id: message.id, output }, transferables(output)),
      (error: unknown) => {
        if (error instanceof NeedBlobs) return post({ type: "need", id: message.id });
        if (isSheetsError(error))
          return post({
            type: "failed",
            id: message.id,
            message: error.message,
            code: sheetsErrorCode(error.code),
            details: error.details,
          });
        if (isGatewayError(error))
          return post({ type: "failed", id: message.id, message: error.message, code: error.code, details: error.details });
        post({ type: "failed", id: message.id, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      },
    )
    .then(() => {
      // After the answer is on its way, before the next job: the garbage of a large one.
      if (collectAfter) collectGarbage();
      collectAfter = false;
    });
});
// Loading the engine leaves ~10 MB of start-up garbage and a young generation grown to its bound
// (a fresh worker's heap: 25 MB, 17 after this); the spare worker would hold it idle. Start-up code
// runs once, so the compiled code this collection flushes is not wanted again.
collectGarbage();
post({ type: "ready" });
