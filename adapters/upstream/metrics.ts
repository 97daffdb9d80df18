// What the upstream client reports, as a small structural interface so that adapters/ needs
// nothing from src/ for it: src/observability/metrics.ts's prom-client objects fit it as they are.

export interface UpstreamMetrics {
  /** Seconds per attempt, by product and outcome. */
  upstreamDuration?: { observe(labels: { product: string; outcome: string }, seconds: number): void };
  /** 0 closed, 1 half-open, 2 open, per origin. */
  upstreamCircuitState?: { set(labels: { origin: string }, value: number): void };
  /** Retries the budget allowed or denied, per origin. */
  upstreamRetries?: { inc(labels: { origin: string; budget: "allowed" | "denied" }): void };
}
