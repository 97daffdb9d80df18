// Prometheus metrics for /metrics. One registry per gateway instance so tests can run several.
import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<"method" | "route" | "status">;
  upstreamDuration: Histogram<"product" | "outcome">;
  renderQueueRejected: Counter;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpDuration: new Histogram({
      name: "gateway_http_request_duration_seconds",
      help: "HTTP requests by route and status",
      labelNames: ["method", "route", "status"],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    upstreamDuration: new Histogram({
      name: "gateway_upstream_request_duration_seconds",
      help: "Upstream calls by product and outcome",
      labelNames: ["product", "outcome"],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    renderQueueRejected: new Counter({
      name: "gateway_render_queue_rejected_total",
      help: "Document renders refused because the render queue was full",
      registers: [registry],
    }),
  };
}
