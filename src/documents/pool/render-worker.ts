// Runs inside a worker thread: one job per message, off the main event loop: a render (markdown →
// .docx) or an extraction (an uploaded .docx → text and markdown, ../import/extract.ts).
// Before its first job (and only while no job is waiting) it renders a sample document a few
// times, so that real renders run on optimised code.
import { setPriority } from "node:os";
import { getHeapStatistics } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { GatewayError } from "../../core/errors.ts";
import { renderDocument } from "../render/index.ts";
import type { ExtractRequest, RenderRequest, WorkerData, WorkerRequest, WorkerResponse } from "./protocol.ts";
import { warmupMarkdown } from "./warmup.ts";
import { collectAll, emptyYoungGeneration } from "./young-generation.ts";

const port = parentPort;
if (!port) throw new Error("render-worker must run in a worker thread");

const data = workerData as Partial<WorkerData> | undefined;
const pending: WorkerRequest[] = [];
let warmups = data?.warmup ?? 0;
let running = false;
/** Whether the young generation was emptied since the last render or extraction (./young-generation.ts). */
let collected = true;

// On Linux a nice value belongs to a thread, and pid 0 means the calling thread: this lowers the
// priority of this render thread only, so that when renders and the event loop compete for a
// core, /healthz and every non-render request still get it first. Elsewhere (or without
// permission) it may apply to the process or fail; failing is harmless.
if (data?.niceness) {
  try {
    setPriority(0, data.niceness);
  } catch {
    // not permitted here: renders keep the default priority
  }
}

/** Heap this isolate holds after a render, so the pool can recycle a worker that grew big. */
const heapMb = (): number => Math.round(getHeapStatistics().total_heap_size / (1024 * 1024));

/** The bytes' own buffer when they fill it (handed over without a copy), else a copy of them. */
function transferable(bytes: Uint8Array): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? (bytes.buffer as ArrayBuffer)
    : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
}

async function render(request: RenderRequest): Promise<void> {
  try {
    const { docx, text } = await renderDocument(request.markdown, { title: request.title });
    const buffer = transferable(docx);
    const response: WorkerResponse = { id: request.id, ok: true, kind: "render", docx: buffer, text, heapMb: heapMb() };
    port!.postMessage(response, [buffer]);
  } catch (error) {
    fail(request.id, error);
  }
}

async function extract(request: ExtractRequest): Promise<void> {
  try {
    // Loaded on the first upload, not at start: mammoth and the zip reader would otherwise sit in
    // every render worker's heap (RENDER_WORKER_MAX_MB) whether or not anyone imports a .docx.
    const { extractDocx } = await import("../import/extract.ts");
    const { text, markdown, docx } = await extractDocx(new Uint8Array(request.docx));
    const buffer = transferable(docx);
    const response: WorkerResponse = { id: request.id, ok: true, kind: "extract", text, markdown, docx: buffer, heapMb: heapMb() };
    port!.postMessage(response, [buffer]);
  } catch (error) {
    fail(request.id, error);
  }
}

/** A GatewayError (a bad upload) goes back with its code and details, so the caller gets the same error. */
function fail(id: number, error: unknown): void {
  const response: WorkerResponse = {
    id,
    ok: false,
    message: error instanceof Error ? error.message : String(error),
    ...(error instanceof GatewayError ? { code: error.code, details: error.details } : {}),
    heapMb: heapMb(),
  };
  port!.postMessage(response);
}

async function run(): Promise<void> {
  if (running) return;
  running = true;
  try {
    for (;;) {
      const request = pending.shift();
      if (request) {
        await (request.kind === "extract" ? extract(request) : render(request));
        collected = false;
      } else if (warmups > 0) {
        warmups--;
        await renderDocument(warmupMarkdown(), { title: "warm-up" }).catch(() => undefined);
        collected = false;
        // Let a job that arrived meanwhile in before the next warm-up round.
        await new Promise((resolve) => setImmediate(resolve));
      } else if (!collected) {
        collected = true;
        // Idle: the response is on its way; a job that arrived meanwhile goes first.
        await new Promise((resolve) => setImmediate(resolve));
        if (pending.length === 0) emptyYoungGeneration();
      } else {
        return;
      }
    }
  } finally {
    running = false;
  }
}

port.on("message", (request: WorkerRequest) => {
  pending.push(request);
  void run();
});
collectAll();
port.postMessage({ ready: true });
void run();
