// The spreadsheets pool: worker threads that run the engine, so the event loop never parses a
// file, loads a workbook or recalculates one. A workbook's jobs go to the same worker (by its id),
// which keeps its model between jobs; jobs run one at a time per worker, in order. A job past its
// deadline, or a worker that runs out of memory, costs that worker: it is replaced.
import { Worker } from "node:worker_threads";
import { GatewayError } from "../../core/errors.ts";
import { workerHeap } from "../../core/worker-heap.ts";
import type { Base, FromWorker, Job, JobOutput, SheetsWorkerData, ToWorker } from "./protocol.ts";

export type { Base, Change, Job, JobOutput, NewSheetSource, Saved } from "./protocol.ts";

const bootstrap = new URL("./worker-bootstrap.mjs", import.meta.url);

export interface SheetsPoolOptions {
  /** Worker threads (SHEETS_WORKERS). */
  workers: number;
  /** Heap of a worker, MB (SHEETS_WORKER_MAX_MB). */
  maxHeapMb: number;
  /**
   * A worker's young generation, MB. An import or a recalculation makes mostly short-lived cells
   * and strings; a small nursery scavenges them early instead of holding them as RSS. Default 8.
   */
  youngGenerationMb?: number;
  /** Jobs waiting per worker before new ones are refused (SERVICE_UNAVAILABLE). */
  maxQueue: number;
  /** A job's deadline, ms: past it the worker is stopped and replaced. */
  jobTimeoutMs: number;
  worker: SheetsWorkerData;
}

/** Gives a base's stored blobs (root, pages, tiles) when its worker does not hold the model. */
export type BlobSource = (base: Base) => Promise<[string, Uint8Array][]>;

interface Pending {
  id: number;
  job: Job;
  blobs: BlobSource | undefined;
  resolve(output: JobOutput): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  queue: Pending[];
  running: Pending | undefined;
  timer: NodeJS.Timeout | undefined;
}

const baseOf = (job: Job): Base | undefined => ("base" in job ? job.base : undefined);

/** A string's stable bucket, to send a workbook's jobs to one worker. */
function bucket(text: string, buckets: number): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return Math.abs(hash) % buckets;
}

export class SheetsPool {
  // A worker starts on its first job, not with the gateway: one that never serves a spreadsheet
  // holds no thread (and a test gateway boots in a fraction of the time).
  private readonly slots: (Slot | undefined)[];
  private nextId = 1;
  private nextToken = 1;
  private closed = false;

  constructor(private readonly options: SheetsPoolOptions) {
    this.slots = Array.from({ length: Math.max(1, options.workers) }, () => undefined);
  }

  /** Worker threads started (each starts with its first job; for tests). */
  get threads(): number {
    return this.slots.filter((slot) => slot !== undefined).length;
  }

  /** Runs a job on its workbook's worker (any worker for a new workbook). */
  run(job: Job, blobs?: BlobSource): Promise<JobOutput> {
    if (this.closed) return Promise.reject(new GatewayError("SERVICE_UNAVAILABLE", "The gateway is shutting down"));
    const base = baseOf(job);
    const slot = base ? this.slotOf(base.workbookId) : this.leastBusy();
    if (slot.queue.length >= this.options.maxQueue) {
      return Promise.reject(
        new GatewayError("SERVICE_UNAVAILABLE", "Too many spreadsheet jobs are waiting; retry shortly", { retryAfter: 1 }),
      );
    }
    return new Promise<JobOutput>((resolve, reject) => {
      slot.queue.push({ id: this.nextId++, job, blobs, resolve, reject });
      this.next(slot);
    });
  }

  /** A token naming a change's model until the store says whether it kept it. */
  token(): number {
    return this.nextToken++;
  }

  commit(workbookId: string, token: number, version: number): void {
    this.post(this.slotOf(workbookId), { type: "commit", token, version });
  }

  forget(workbookId: string, token: number): void {
    const slot = this.slots[bucket(workbookId, this.slots.length)];
    if (slot) this.post(slot, { type: "forget", token });
  }

  async close(): Promise<void> {
    this.closed = true;
    const started = this.slots.filter((slot) => slot !== undefined);
    for (const slot of started) {
      for (const pending of [...slot.queue, ...(slot.running ? [slot.running] : [])]) {
        pending.reject(new GatewayError("SERVICE_UNAVAILABLE", "The gateway is shutting down"));
      }
      slot.queue.length = 0;
      if (slot.timer) clearTimeout(slot.timer);
    }
    await Promise.all(started.map((slot) => slot.worker.terminate()));
  }

  private slotOf(workbookId: string): Slot {
    return this.started(bucket(workbookId, this.slots.length));
  }

