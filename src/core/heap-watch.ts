// A busy worker's heap, watched from the pool's thread. On Node.js 26 (V8 14.6) a worker that
// reaches its resourceLimits cap can abort the whole process ("Check failed:
// GetTimerForCollectionRequest(kind).IsStarted()": two threads asking for a major and a
// last-resort collection at once, a V8 bug fixed after 14.6) instead of ending alone with
// ERR_WORKER_OUT_OF_MEMORY: one user's document would take every request down. So a pool samples
// the heap of each worker while it runs a job and stops the worker (terminate(), as a deadline
// does) once the heap in use passes the limit; V8's own cap (heapCapMb) is set above it, for
// growth faster than a sample, and is then the last resort it was.
import { Worker } from "node:worker_threads";

/** How often a busy worker's heap is sampled, ms. */
const HEAP_SAMPLE_MS = 10;

/**
 * Worker#getHeapStatistics() is newer than some Node.js 22 releases engines.node allows (22.23.5,
 * which CI runs, has it): without it nothing is watched and V8's cap is the limit, as before
 * (Node.js 22's V8 does not have the bug).
 */
const canWatch = typeof (Worker.prototype as Partial<Worker>).getHeapStatistics === "function";

/**
 * V8's cap for a worker whose heap the pool stops at `limitMb`: a quarter over it, at least 32 MB
 * (more than a heap grows in a sample). Not more: V8 lets a heap with a higher cap hold more
 * garbage between full collections (twice the limit cost a render worker ~12% more peak RSS).
 */
export const heapCapMb = (limitMb: number, watched = canWatch): number =>
  watched ? limitMb + Math.max(Math.ceil(limitMb / 4), 32) : limitMb;

/**
 * Samples `worker`'s heap until the returned function is called; calls `onOver` once (and stops)
 * the first time the heap in use is above `limitMb`. The watch also ends when the worker exits
 * (its own 'exit' or 'error' ends the job then), so a pool closed mid-job leaves no timer behind.
 */
export function watchHeap(worker: Worker, limitMb: number, onOver: (usedMb: number) => void): () => void {
  if (!canWatch) return () => {};
  const limit = limitMb * 1024 * 1024;
  let stopped = false;
  let sampling = false;
  const timer = setInterval(() => {
    if (sampling) return;
    sampling = true;
    worker.getHeapStatistics().then(
      ({ used_heap_size: used }) => {
        sampling = false;
        if (stopped || used <= limit) return;
        stop();
        onOver(Math.ceil(used / (1024 * 1024)));
      },
      () => {
        sampling = false;
      },
    );
  }, HEAP_SAMPLE_MS);
  timer.unref();
  const stop = () => {
    stopped = true;
    clearInterval(timer);
    worker.off("exit", stop);
  };
  worker.once("exit", stop);
  return stop;
}
