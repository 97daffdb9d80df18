// A bounded pool of render workers: at most `size` renders at once, at most `maxQueue` waiting.
// A job is a render (markdown → .docx) or an extraction (an uploaded .docx → text and markdown);
// both kinds share the workers, the queue and every bound below ("render" stands for either).
// Beyond that a render is refused at once (SERVICE_UNAVAILABLE + Retry-After) rather than
// building an unbounded backlog; the event loop never runs a render itself.
//
// Every render is bounded (see docs/rendering-limits.md):
//   - in time: a render that runs longer than `timeoutMs` has its worker terminated (a worker busy
//     in JavaScript cannot be interrupted any other way) and replaced; the caller gets
//     PAYLOAD_TOO_LARGE. A render waits for a worker at most `queueTimeoutMs` (SERVICE_UNAVAILABLE);
//   - in memory: a worker whose heap passes `maxHeapMb` while it renders (../../core/heap-watch.ts)
//     fails only its own render (PAYLOAD_TOO_LARGE) and is replaced, and a worker is recycled once
//     idle after a render that left it with a big heap, or after `maxJobsPerWorker` renders, so
//     that memory goes back to the OS;
//   - by its caller: a caller that goes away (the request's AbortSignal) takes its render with it,
//     whether it is waiting (dropped from the queue) or running (worker terminated and replaced);
//   - among callers: waiting renders are served fairly across principals (the one with the fewest
//     renders running, then the least markdown started, counting the render's own length), not
//     first come, first served; one principal may hold at most `maxQueuePerPrincipal` of the queue,
//     and when the queue is full a principal with little of it waiting displaces the newest render
//     of the largest holder.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { GatewayError } from "../../core/errors.ts";
import { heapCapMb, watchHeap } from "../../core/heap-watch.ts";
import { workerHeap } from "../../core/worker-heap.ts";
import { DOCX_UPLOAD_LIMIT_BYTES } from "../import/limits.ts";
import { cancelled, type DocumentRenderer, type ExtractedDocument, type RenderCallOptions, type RenderedDocument } from "../renderer.ts";
import type { WorkerData, WorkerRequest, WorkerResponse } from "./protocol.ts";

export interface RenderPoolOptions {
  /** Worker threads; default: cores − 1, at least 1. */
  size?: number;
  /** Renders allowed to wait for a worker; default 16. */
  maxQueue?: number;
  /** Renders one principal may have waiting; default half of `maxQueue` (rounded up). */
  maxQueuePerPrincipal?: number;
  /** Called each time a render is refused because the queue is full (metrics). */
  onReject?: () => void;
  /** Called on every outcome other than a plain success (metrics, tests). */
  onEvent?: (event: RenderPoolEvent) => void;
  /** Heap a worker may have in use while it renders (../../core/heap-watch.ts), so a pathological document cannot take the process down. Default 512. */
  maxHeapMb?: number;
  /**
   * Young-generation size per worker. Workers empty it between jobs (./young-generation.ts), so
   * a render finds it empty; a 400k-character render leaves ~28 MB of garbage, and V8 starts a
   * scavenge when the nursery is about 80% full. Default 128 (a semi-space of 43 MB): the bench
   * document's renders in the pool took a median 47 ms, 44–52 for most, where at 96 (a scavenge
   * inside most renders, a mark-compact every few) they took 54, 46–100. Below a `maxHeapMb` of
   * 342 the default is three eighths of it (a semi-space of an eighth): the heap watch counts the
   * nursery's garbage too, which must not crowd out what a render keeps.
   */
  youngGenerationMb?: number;
  /** Running time allowed for one render; default 30 s. 0 turns the bound off. */
  timeoutMs?: number;
  /** Time a render may wait for a worker; default 15 s. 0 turns the bound off. */
  queueTimeoutMs?: number;
  /** A worker is replaced after this many renders; default 100. */
  maxJobsPerWorker?: number;
  /** A worker whose heap is above this after a render is replaced once idle; default half of `maxHeapMb`. */
  recycleHeapMb?: number;
  /** How long such a worker must have been idle before it is replaced; default 1 s. */
  recycleIdleMs?: number;
  /** Nice value of each worker thread (Linux), so renders yield a contended core to the event loop; default 0 (off). */
  niceness?: number;
  /**
   * Sample renders each worker runs when it starts, before its first job and only while no job
   * waits, so the first real render is not a cold one. Default 0: on a small machine they take a
   * core for seconds while requests are being served (RENDER_WARMUP turns them on).
   */
  warmup?: number;
}

