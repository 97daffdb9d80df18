// What the upstream client reports, as a small structural interface so that adapters/ needs
// nothing from src/ for it: src/observability/metrics.ts's prom-client objects fit it as they are. And the
// metrics policy, which times each attempt by its outcome.
import { AttemptFailed } from "./errors.ts";
import type { CallContext, Policy } from "./policy.ts";

export interface UpstreamMetrics {
  /** Seconds per attempt, by product and outcome. */
  upstreamDuration?: { observe(labels: { product: string; outcome: string }, seconds: number): void };
  /** 0 closed, 1 half-open, 2 open, per origin. */
  upstreamCircuitState?: { set(labels: { origin: string }, value: number): void };
  /** Retries the budget allowed or denied, per origin. */
  upstreamRetries?: { inc(labels: { origin: string; budget: "allowed" | "denied" }): void };
}

/**
 * The metrics policy: each attempt's duration by outcome (`ok`, or its failure's). An attempt the
 * circuit refused took no time upstream: 0 s. A call that ended without an attempt (the caller
 * went away first) is not one.
 */
export function attemptMetricsPolicy(histogram: UpstreamMetrics["upstreamDuration"]): Policy {
  return {
    async execute<T>(ctx: CallContext, next: () => Promise<T>): Promise<T> {
      if (!histogram) return next();
      const product = ctx.target.product;
      const started = performance.now();
      try {
        const value = await next();
        histogram.observe({ product, outcome: "ok" }, (performance.now() - started) / 1000);
        return value;
      } catch (error) {
        if (error instanceof AttemptFailed) {
          const { outcome } = error.failure;
          histogram.observe({ product, outcome }, outcome === "circuit_open" ? 0 : (performance.now() - started) / 1000);
        }
        throw error;
      }
    },
  };
}
