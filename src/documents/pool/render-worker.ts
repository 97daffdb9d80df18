// Runs inside a worker thread: renders one document per message, off the main event loop.
// Before its first job (and only while no job is waiting) it renders a sample document a few
// times, so that real renders run on optimised code.
import { setPriority } from "node:os";
import { getHeapStatistics } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { renderDocument } from "../render/index.ts";
import type { RenderRequest, RenderResponse, WorkerData } from "./protocol.ts";
import { warmupMarkdown } from "./warmup.ts";

const port = parentPort;
if (!port) throw new Error("render-worker must run in a worker thread");

const data = workerData as Partial<WorkerData> | undefined;
const pending: RenderRequest[] = [];
let warmups = data?.warmup ?? 0;
let running = false;

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

async function render(request: RenderRequest): Promise<void> {
  try {
    const { docx, text } = await renderDocument(request.markdown, { title: request.title });
    // Hand the bytes over without a copy: the zip writer gives an array that fills its buffer.
    const buffer =
      docx.byteOffset === 0 && docx.byteLength === docx.buffer.byteLength
        ? (docx.buffer as ArrayBuffer)
        : (docx.buffer.slice(docx.byteOffset, docx.byteOffset + docx.byteLength) as ArrayBuffer);
    const response: RenderResponse = { id: request.id, ok: true, docx: buffer, text, heapMb: heapMb() };
    port!.postMessage(response, [buffer]);
  } catch (error) {
    const response: RenderResponse = {
      id: request.id,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      heapMb: heapMb(),
    };
    port!.postMessage(response);
  }
}

async function run(): Promise<void> {
  if (running) return;
  running = true;
  try {
    for (;;) {
      const request = pending.shift();
      if (request) {
        await render(request);
      } else if (warmups > 0) {
        warmups--;
        await renderDocument(warmupMarkdown(), { title: "warm-up" }).catch(() => undefined);
        // Let a job that arrived meanwhile in before the next warm-up round.
        await new Promise((resolve) => setImmediate(resolve));
      } else {
        return;
      }
    }
  } finally {
    running = false;
  }
}

port.on("message", (request: RenderRequest) => {
  pending.push(request);
  void run();
});
port.postMessage({ ready: true });
void run();