export type RenderPoolEvent =
  "rejected" | "queue-timeout" | "cancelled-queued" | "cancelled-running" | "timeout" | "out-of-memory" | "worker-failed" | "recycled";

type JobResult = RenderedDocument | ExtractedDocument;

interface Job {
  request: WorkerRequest;
  /** What the job weighs for fair queueing: characters of markdown, or bytes of the upload. */
  weight: number;
  principal: string;
  resolve(value: JobResult): void;
  reject(error: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  /** The queue-wait timer while queued, the deadline while running. */
  timer: NodeJS.Timeout | undefined;
  done: boolean;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  /** The worker has loaded the renderer: a job given to it starts rendering at once. */
  ready: boolean;
  jobs: number;
  /** Its heap grew past recycleHeapMb: replaced once it has been idle for recycleIdleMs. */
  bloated: boolean;
  idleTimer: NodeJS.Timeout | undefined;
  /** Stops sampling the heap of the job it runs (../../core/heap-watch.ts). */
  unwatch: (() => void) | undefined;
}

const bootstrap = new URL("./worker-bootstrap.mjs", import.meta.url);

export class RenderPool implements DocumentRenderer {
  readonly size: number;
  readonly maxQueue: number;
  readonly maxQueuePerPrincipal: number;
  readonly timeoutMs: number;
  readonly queueTimeoutMs: number;
  readonly maxHeapMb: number;
  private readonly slots: Slot[] = [];
  /** Waiting jobs per principal; a principal is a key only while it has jobs waiting. */
  private readonly queues = new Map<string, Job[]>();
  private queued = 0;
  /** Per principal with work waiting or running: renders running, and characters of markdown started. */
  private readonly running = new Map<string, number>();
  private readonly work = new Map<string, number>();
  private readonly onReject: (() => void) | undefined;
  private readonly onEvent: ((event: RenderPoolEvent) => void) | undefined;
  private readonly youngGenerationMb: number;
  private readonly maxJobsPerWorker: number;
  private readonly recycleHeapMb: number;
  private readonly recycleIdleMs: number;
  private readonly niceness: number;
  private readonly warmup: number;
  private readonly counts: Record<RenderPoolEvent | "completed", number> = {
    completed: 0,
    rejected: 0,
    "queue-timeout": 0,
    "cancelled-queued": 0,
    "cancelled-running": 0,
    timeout: 0,
    "out-of-memory": 0,
    "worker-failed": 0,
    recycled: 0,
  };
  private nextId = 1;
  private closed = false;

