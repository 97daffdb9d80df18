// What the upstream client's policies share: the call they wrap, and how they are chained. Each
// policy has one job (deadline, cancel, retry budget, retry, metrics, circuit breaker, attempt
// timeout, classification) and wraps the rest of the chain, as Hive Gateway keeps its
// useUpstreamRetry, useUpstreamTimeout and useUpstreamCancel apart; client.ts composes them in
// one place. The chain's last step is the transport: one HTTP attempt (transport.ts).
import type { UpstreamBase } from "./base.ts";
import type { QueryValue } from "./base.ts";
import type { Deadline } from "./timeout.ts";
import type { CancelSignal } from "./cancellation.ts";

/** Metrics label: which product an upstream call served. */
export type Product = "mail" | "drive" | "search" | "meetings" | "enterprise";

/** Where a call goes: adapters describe it, the transport sends it. */
export interface Target {
  product: Product;
  base: UpstreamBase;
  /** Starts with "/"; ids already encoded (see `path` in base.ts). */
  path: string;
  query?: Record<string, QueryValue> | undefined;
}

/** How much of the call the request's deadline covers: JSON calls whole, downloads until their headers, uploads not at all. */
export type DeadlineScope = "whole" | "headers" | "none";

/**
 * One upstream call as it goes down the chain: what the caller asked (fixed), and what the
 * policies add on the way (each sets its own field, read by those inside it).
 */
export interface CallContext {
  readonly target: Target;
  /** May be retried (GET). */
  readonly idempotent: boolean;
  readonly scope: DeadlineScope;
  /** The caller's signal, one per incoming request (RequestContext.signal). */
  readonly caller: AbortSignal | undefined;
  /** The request's deadline (deadline policy), unless the scope is "none" or deadlines are off. */
  deadline?: Deadline | undefined;
  /** Aborts when the call must stop: the caller hung up or the deadline passed (cancel policy). */
  signal?: CancelSignal | undefined;
  /** The signal the transport hands undici (cancel policy): `signal`, or the caller's for a download's streaming body. */
  sendSignal?: CancelSignal | undefined;
  /** May one more retry go out? Asked once per retry (retry budget policy); absent: yes. */
  mayRetry?: (() => boolean) | undefined;
  /** 0 for the first attempt, then 1, 2, … (retry policy). */
  attempt: number;
  /** This attempt's timeout: min(UPSTREAM_TIMEOUT_MS, time left before the deadline) (attempt timeout policy). */
  timeoutMs: number;
  /**
   * Set when the deadline was nearer than UPSTREAM_TIMEOUT_MS, to the deadline's length: this
   * attempt's timeout is then the request's deadline passing, not the upstream being slow.
   */
  deadlineBoundMs?: number | undefined;
}

/** One policy: does its part around `next`, the rest of the chain (which it may call again, or not at all). */
export interface Policy {
  execute<T>(ctx: CallContext, next: () => Promise<T>): Promise<T>;
}

/** Runs a call through `policies`, outermost first, and `last` (one attempt) at the end. */
export type Chain = <T>(ctx: CallContext, last: (ctx: CallContext) => Promise<T>) => Promise<T>;

export function compose(policies: readonly Policy[]): Chain {
  return <T>(ctx: CallContext, last: (ctx: CallContext) => Promise<T>): Promise<T> => {
    const step = (i: number): Promise<T> => {
      const policy = policies[i];
      return policy ? policy.execute(ctx, () => step(i + 1)) : last(ctx);
    };
    return step(0);
  };
}