  private leastBusy(): Slot {
    const idle = this.slots.findIndex((slot) => !slot || load(slot) === 0);
    if (idle >= 0) return this.started(idle);
    return (this.slots as Slot[]).reduce((best, slot) => (load(slot) < load(best) ? slot : best));
  }

  private started(index: number): Slot {
    return (this.slots[index] ??= this.spawn());
  }

  private post(slot: Slot, message: ToWorker, transfer: ArrayBuffer[] = []): void {
    slot.worker.postMessage(message, transfer);
  }

  private next(slot: Slot): void {
    if (slot.running || this.closed) return;
    const pending = slot.queue.shift();
    if (!pending) return;
    slot.running = pending;
    slot.timer = setTimeout(() => this.timeout(slot), this.options.jobTimeoutMs);
    this.post(slot, { type: "job", id: pending.id, job: pending.job });
  }

  private settle(slot: Slot, outcome: { output: JobOutput } | { error: Error }): void {
    const pending = slot.running;
    if (!pending) return;
    slot.running = undefined;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    if ("output" in outcome) pending.resolve(outcome.output);
    else pending.reject(outcome.error);
    this.next(slot);
  }

  /** The worker lacks the base's model: fetch the blobs and send the job again (it goes first). */
  private resend(slot: Slot, pending: Pending): void {
    const base = baseOf(pending.job);
    if (!base || !pending.blobs || base.blobs) {
      this.settle(slot, { error: new GatewayError("INTERNAL", "A spreadsheet worker asked again for blobs it was sent") });
      return;
    }
    pending.blobs(base).then(
      (blobs) => {
        if (slot.running !== pending) return;
        const job = { ...pending.job, base: { ...base, blobs } } as Job;
        pending.job = job;
        this.post(slot, { type: "job", id: pending.id, job });
      },
      (error: unknown) => this.settle(slot, { error: error instanceof Error ? error : new Error(String(error)) }),
    );
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    if (message.type === "ready") return;
    const pending = slot.running;
    if (!pending || pending.id !== message.id) return;
    if (message.type === "done") return this.settle(slot, { output: message.output });
    if (message.type === "need") return this.resend(slot, pending);
    const error = message.code
      ? new GatewayError(message.code, message.message, message.details === undefined ? {} : { details: message.details })
      : new GatewayError("INTERNAL", "A spreadsheet job failed", { cause: new Error(message.message) });
    this.settle(slot, { error });
  }

  /** A job past its deadline: its worker is stopped (the only way to stop a computation) and replaced. */
  private timeout(slot: Slot): void {
    const seconds = Math.round(this.options.jobTimeoutMs / 1000);
    this.replace(
      slot,
      new GatewayError("PAYLOAD_TOO_LARGE", `The spreadsheet job took longer than ${seconds} s; nothing was written`, {
        details: { limit: "SHEETS_JOB_TIMEOUT_MS", limitMs: this.options.jobTimeoutMs },
      }),
    );
  }

  private replace(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    const fresh = this.spawn();
    fresh.queue.push(...slot.queue);
    this.slots[index] = fresh;
    const running = slot.running;
    if (slot.timer) clearTimeout(slot.timer);
    slot.queue.length = 0;
    slot.running = undefined;
    void slot.worker.terminate();
    running?.reject(error);
    this.next(fresh);
  }

  private spawn(): Slot {
    const worker = new Worker(bootstrap, {
      execArgv: [],
      workerData: this.options.worker,
      resourceLimits: workerHeap(this.options.maxHeapMb, this.options.youngGenerationMb ?? 8),
    });
    const slot: Slot = { worker, queue: [], running: undefined, timer: undefined };
    worker.unref();
    worker.on("message", (message: FromWorker) => this.onMessage(slot, message));
    worker.on("error", (error: Error & { code?: string }) => {
      if (this.closed || !this.slots.includes(slot)) return;
      const outOfMemory = error.code === "ERR_WORKER_OUT_OF_MEMORY";
      this.replace(
        slot,
        outOfMemory
          ? new GatewayError(
              "PAYLOAD_TOO_LARGE",
              `The workbook needs more than the ${this.options.maxHeapMb} MB a spreadsheet worker may use`,
              {
                details: { limit: "SHEETS_WORKER_MAX_MB", limitMb: this.options.maxHeapMb },
              },
            )
          : new GatewayError("INTERNAL", "A spreadsheet worker failed", { cause: error }),
      );
    });
    worker.on("exit", (code) => {
      if (this.closed || !this.slots.includes(slot)) return;
      this.replace(slot, new GatewayError("INTERNAL", "A spreadsheet worker stopped", { cause: new Error(`exit code ${code}`) }));
    });
    return slot;
  }
}

const load = (slot: Slot): number => slot.queue.length + (slot.running ? 1 : 0);
