// A bounded pool of render workers: at most `size` renders at once, at most `maxQueue` waiting.
// Beyond that a render is refused at once (SERVICE_UNAVAILABLE + Retry-After) rather than
// building an unbounded backlog; the event loop never runs a render itself.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { GatewayError } from "../../core/errors.ts";
import type { DocumentRenderer, RenderedDocument } from "../renderer.ts";
import type { RenderRequest, RenderResponse, WorkerData } from "./protocol.ts";

export interface RenderPoolOptions {
  /** Worker threads; default: cores − 1, at least 1. */
  size?: number;
  /** Renders allowed to wait for a worker; default 16. */
  maxQueue?: number;
  /** Called each time a render is refused because the queue is full (metrics). */
  onReject?: () => void;
  /** Heap cap per worker, so a pathological document cannot take the process down. */
  maxHeapMb?: number;
  /**
   * Young-generation size per worker. A render allocates a few hundred MB of short-lived
   * objects; a larger nursery means fewer scavenges and fewer objects promoted. Default 48.
   */
  youngGenerationMb?: number;
  /**
   * Sample renders each worker runs when it starts, before its first job and only while no job
   * waits, so the first real render is not a cold one. Default 0: on a small machine they take a
   * core for seconds while requests are being served (RENDER_WARMUP turns them on).
   */
  warmup?: number;
}

interface Job {
  request: RenderRequest;
  resolve(value: RenderedDocument): void;
  reject(error: unknown): void;
  signal?: AbortSignal | undefined;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

const bootstrap = new URL("./worker-bootstrap.mjs", import.meta.url);

export class RenderPool implements DocumentRenderer {
  readonly size: number;
  readonly maxQueue: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly onReject: (() => void) | undefined;
  private readonly maxHeapMb: number;
  private readonly youngGenerationMb: number;
  private readonly warmup: number;
  private nextId = 1;
  private closed = false;

  constructor(options: RenderPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? availableParallelism() - 1);
    this.maxQueue = Math.max(0, options.maxQueue ?? 16);
    this.onReject = options.onReject;
    this.maxHeapMb = options.maxHeapMb ?? 1024;
    this.youngGenerationMb = options.youngGenerationMb ?? 48;
    this.warmup = Math.max(0, options.warmup ?? 0);
    for (let i = 0; i < this.size; i++) this.slots.push(this.spawn());
  }

  /** Renders currently running and waiting (for tests and metrics). */
  get load(): { running: number; queued: number } {
    return { running: this.slots.filter((s) => s.job).length, queued: this.queue.length };
  }

  render(markdown: string, title: string, signal?: AbortSignal): Promise<RenderedDocument> {
    if (this.closed) return Promise.reject(new GatewayError("SERVICE_UNAVAILABLE", "The gateway is shutting down", { retryAfter: 1 }));
    if (signal?.aborted) return Promise.reject(new GatewayError("BAD_USER_INPUT", "The request was cancelled"));
    const idle = this.slots.find((s) => !s.job);
    if (!idle && this.queue.length >= this.maxQueue) {
      this.onReject?.();
      return Promise.reject(
        new GatewayError("SERVICE_UNAVAILABLE", "Too many documents are being rendered; retry shortly", { retryAfter: 1 }),
      );
    }
    return new Promise<RenderedDocument>((resolve, reject) => {
      const job: Job = { request: { id: this.nextId++, markdown, title }, resolve, reject, signal };
      if (idle) {
        this.start(idle, job);
        return;
      }
      // A caller that gives up while waiting leaves the queue; a running render simply finishes.
      job.onAbort = () => {
        const index = this.queue.indexOf(job);
        if (index >= 0) {
          this.queue.splice(index, 1);
          reject(new GatewayError("BAD_USER_INPUT", "The request was cancelled"));
        }
      };
      signal?.addEventListener("abort", job.onAbort, { once: true });
      this.queue.push(job);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const shuttingDown = () => new GatewayError("SERVICE_UNAVAILABLE", "The gateway is shutting down", { retryAfter: 1 });
    for (const job of this.queue.splice(0)) job.reject(shuttingDown());
    // Renders still running are abandoned with their workers.
    for (const slot of this.slots) {
      slot.job?.reject(shuttingDown());
      slot.job = null;
    }
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private spawn(): Slot {
    const workerData: WorkerData = { warmup: this.warmup };
    const worker = new Worker(bootstrap, {
      execArgv: [],
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb, maxYoungGenerationSizeMb: this.youngGenerationMb },
    });
    const slot: Slot = { worker, job: null };
    worker.unref();
    worker.on("message", (message: RenderResponse | { ready: true }) => {
      if ("ready" in message) return;
      const job = slot.job;
      if (!job || job.request.id !== message.id) return;
      slot.job = null;
      if (message.ok) job.resolve({ docx: new Uint8Array(message.docx), text: message.text });
      else job.reject(new GatewayError("INTERNAL", "Rendering failed", { cause: new Error(message.message) }));
      this.drain(slot);
    });
    const replace = (cause: unknown) => {
      const job = slot.job;
      slot.job = null;
      job?.reject(new GatewayError("INTERNAL", "A render worker failed", { cause }));
      if (this.closed) return;
      const index = this.slots.indexOf(slot);
      if (index >= 0) {
        const fresh = this.spawn();
        this.slots[index] = fresh;
        this.drain(fresh);
      }
    };
    worker.on("error", replace);
    worker.on("exit", (code) => {
      if (!this.closed && this.slots.includes(slot)) replace(new Error(`render worker exited with code ${code}`));
    });
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    if (job.onAbort) job.signal?.removeEventListener("abort", job.onAbort);
    slot.job = job;
    slot.worker.postMessage(job.request);
  }

  private drain(slot: Slot): void {
    const next = this.queue.shift();
    if (next) this.start(slot, next);
  }
}
