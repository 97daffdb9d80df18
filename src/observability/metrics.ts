// Prometheus metrics for /metrics. One registry per gateway instance so tests can run several.
import { timingSafeEqual } from "node:crypto";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<"method" | "route" | "status">;
  upstreamDuration: Histogram<"product" | "outcome">;
  renderQueueRejected: Counter;
  /** 0 closed, 1 half-open, 2 open (adapters/upstream/breaker.ts). */
  upstreamCircuitState: Gauge<"origin">;
  upstreamRetries: Counter<"origin" | "budget">;
  /** Rate-limit checks counted per process because Redis did not answer (src/core/rate-limit.ts). */
  rateLimitFailOpen: Counter<"limiter">;
  /** STORAGE_QUOTA_MB in bytes, per user (0: unlimited). */
  storageQuotaBytes: Gauge;
  /** Writes refused because they would have taken their user past STORAGE_QUOTA_MB. */
  storageQuotaExceeded: Counter;
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
    upstreamCircuitState: new Gauge({
      name: "gateway_upstream_circuit_state",
      help: "Circuit breaker state per upstream origin: 0 closed, 1 half-open, 2 open",
      labelNames: ["origin"],
      registers: [registry],
    }),
    upstreamRetries: new Counter({
      name: "gateway_upstream_retries_total",
      help: "Retries of idempotent upstream calls the retry budget allowed or denied, per origin",
      labelNames: ["origin", "budget"],
      registers: [registry],
    }),
    rateLimitFailOpen: new Counter({
      name: "gateway_rate_limit_fail_open_total",
      help: "Rate-limit checks counted by this process alone because Redis was unreachable (limits not shared across replicas)",
      labelNames: ["limiter"],
      registers: [registry],
    }),
    storageQuotaBytes: new Gauge({
      name: "gateway_storage_quota_bytes",
      help: "Bytes of stored content each user may hold (STORAGE_QUOTA_MB); 0 means unlimited",
      registers: [registry],
    }),
    storageQuotaExceeded: new Counter({
      name: "gateway_storage_quota_exceeded_total",
      help: "Writes refused with 413 because they would have taken their user past STORAGE_QUOTA_MB",
      registers: [registry],
    }),
  };
}

/**
 * Whether a request may read /metrics: always without METRICS_TOKEN, else only with
 * `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time).
 */
export function metricsAllowed(token: string | undefined, authorization: string | null | undefined): boolean {
  if (token === undefined) return true;
  const presented = /^Bearer +(\S+)\s*$/i.exec(authorization ?? "")?.[1];
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The /metrics answer, with or without the token (the main app's route and METRICS_PORT's listener). */
export async function metricsResponse(
  metrics: Metrics,
  token: string | undefined,
  authorization: string | null | undefined,
): Promise<Response> {
  if (!metricsAllowed(token, authorization)) {
    return Response.json(
      { error: { code: "UNAUTHENTICATED", message: "/metrics needs Authorization: Bearer <METRICS_TOKEN>" } },
      { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="metrics"' } },
    );
  }
  return new Response(await metrics.registry.metrics(), { status: 200, headers: { "Content-Type": metrics.registry.contentType } });
}