  constructor(options: RenderPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? availableParallelism() - 1);
    this.maxQueue = Math.max(0, options.maxQueue ?? 16);
    this.maxQueuePerPrincipal = Math.max(0, options.maxQueuePerPrincipal ?? Math.ceil(this.maxQueue / 2));
    this.onReject = options.onReject;
    this.onEvent = options.onEvent;
    this.maxHeapMb = options.maxHeapMb ?? 512;
    this.youngGenerationMb = options.youngGenerationMb ?? Math.min(128, Math.floor((this.maxHeapMb * 3) / 8));
    this.timeoutMs = Math.max(0, options.timeoutMs ?? 30_000);
    this.queueTimeoutMs = Math.max(0, options.queueTimeoutMs ?? 15_000);
    this.maxJobsPerWorker = Math.max(1, options.maxJobsPerWorker ?? 100);
    this.recycleHeapMb = options.recycleHeapMb ?? Math.ceil(this.maxHeapMb / 2);
    this.recycleIdleMs = Math.max(0, options.recycleIdleMs ?? 1_000);
    this.niceness = options.niceness ?? 0;
    this.warmup = Math.max(0, options.warmup ?? 0);
    // Workers start on the first render, not with the gateway (one that serves no document holds
    // no thread, and a test gateway boots in a fraction of the time); RENDER_WARMUP asks for warm
    // workers, so with it they start at once.
    if (this.warmup > 0) for (let i = 0; i < this.size; i++) this.slots.push(this.spawn());
  }

  /** Renders currently running and waiting (for tests and metrics). */
  get load(): { running: number; queued: number } {
    return { running: this.slots.filter((s) => s.job).length, queued: this.queued };
  }

  /** Worker threads started (they start on demand; for tests and metrics). */
  get threads(): number {
    return this.slots.length;
  }

  /** How renders ended since the pool started (for tests and metrics). */
  get stats(): Readonly<Record<RenderPoolEvent | "completed", number>> {
    return { ...this.counts };
  }

  render(markdown: string, title: string, options: RenderCallOptions = {}): Promise<RenderedDocument> {
    return this.submit<RenderedDocument>({ kind: "render", id: 0, markdown, title }, markdown.length, options);
  }

  /**
   * Validates an uploaded .docx and extracts its text and markdown in a worker, under the same
   * bounds as a render. A bad upload fails with the GatewayError validation gave it (415 or 413).
   */
  extract(docx: Uint8Array, options: RenderCallOptions = {}): Promise<ExtractedDocument> {
    if (docx.byteLength > DOCX_UPLOAD_LIMIT_BYTES) {
      return Promise.reject(
        new GatewayError("PAYLOAD_TOO_LARGE", `The .docx is larger than ${DOCX_UPLOAD_LIMIT_BYTES} bytes`, {
          details: { limit: DOCX_UPLOAD_LIMIT_BYTES },
        }),
      );
    }
    // The worker gets a copy of its own (transferred, not copied again): the caller keeps its bytes.
    return this.submit<ExtractedDocument>({ kind: "extract", id: 0, docx: docx.slice().buffer }, docx.byteLength, options);
  }

