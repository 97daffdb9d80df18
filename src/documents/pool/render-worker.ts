// Runs inside a worker thread: renders one document per message, off the main event loop.
// Before its first job (and only while no job is waiting) it renders a sample document a few
// times, so that real renders run on optimised code.
import { parentPort, workerData } from "node:worker_threads";
import { renderDocument } from "../render/index.ts";
import type { RenderRequest, RenderResponse, WorkerData } from "./protocol.ts";
import { warmupMarkdown } from "./warmup.ts";

const port = parentPort;
if (!port) throw new Error("render-worker must run in a worker thread");

const pending: RenderRequest[] = [];
let warmups = (workerData as WorkerData | undefined)?.warmup ?? 0;
let running = false;

async function render(request: RenderRequest): Promise<void> {
  try {
    const { docx, text } = await renderDocument(request.markdown, { title: request.title });
    // Hand the bytes over without a copy: the zip writer gives an array that fills its buffer.
    const buffer =
      docx.byteOffset === 0 && docx.byteLength === docx.buffer.byteLength
        ? (docx.buffer as ArrayBuffer)
        : (docx.buffer.slice(docx.byteOffset, docx.byteOffset + docx.byteLength) as ArrayBuffer);
    const response: RenderResponse = { id: request.id, ok: true, docx: buffer, text };
    port!.postMessage(response, [buffer]);
  } catch (error) {
    const response: RenderResponse = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
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
