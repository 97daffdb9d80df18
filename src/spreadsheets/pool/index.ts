// The spreadsheets pool: worker threads that run the engine, so the event loop never parses a
// file, loads a workbook or recalculates one. Jobs wait in one queue per principal and free workers
// take them in turn (./fair-queue.ts), a principal running at most its bound at once, so one user's
// long job never holds the engine from the others. A worker keeps the models of the workbooks it
// worked on, so a workbook's next job goes to the worker that last had it when that one is free
// (any free worker otherwise: it asks for the blobs). A job past its deadline, or a worker that runs
// out of memory, costs that worker: it is replaced.
import { Worker } from "node:worker_threads";
import { GatewayError } from "../../core/errors.ts";
import { heapCapMb, watchHeap } from "../../core/heap-watch.ts";
import { workerHeap } from "../../core/worker-heap.ts";
import { FairQueue, type Queued } from "./fair-queue.ts";
import type { Base, FromWorker, Job, JobOutput, SheetsWorkerData, ToWorker } from "./protocol.ts";
import { encodeJob, movable } from "./wire.ts";

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
  /** Jobs of one principal running at once (SHEETS_JOBS_PER_PRINCIPAL); default: all workers but one. */
  jobsPerPrincipal?: number;
  /** Jobs of one principal waiting beyond those (SHEETS_QUEUE_PER_PRINCIPAL); past it RATE_LIMITED. */
  queuePerPrincipal: number;
  /** Jobs waiting, every principal together, before new ones are refused (SERVICE_UNAVAILABLE). */
  maxQueue: number;
  /** A job's deadline, ms, from when a worker starts it: past it the worker is stopped and replaced. */
  jobTimeoutMs: number;
  worker: SheetsWorkerData;
}

/** Gives a base's stored blobs (root, pages, tiles) when its worker does not hold the model. */
export type BlobSource = (base: Base) => Promise<[string, Uint8Array][]>;

/** Whose job it is (./fair-queue.ts), and the caller's signal: a job still waiting when it aborts is dropped. */
export interface JobOwner {
  principal: string;
  signal?: AbortSignal | undefined;
}

interface Pending extends Queued {
  id: number;
  job: Job;
  blobs: BlobSource | undefined;
  resolve(output: JobOutput): void;
  reject(error: Error): void;
  /** Removes the abort listener once the job runs or ends. */
  release(): void;
}

interface Slot {
  worker: Worker;
  running: Pending | undefined;
  timer: NodeJS.Timeout | undefined;
  /** The worker has loaded the engine: its heap is the job's from then on. */
  ready: boolean;
  /** Stops sampling the heap of the job it runs (../../core/heap-watch.ts). */
  unwatch: (() => void) | undefined;
}

const baseOf = (job: Job): Base | undefined => ("base" in job ? job.base : undefined);

/** Workbooks whose last worker the pool remembers (a Map in insertion order: the oldest go first). */
const HOMES = 10_000;

const cancelled = () => new GatewayError("BAD_USER_INPUT", "The request was cancelled before its spreadsheet job started");
const shuttingDown = () => new GatewayError("SERVICE_UNAVAILABLE", "The gateway is shutting down", { retryAfter: 1 });

export class SheetsPool {
  // Workers start with the first job, not with the gateway: one that never serves a spreadsheet
  // holds no thread (and a test gateway boots in a fraction of the time). Then one spare is kept
  // started while there is room for it (spare()).
  private readonly slots: (Slot | undefined)[];
  private readonly queue: FairQueue<Pending>;
  /** The worker that last ran each workbook's job: it holds the model. */
  private readonly homes = new Map<string, Slot>();
  /** The worker holding each change's model until the store says whether it kept it. */
  private readonly changes = new Map<number, Slot>();
  private nextId = 1;
  private nextToken = 1;
  private closed = false;

  constructor(private readonly options: SheetsPoolOptions) {
    const workers = Math.max(1, options.workers);
    this.slots = Array.from({ length: workers }, () => undefined);
    this.queue = new FairQueue({
      perPrincipal: Math.max(1, options.jobsPerPrincipal ?? workers - 1),
      queuePerPrincipal: options.queuePerPrincipal,
      total: options.maxQueue,
    });
  }