  private submit<T extends JobResult>(request: WorkerRequest, weight: number, options: RenderCallOptions): Promise<T> {
    const { signal } = options;
    const principal = options.principal ?? "";
    if (this.closed) return Promise.reject(shuttingDown());
    if (signal?.aborted) return Promise.reject(cancelled());
    const idle = this.idleSlot();
    if (!idle) {
      const mine = this.queues.get(principal)?.length ?? 0;
      // A full queue makes room for a principal by refusing the newest render of whoever holds the
      // most of it (at least two more than this principal), rather than refusing the newcomer:
      // a burst from a few principals cannot lock everyone else out.
      const evict = this.queued >= this.maxQueue && mine < this.maxQueuePerPrincipal ? this.largestHolder(mine + 2) : undefined;
      if (evict) {
        this.dequeue(evict);
        this.refuse(evict);
      } else if (this.queued >= this.maxQueue || mine >= this.maxQueuePerPrincipal) {
        this.onReject?.();
        this.event("rejected");
        return Promise.reject(queueFull());
      }
    }
    return new Promise<T>((resolve, reject) => {
      request.id = this.nextId++;
      const job: Job = {
        request,
        weight,
        principal,
        resolve: resolve as (value: JobResult) => void,
        reject,
        signal,
        onAbort: undefined,
        timer: undefined,
        done: false,
      };
      if (signal) {
        job.onAbort = () => this.abort(job);
        signal.addEventListener("abort", job.onAbort, { once: true });
      }
      if (idle) {
        this.start(idle, job);
        return;
      }
      this.enqueue(job);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const jobs of this.queues.values()) for (const job of jobs) this.settle(job, shuttingDown());
    this.queues.clear();
    this.queued = 0;
    // Renders still running are abandoned with their workers.
    for (const slot of this.slots) {
      if (slot.job) this.settle(slot.job, shuttingDown());
      slot.job = null;
    }
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  /** The newest waiting job of the principal with the most waiting, if that is at least `atLeast`. */
  private largestHolder(atLeast: number): Job | undefined {
    let largest: Job[] | undefined;
    for (const jobs of this.queues.values()) if (jobs.length >= atLeast && jobs.length > (largest?.length ?? 0)) largest = jobs;
    return largest?.[largest.length - 1];
  }

  /** Refuses a job that was waiting, as a full queue refuses a new one. */
  private refuse(job: Job): void {
    this.onReject?.();
    this.event("rejected");
    this.settle(job, queueFull());
  }

  private event(event: RenderPoolEvent): void {
    this.counts[event]++;
    this.onEvent?.(event);
  }

  /** A worker without a job, preferably one that has started (a job waits for one that is starting). */
  private idleSlot(): Slot | undefined {
    const idle = this.slots.find((s) => s.ready && !s.job) ?? this.slots.find((s) => !s.job);
    if (idle || this.closed || this.slots.length >= this.size) return idle;
    const started = this.spawn();
    this.slots.push(started);
    return started;
  }

  private enqueue(job: Job): void {
    let jobs = this.queues.get(job.principal);
    if (!jobs) this.queues.set(job.principal, (jobs = []));
    jobs.push(job);
    this.queued++;
    if (this.queueTimeoutMs > 0) {
      job.timer = setTimeout(() => {
        if (!this.dequeue(job)) return;
        this.event("queue-timeout");
        const retryAfter = Math.min(60, Math.max(1, Math.ceil(this.queueTimeoutMs / 1000)));
        this.settle(
          job,
          new GatewayError("SERVICE_UNAVAILABLE", "No render worker became free in time; retry shortly", {
            retryAfter,
            details: { reason: "render_queue_timeout", limitMs: this.queueTimeoutMs },
          }),
        );
      }, this.queueTimeoutMs);
      job.timer.unref();
    }
  }

  /** Removes a waiting job from its principal's queue; false when it was not waiting. */
  private dequeue(job: Job): boolean {
    const jobs = this.queues.get(job.principal);
    const index = jobs ? jobs.indexOf(job) : -1;
    if (!jobs || index < 0) return false;
    jobs.splice(index, 1);
    if (jobs.length === 0) this.queues.delete(job.principal);
    this.queued--;
    return true;
  }

  /**
   * The next job to run, fair queueing by work: from the waiting principals with the fewest
   * renders running, the one whose next render would leave it with the least markdown sent to
   * render since it became active (what it already started, plus that render's own length). A
   * newcomer's note goes before a burst's next 400k document; principals sending alike take turns.
   */
  private nextJob(): Job | undefined {
    let best: Job | undefined;
    let bestRunning = Infinity;
    let bestWork = Infinity;
    for (const [principal, jobs] of this.queues) {
      const running = this.running.get(principal) ?? 0;
      const work = (this.work.get(principal) ?? 0) + jobs[0]!.weight;
      if (running < bestRunning || (running === bestRunning && work < bestWork)) {
        best = jobs[0];
        bestRunning = running;
        bestWork = work;
      }
    }
    if (best) this.dequeue(best);
    return best;
  }

  private abort(job: Job): void {
    if (job.done) return;
    if (this.dequeue(job)) {
      this.event("cancelled-queued");
      this.settle(job, cancelled());
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (!slot) return;
    // Terminating is the only way to stop a render mid-way; the CPU goes back to other callers.
    this.event("cancelled-running");
    this.finish(slot);
    this.settle(job, cancelled());
    this.replace(slot);
  }

  /** Ends a job once: clears its timer and abort listener, and forgets an idle principal. */
  private settle(job: Job, outcome: Error | JobResult): void {
    if (job.done) return;
    job.done = true;
    if (job.timer) clearTimeout(job.timer);
    if (job.onAbort) job.signal?.removeEventListener("abort", job.onAbort);
    this.forgetIfIdle(job.principal);
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
  }

  private spawn(): Slot {
    const workerData: WorkerData = { warmup: this.warmup, niceness: this.niceness };
    const worker = new Worker(bootstrap, {
      execArgv: [],
      workerData,
      resourceLimits: workerHeap(heapCapMb(this.maxHeapMb), this.youngGenerationMb),
    });
    const slot: Slot = { worker, job: null, ready: false, jobs: 0, bloated: false, idleTimer: undefined, unwatch: undefined };
    worker.unref();
    worker.on("message", (message: WorkerResponse | { ready: true }) => {
      if ("ready" in message) {
        slot.ready = true;
        // A job handed over while the worker was starting has its deadline from now on.
        if (slot.job) this.armLimits(slot, slot.job);
        return;
      }
      const job = slot.job;
      if (!job || job.request.id !== message.id) return;
      this.finish(slot);
      const recycle = slot.jobs >= this.maxJobsPerWorker;
      slot.bloated ||= message.heapMb > this.recycleHeapMb;
      if (message.ok) {
        this.counts.completed++;
        this.settle(
          job,
          message.kind === "render"
            ? { docx: new Uint8Array(message.docx), text: message.text }
            : { text: message.text, markdown: message.markdown, docx: new Uint8Array(message.docx) },
        );
      } else if (message.code) {
        // The worker refused the input (an upload that is not a .docx, or too big once opened).
        this.settle(
          job,
          new GatewayError(message.code, message.message, message.details === undefined ? {} : { details: message.details }),
        );
      } else {
        const what = job.request.kind === "render" ? "Rendering" : "Reading the .docx";
        this.settle(job, new GatewayError("INTERNAL", `${what} failed`, { cause: new Error(message.message) }));
      }
      if (recycle && !this.closed) {
        this.event("recycled");
        this.replace(slot);
        return;
      }
      this.dispatch();
      // A fresh isolate hands a big heap back to the OS (V8 rarely shrinks a live one), but starts
      // cold: a worker that grew is replaced only once no work has come for it for a moment, so
      // a burst keeps its warm workers and the memory goes back after it.
      if (slot.bloated && !slot.job && !this.closed && this.slots.includes(slot)) {
        slot.idleTimer = setTimeout(() => {
          slot.idleTimer = undefined;
          if (slot.job || this.closed || !this.slots.includes(slot)) return;
          this.event("recycled");
          this.replace(slot);
        }, this.recycleIdleMs);
        slot.idleTimer.unref();
      }
    });
    worker.on("error", (error: Error & { code?: string }) => {
      if (!this.slots.includes(slot)) return;
      const job = slot.job;
      if (job) {
        this.finish(slot);
        if (error.code === "ERR_WORKER_OUT_OF_MEMORY") {
          this.event("out-of-memory");
          this.settle(job, this.outOfMemory(job, error));
        } else {
          this.event("worker-failed");
          this.settle(job, new GatewayError("INTERNAL", "A render worker failed", { cause: error }));
        }
      } else {
        this.event("worker-failed");
      }
      this.replace(slot);
    });
    worker.on("exit", (code) => {
      if (!this.slots.includes(slot)) return;
      const job = slot.job;
      if (job) {
        this.finish(slot);
        this.settle(
          job,
          new GatewayError("INTERNAL", "A render worker failed", { cause: new Error(`render worker exited with code ${code}`) }),
        );
      }
      this.event("worker-failed");
      this.replace(slot);
    });
    return slot;
  }

  /** Takes the job off a slot and off its principal's running count. */
  private finish(slot: Slot): void {
    const job = slot.job;
    slot.job = null;
    slot.unwatch?.();
    slot.unwatch = undefined;
    if (!job) return;
    this.running.set(job.principal, Math.max(0, (this.running.get(job.principal) ?? 1) - 1));
    this.forgetIfIdle(job.principal);
  }

  /** A principal with nothing waiting or running is forgotten: the maps stay as small as the work. */
  private forgetIfIdle(principal: string): void {
    if (this.queues.has(principal) || (this.running.get(principal) ?? 0) > 0) return;
    this.running.delete(principal);
    this.work.delete(principal);
  }

  /** Terminates a slot's worker (whatever it is doing) and puts a fresh one in its place. */
  private replace(slot: Slot): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    this.finish(slot);
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    if (this.closed) {
      this.slots.splice(index, 1);
    } else {
      this.slots[index] = this.spawn();
    }
    void slot.worker.terminate();
    this.dispatch();
  }

  private start(slot: Slot, job: Job): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    if (job.timer) clearTimeout(job.timer);
    job.timer = undefined;
    slot.job = job;
    slot.jobs++;
    this.running.set(job.principal, (this.running.get(job.principal) ?? 0) + 1);
    this.work.set(job.principal, (this.work.get(job.principal) ?? 0) + job.weight);
    slot.worker.postMessage(job.request, job.request.kind === "extract" ? [job.request.docx] : []);
    if (slot.ready) this.armLimits(slot, job);
  }

  /**
   * The render's time and memory are watched from when its worker can start on it: loading a
   * fresh worker's code is not the document's cost.
   */
  private armLimits(slot: Slot, job: Job): void {
    slot.unwatch = watchHeap(slot.worker, this.maxHeapMb, () => {
      if (slot.job !== job) return;
      this.event("out-of-memory");
      this.finish(slot);
      this.settle(job, this.outOfMemory(job));
      this.replace(slot);
    });
    if (this.timeoutMs > 0) {
      job.timer = setTimeout(() => {
        if (slot.job !== job) return;
        this.event("timeout");
        this.finish(slot);
        this.settle(
          job,
          new GatewayError(
            "PAYLOAD_TOO_LARGE",
            `${doing(job)} took longer than the ${this.timeoutMs} ms a render may take; send a smaller or simpler document`,
            { details: { reason: "render_timeout", limitMs: this.timeoutMs } },
          ),
        );
        this.replace(slot);
      }, this.timeoutMs);
      job.timer.unref();
    }
  }

  private outOfMemory(job: Job, cause?: Error): GatewayError {
    return new GatewayError(
      "PAYLOAD_TOO_LARGE",
      `${doing(job)} needs more than the ${this.maxHeapMb} MB a render may use; send a smaller or simpler document`,
      { details: { reason: "render_memory", limitMb: this.maxHeapMb }, ...(cause ? { cause } : {}) },
    );
  }

  /** Gives waiting jobs to idle, ready workers. */
  private dispatch(): void {
    if (this.closed) return;
    for (let slot = this.idleSlot(); slot && this.queued > 0; slot = this.idleSlot()) {
      const job = this.nextJob();
      if (!job) return;
      this.start(slot, job);
    }
  }
}

/** The job, for messages: the limits are the same, the caller's document differs. */
function doing(job: Job): string {
  return job.request.kind === "render" ? "Rendering this document" : "Reading this .docx";
}

function queueFull(): GatewayError {
  return new GatewayError("SERVICE_UNAVAILABLE", "Too many documents are being rendered; retry shortly", { retryAfter: 1 });
}

function shuttingDown(): GatewayError {
  return new GatewayError("SERVICE_UNAVAILABLE", "The gateway is shutting down", { retryAfter: 1 });
}
