// Messages between the render pool and its workers.
export interface RenderRequest {
  id: number;
  markdown: string;
  title: string;
}

export type RenderResponse =
  | { id: number; ok: true; docx: ArrayBuffer; text: string; heapMb: number }
  | { id: number; ok: false; message: string; heapMb: number };

/** What a worker is started with. */
export interface WorkerData {
  /** Sample renders to run before the first job, while no job waits. */
  warmup: number;
  /** Nice value for the worker's own thread (Linux: per thread), so renders yield the CPU to the event loop. */
  niceness: number;
}
