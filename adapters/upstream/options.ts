// The upstream client's options, and how they come from configuration (docs/resilience.md lists
// each variable). adapters/ does not import src/'s Config: the settings are named here.
import type { Dispatcher } from "undici";
import type { BreakerSettings } from "./breaker.ts";
import type { UpstreamMetrics } from "./metrics.ts";
import type { RetryBudgetSettings } from "./retry-budget.ts";

export interface UpstreamClientOptions {
  /** Connect, headers and body-idle timeout per attempt. Default 10,000 (UPSTREAM_TIMEOUT_MS). */
  timeoutMs?: number;
  /**
   * One deadline per incoming request over all its upstream calls and their retries (JSON calls
   * whole, downloads until their headers; uploads have their own budget). 0: none. Default 30,000.
   */
  requestDeadlineMs?: number;
  /** Sockets per origin. Default 64. */
  connections?: number;
  /** Idle keep-alive socket lifetime (shortened by the server's Keep-Alive hint). Default 4,000. */
  keepAliveTimeoutMs?: number;
  /** Retries of idempotent calls (GET) on connection errors, timeouts, bad JSON, 429 and 5xx. Default 2. */
  maxRetries?: number;
  /** First backoff step; doubles per retry, jittered. Default 100. */
  retryBaseDelayMs?: number;
  /** The longest wait before a retry, Retry-After included; asked to wait longer, we answer at once. Default 2,000. */
  maxRetryDelayMs?: number;
  /** Retries per origin as a share of its recent requests, plus a floor. */
  retryBudget?: Partial<RetryBudgetSettings>;
  /** The circuit breaker per origin (breaker.ts has the defaults). */
  breaker?: Partial<BreakerSettings>;
  /** Largest JSON response accepted. Default 10 MiB. */
  maxResponseBytes?: number;
  /** Largest upload streamed upstream. Default 100 MiB (UPLOAD_LIMIT_BYTES). */
  uploadLimitBytes?: number;
  metrics?: UpstreamMetrics | undefined;
  userAgent?: string;
  /** Replaces the Agent (tests, proxies). Not closed by close(). Restricted (tenant-chosen) hosts always use the guarded agent. */
  dispatcher?: Dispatcher;
  /** For tests: the jitter source (retry backoff, the breaker's open interval). */
  random?: () => number;
  /** For tests: the breakers' and budgets' clock. */
  now?: () => number;
}

/** The configuration's upstream settings by variable name (docs/resilience.md). */
type UpstreamSetting =
  | "UPSTREAM_TIMEOUT_MS"
  | "UPLOAD_LIMIT_BYTES"
  | "REQUEST_DEADLINE_MS"
  | "UPSTREAM_RETRIES"
  | "UPSTREAM_RETRY_BUDGET_RATIO"
  | "UPSTREAM_RETRY_BUDGET_MIN_PER_SEC"
  | "UPSTREAM_BREAKER_FAILURE_RATE"
  | "UPSTREAM_BREAKER_MIN_CALLS"
  | "UPSTREAM_BREAKER_WINDOW_MS"
  | "UPSTREAM_BREAKER_OPEN_MS"
  | "UPSTREAM_BREAKER_OPEN_MAX_MS"
  | "UPSTREAM_BREAKER_PROBES"
  | "UPSTREAM_BREAKER_HOLD_MS"
  | "UPSTREAM_BREAKER_CONSECUTIVE_FAILURES";
type UpstreamConfig = Record<UpstreamSetting, number>;

/** Client options from configuration. */
export function upstreamOptionsFromConfig(config: UpstreamConfig): UpstreamClientOptions {
  return {
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    uploadLimitBytes: config.UPLOAD_LIMIT_BYTES,
    requestDeadlineMs: config.REQUEST_DEADLINE_MS,
    maxRetries: config.UPSTREAM_RETRIES,
    retryBudget: { ratio: config.UPSTREAM_RETRY_BUDGET_RATIO, minPerSecond: config.UPSTREAM_RETRY_BUDGET_MIN_PER_SEC },
    breaker: {
      failureRate: config.UPSTREAM_BREAKER_FAILURE_RATE,
      minCalls: config.UPSTREAM_BREAKER_MIN_CALLS,
      windowMs: config.UPSTREAM_BREAKER_WINDOW_MS,
      openMs: config.UPSTREAM_BREAKER_OPEN_MS,
      openMaxMs: config.UPSTREAM_BREAKER_OPEN_MAX_MS,
      probes: config.UPSTREAM_BREAKER_PROBES,
      holdMs: config.UPSTREAM_BREAKER_HOLD_MS,
      consecutiveFailures: config.UPSTREAM_BREAKER_CONSECUTIVE_FAILURES,
    },
  };
}
