// The gateway's render and import pools from its configuration, with their metrics
// (docs/rendering-limits.md, docs/observability.md). Imports run in a pool of their own
// (./pools.ts): one worker with the render pool's bounds, so a heavy upload never holds a render
// worker. Each pool has its own pair of metrics (gateway_render_* and gateway_import_*).
import { Counter, Gauge, type Registry } from "prom-client";
import type { Config } from "../../core/config.ts";
import { RenderPool, type RenderPoolEvent, type RenderPoolOptions } from "./index.ts";
import { DocumentPools } from "./pools.ts";

/** Where the pools' metrics go: the gateway's registry and its queue-rejection counter (src/observability/metrics.ts). */
export interface RenderPoolMetrics {
  registry: Registry;
  renderQueueRejected: { inc(): void };
}

/** Import workers: one serves the uploads a gateway sees, and bounds what imports can hold at once. */
const IMPORT_WORKERS = 1;

/** A pool's job gauge (running, queued) and event counter, under `prefix`. */
function poolMetrics(
  metrics: RenderPoolMetrics,
  prefix: string,
  what: string,
): { onEvent: (event: RenderPoolEvent) => void; watch: (pool: RenderPool) => void } {
  const events = new Counter({
    name: `${prefix}_events_total`,
    help: `Document ${what} refused, timed out, cancelled or out of memory, and ${what} workers recycled, by event`,
    labelNames: ["event"],
    registers: [metrics.registry],
  });
  return {
    onEvent: (event) => events.inc({ event }),
    watch(pool) {
      new Gauge({
        name: `${prefix}_jobs`,
        help: `Document ${what} running and waiting for a worker, by state`,
        labelNames: ["state"],
        registers: [metrics.registry],
        collect() {
          const { running, queued } = pool.load;
          this.set({ state: "running" }, running);
          this.set({ state: "queued" }, queued);
        },
      });
    },
  };
}

export function createRenderPool(config: Config, metrics: RenderPoolMetrics): DocumentPools {
  const shared: RenderPoolOptions = {
    maxQueue: config.RENDER_QUEUE,
    timeoutMs: config.RENDER_TIMEOUT_MS,
    queueTimeoutMs: config.RENDER_QUEUE_TIMEOUT_MS,
    maxHeapMb: config.RENDER_WORKER_MAX_MB,
    maxJobsPerWorker: config.RENDER_WORKER_MAX_JOBS,
    niceness: config.RENDER_WORKER_NICE,
    onReject: () => metrics.renderQueueRejected.inc(),
  };
  const renderMetrics = poolMetrics(metrics, "gateway_render", "renders");
  const importMetrics = poolMetrics(metrics, "gateway_import", "imports");
  const renders = new RenderPool({
    ...shared,
    ...(config.RENDER_WORKERS > 0 ? { size: config.RENDER_WORKERS } : {}),
    warmup: config.RENDER_WARMUP,
    onEvent: renderMetrics.onEvent,
  });
  const imports = new RenderPool({ ...shared, size: IMPORT_WORKERS, onEvent: importMetrics.onEvent });
  renderMetrics.watch(renders);
  importMetrics.watch(imports);
  return new DocumentPools(renders, imports);
}
