// Messages between the render pool and its workers. A worker does two kinds of job: render
// (markdown → .docx and its text) and extract (an uploaded .docx → its text and markdown).
import type { ErrorCode } from "../../core/errors.ts";

export interface RenderRequest {
  kind: "render";
  id: number;
  markdown: string;
  title: string;
}

export interface ExtractRequest {
  kind: "extract";
  id: number;
  /** A copy of the upload, transferred to the worker. */
  docx: ArrayBuffer;
}

export type WorkerRequest = RenderRequest | ExtractRequest;

export type WorkerResponse =
  | { id: number; ok: true; kind: "render"; docx: ArrayBuffer; text: string; heapMb: number }
  | { id: number; ok: true; kind: "extract"; text: string; markdown: string; docx: ArrayBuffer; heapMb: number }
  /** `code` and `details` when the job failed with a GatewayError (a bad upload): the caller gets that error. */
  | { id: number; ok: false; message: string; code?: ErrorCode; details?: unknown; heapMb: number };

/** What a worker is started with. */
export interface WorkerData {
  /** Sample renders to run before the first job, while no job waits. */
  warmup: number;
  /** Nice value for the worker's own thread (Linux: per thread), so renders yield the CPU to the event loop. */
  niceness: number;
}
