// The gateway's render pool from its configuration, with its metrics (docs/rendering-limits.md).
import { Counter, Gauge, type Registry } from "prom-client";
import type { Config } from "../../core/config.ts";
import { RenderPool, type RenderPoolEvent } from "./index.ts";

/** Where the pool's metrics go: the gateway's registry and its queue-rejection counter (src/observability/metrics.ts). */
export interface RenderPoolMetrics {
  registry: Registry;
  renderQueueRejected: { inc(): void };
}

export function createRenderPool(config: Config, metrics: RenderPoolMetrics): RenderPool {
  const events = new Counter({
    name: "gateway_render_events_total",
    help: "Document renders refused, timed out, cancelled or out of memory, and render workers recycled, by event",
    labelNames: ["event"],
    registers: [metrics.registry],
  });
  const pool = new RenderPool({
    ...(config.RENDER_WORKERS > 0 ? { size: config.RENDER_WORKERS } : {}),
    maxQueue: config.RENDER_QUEUE,
    warmup: config.RENDER_WARMUP,
    timeoutMs: config.RENDER_TIMEOUT_MS,
    queueTimeoutMs: config.RENDER_QUEUE_TIMEOUT_MS,
    maxHeapMb: config.RENDER_WORKER_MAX_MB,
    maxJobsPerWorker: config.RENDER_WORKER_MAX_JOBS,
    niceness: config.RENDER_WORKER_NICE,
    onReject: () => metrics.renderQueueRejected.inc(),
    onEvent: (event: RenderPoolEvent) => events.inc({ event }),
  });
  new Gauge({
    name: "gateway_render_jobs",
    help: "Document renders running and waiting for a worker, by state",
    labelNames: ["state"],
    registers: [metrics.registry],
    collect() {
      const { running, queued } = pool.load;
      this.set({ state: "running" }, running);
      this.set({ state: "queued" }, queued);
    },
  });
  return pool;
}
