// When a failed upstream attempt may be tried again, and after how long: idempotent calls only,
// transient failures only, exponential backoff with jitter, the upstream's Retry-After honoured
// up to a cap, never past the request's deadline. Whether the origin's retry budget allows it
// is retry-budget.ts's part (asked through the context's mayRetry).
import { AttemptFailed, transportFailure, type Failure } from "./errors.ts";
import type { CallContext, Policy } from "./policy.ts";
import { remainingMs } from "./timeout.ts";
import type { CancelSignal } from "./cancellation.ts";

export interface RetrySettings {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff step; doubles per retry, jittered ("equal jitter": half fixed, half random). */
  baseDelayMs: number;
  /** The longest wait before a retry, Retry-After included; asked to wait longer, we answer at once. */
  maxDelayMs: number;
  random: () => number;
}

/** Backoff before retry number `attempt` (0-based), before Retry-After. */
export function backoff(attempt: number, baseDelayMs: number, random: () => number): number {
  const step = baseDelayMs * 2 ** attempt;
  return step / 2 + random() * (step / 2);
}

/**
 * The wait before retrying after `failure` on attempt `attempt` (0-based), or undefined when it
 * is not to be retried: not idempotent, not transient, out of retries, a Retry-After beyond the
 * cap, or no time left before the deadline (`remainingMs`).
 */
export function retryDelay(
  settings: RetrySettings,
  idempotent: boolean,
  failure: Pick<Failure, "retryable" | "retryAfter">,
  attempt: number,
  remainingMs = Number.POSITIVE_INFINITY,
): number | undefined {
  if (!idempotent || !failure.retryable || attempt >= settings.maxRetries) return undefined;
  const delay = Math.max(backoff(attempt, settings.baseDelayMs, settings.random), (failure.retryAfter ?? 0) * 1000);
  if (delay > settings.maxDelayMs) return undefined;
  // A retry needs time to run as well as to wait: leave it at least as long again.
  if (delay * 2 >= remainingMs) return undefined;
  return delay;
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: CancelSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * The retry policy: runs the rest of the chain once per attempt. An attempt's classified failure
 * (AttemptFailed) is retried when retryDelay() allows and the budget agrees; anything else ends
 * the call. A retry never goes through an open circuit: refused, the call ends with the failure
 * it would have retried. `timeoutMs` names the timeout in a cancellation's classification.
 */
export function retryPolicy(settings: RetrySettings, timeoutMs: number): Policy {
  const cancelled = (ctx: CallContext, reason: unknown) => transportFailure(reason, ctx.signal, timeoutMs).error;
  return {
    async execute<T>(ctx: CallContext, next: () => Promise<T>): Promise<T> {
      let last: Failure | undefined;
      for (let n = 0; ; n++) {
        if (ctx.signal?.aborted) throw cancelled(ctx, ctx.signal.reason);
        ctx.attempt = n;
        let failure: Failure;
        try {
          return await next();
        } catch (error) {
          if (!(error instanceof AttemptFailed)) throw error;
          failure = error.failure;
        }
        if (failure.outcome === "circuit_open") throw (last ?? failure).error;
        last = failure;
        const delay = retryDelay(settings, ctx.idempotent, failure, n, ctx.deadline ? remainingMs(ctx.deadline) : undefined);
        if (delay === undefined || !(ctx.mayRetry?.() ?? true)) throw failure.error;
        try {
          await sleep(delay, ctx.signal);
        } catch (reason) {
          throw cancelled(ctx, reason);
        }
      }
    },
  };
}