  /** Worker threads started (each starts with its first job; for tests). */
  get threads(): number {
    return this.slots.filter((slot) => slot !== undefined).length;
  }

  /** Jobs running and waiting (for tests and metrics). */
  get jobs(): { running: number; waiting: number } {
    return { running: this.slots.filter((slot) => slot?.running).length, waiting: this.queue.waiting };
  }

  /**
   * Runs a job when its principal's turn comes, on the worker that holds its workbook when that
   * one is free. Refused at once (RATE_LIMITED) when the principal has its bound of jobs in flight.
   */
  run(job: Job, blobs?: BlobSource, owner: JobOwner = { principal: "" }): Promise<JobOutput> {
    if (this.closed) return Promise.reject(shuttingDown());
    const { signal } = owner;
    if (signal?.aborted) return Promise.reject(cancelled());
    return new Promise<JobOutput>((resolve, reject) => {
      const onAbort = () => {
        if (this.queue.remove(pending)) reject(cancelled());
      };
      const pending: Pending = {
        id: this.nextId++,
        job,
        blobs,
        principal: owner.principal,
        workbookId: baseOf(job)?.workbookId,
        resolve,
        reject,
        release: () => signal?.removeEventListener("abort", onAbort),
      };
      const refusal = this.queue.add(pending);
      if (refusal) return reject(this.refused(refusal, owner.principal));
      signal?.addEventListener("abort", onAbort, { once: true });
      this.dispatch();
    });
  }

  /** A token naming a change's model until the store says whether it kept it. */
  token(): number {
    return this.nextToken++;
  }

  commit(workbookId: string, token: number, version: number): void {
    const slot = this.holder(token);
    if (!slot) return;
    this.post(slot, { type: "commit", token, version });
    this.remember(workbookId, slot);
  }

  forget(_workbookId: string, token: number): void {
    const slot = this.holder(token);
    if (slot) this.post(slot, { type: "forget", token });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.drain()) {
      pending.release();
      pending.reject(shuttingDown());
    }
    const started = this.slots.filter((slot) => slot !== undefined);
    for (const slot of started) {
      slot.running?.reject(shuttingDown());
      slot.running = undefined;
      if (slot.timer) clearTimeout(slot.timer);
    }
    await Promise.all(started.map((slot) => slot.worker.terminate()));
  }

  private refused(refusal: "principal" | "total", principal: string): GatewayError {
    if (refusal === "total")
      return new GatewayError("SERVICE_UNAVAILABLE", "Too many spreadsheet jobs are waiting; retry shortly", { retryAfter: 1 });
    const running = this.queue.runningOf(principal);
    return new GatewayError(
      "RATE_LIMITED",
      `Too many of your spreadsheet jobs are running or waiting (${running} running, at most ${this.options.queuePerPrincipal} more may wait); retry when one has finished`,
      { retryAfter: 1, details: { limit: "SHEETS_JOBS_PER_PRINCIPAL", running, queued: this.options.queuePerPrincipal } },
    );
  }

  /** The worker holding a change's model, if it is still the one that ran it. */
  private holder(token: number): Slot | undefined {
    const slot = this.changes.get(token);
    this.changes.delete(token);
    return slot && this.slots.includes(slot) ? slot : undefined;
  }

  private remember(workbookId: string, slot: Slot): void {
    this.homes.delete(workbookId);
    this.homes.set(workbookId, slot);
    if (this.homes.size > HOMES) this.homes.delete(this.homes.keys().next().value as string);
  }

  /** Free workers take the jobs whose turn it is. */
  private dispatch(): void {
    while (!this.closed && this.slots.some((slot) => !slot?.running)) {
      const pending = this.queue.take();
      if (!pending) break;
      this.start(this.slotFor(pending), pending);
    }
    this.spare();
  }

  /**
   * Once spreadsheets are in use, one worker more than the busy ones is started ahead of need: a
   * worker takes a second or more to start (loading the engine), which another user's one-cell
   * write would otherwise wait for behind a long job.
   */
  private spare(): void {
    if (this.closed || !this.slots.some((slot) => slot !== undefined)) return;
    if (this.slots.some((slot) => slot !== undefined && !slot.running)) return;
    const index = this.slots.indexOf(undefined);
    if (index >= 0) this.slots[index] = this.spawn();
  }

  /** The free worker that last had the job's workbook; else a free started one; else a new one. */
  private slotFor(pending: Pending): Slot {
    const home = pending.workbookId === undefined ? undefined : this.homes.get(pending.workbookId);
    if (home && !home.running && this.slots.includes(home)) return home;
    const idle = this.slots.find((slot) => slot !== undefined && !slot.running);
    if (idle) return idle;
    const index = this.slots.indexOf(undefined);
    return (this.slots[index] = this.spawn());
  }

  private start(slot: Slot, pending: Pending): void {
    pending.release();
    slot.running = pending;
    slot.timer = setTimeout(() => this.timeout(slot), this.options.jobTimeoutMs);
    const { job } = pending;
    // A download's model is not kept (./worker.ts), so it leaves the workbook's home as it was.
    if (pending.workbookId !== undefined && job.kind !== "render") this.remember(pending.workbookId, slot);
    if (job.kind === "change") this.changes.set(job.token, slot);
    this.post(slot, encodeJob(pending.id, job), movable(job));
    if (slot.ready) this.watch(slot);
  }

  /** A job whose heap passes SHEETS_WORKER_MAX_MB costs its worker, as running out of it would. */
  private watch(slot: Slot): void {
    const pending = slot.running;
    if (!pending) return;
    slot.unwatch = watchHeap(slot.worker, this.options.maxHeapMb, () => {
      if (slot.running === pending) this.replace(slot, this.outOfMemory());
    });
  }

  private outOfMemory(cause?: Error): GatewayError {
    const { maxHeapMb } = this.options;
    return new GatewayError("PAYLOAD_TOO_LARGE", `The workbook needs more than the ${maxHeapMb} MB a spreadsheet worker may use`, {
      details: { limit: "SHEETS_WORKER_MAX_MB", limitMb: maxHeapMb },
      ...(cause ? { cause } : {}),
    });
  }

  private post(slot: Slot, message: ToWorker, transfer: ArrayBuffer[] = []): void {
    slot.worker.postMessage(message, transfer);
  }

  private settle(slot: Slot, outcome: { output: JobOutput } | { error: Error }): void {
    const pending = slot.running;
    if (!pending) return;
    slot.running = undefined;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.unwatch?.();
    slot.unwatch = undefined;
    this.queue.done(pending);
    if ("output" in outcome) pending.resolve(outcome.output);
    else pending.reject(outcome.error);
    this.dispatch();
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
        this.post(slot, encodeJob(pending.id, job));
      },
      (error: unknown) => {
        if (slot.running === pending) this.settle(slot, { error: error instanceof Error ? error : new Error(String(error)) });
      },
    );
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    if (message.type === "ready") {
      slot.ready = true;
      if (slot.running) this.watch(slot);
      return;
    }
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

  /** Stops a worker (its running job fails with `error`); a new one starts when a job needs it. */
  private replace(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots[index] = undefined;
    const running = slot.running;
    if (slot.timer) clearTimeout(slot.timer);
    slot.unwatch?.();
    slot.running = undefined;
    void slot.worker.terminate();
    if (running) {
      this.queue.done(running);
      running.reject(error);
    }
    this.dispatch();
  }

  private spawn(): Slot {
    const worker = new Worker(bootstrap, {
      execArgv: [],
      workerData: this.options.worker,
      resourceLimits: workerHeap(heapCapMb(this.options.maxHeapMb), this.options.youngGenerationMb ?? 8),
    });
    const slot: Slot = { worker, running: undefined, timer: undefined, ready: false, unwatch: undefined };
    worker.unref();
    worker.on("message", (message: FromWorker) => this.onMessage(slot, message));
    worker.on("error", (error: Error & { code?: string }) => {
      if (this.closed || !this.slots.includes(slot)) return;
      const outOfMemory = error.code === "ERR_WORKER_OUT_OF_MEMORY";
      this.replace(
        slot,
        outOfMemory ? this.outOfMemory(error) : new GatewayError("INTERNAL", "A spreadsheet worker failed", { cause: error }),
      );
    });
    worker.on("exit", (code) => {
      if (this.closed || !this.slots.includes(slot)) return;
      this.replace(slot, new GatewayError("INTERNAL", "A spreadsheet worker stopped", { cause: new Error(`exit code ${code}`) }));
    });
    return slot;
  }
}
