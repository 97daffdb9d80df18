// One deadline per incoming request, shared by every upstream call it makes, and the timeout of
// each attempt: min(UPSTREAM_TIMEOUT_MS, time left before the deadline).
//
// The deadline is keyed by the caller's AbortSignal, which is one per incoming request on every
// surface (RequestContext.signal): the first upstream call of a request creates it, once, and a
// GraphQL query or tRPC batch that fans out to several upstream calls shares it. Requests that
// never call an upstream pay nothing. It is one AbortController, one listener on the caller's
// signal and a timer that runs only while a call is in flight, rather than AbortSignal.timeout
// + AbortSignal.any: that timer would outlive the request, and Node 20's AbortSignal.any keeps
// its sources' dependants longer than needed. The calls in flight listen on it through the
// cancel policy's one listener (cancel.ts), not one each.
//
// Two policies come from here: the deadline policy (the request's deadline over a call and its
// retries) and the attempt timeout policy (each attempt's share of it).
import { Cancellation, type CancelSignal } from "./cancellation.ts";
import type { CallContext, Policy } from "./policy.ts";

/** The reason a deadline signal aborts with. */
export class DeadlineExceeded extends Error {
  override name = "DeadlineExceeded";
  constructor(readonly deadlineMs: number) {
    super(`The request's deadline of ${deadlineMs} ms passed`);
  }
}

/**
 * A request's deadline. Its timer runs only while one of the request's upstream calls is in
 * flight (enter/leave): a request's time between calls is checked when the next call enters,
 * and a request that has finished leaves no timer behind (at hundreds of requests a second, a
 * timer per request kept for the whole REQUEST_DEADLINE_MS would be thousands of live timers,
 * each keeping its controller out of the young generation).
 */
export class Deadline {
  /** performance.now() at which the request's time is up. */
  readonly at: number;
  /** Aborts when the caller hangs up (its reason) or at `at` while a call is in flight (a DeadlineExceeded). */
  readonly signal: CancelSignal;
  /** `signal` and its controller (one object). */
  private readonly cancellation = new Cancellation();
  private timer: NodeJS.Timeout | undefined;
  private active = 0;

  /** The request's upstream calls in flight under this deadline (entered, not yet left). */
  get inFlight(): number {
    return this.active;
  }

  constructor(
    readonly ms: number,
    caller?: AbortSignal,
    now = performance.now(),
    private readonly reason: DeadlineExceeded = new DeadlineExceeded(ms),
  ) {
    this.at = now + ms;
    this.signal = this.cancellation;
    if (caller?.aborted) this.cancellation.abort(caller.reason);
    else caller?.addEventListener("abort", () => this.abort(caller.reason), { once: true });
  }

  /** An upstream call starts: the timer runs for the time left (or the deadline has passed: abort now). */
  enter(): void {
    this.active += 1;
    if (this.timer !== undefined || this.signal.aborted) return;
    const left = this.at - performance.now();
    if (left <= 0) {
      this.abort(this.reason);
      return;
    }
    this.timer = setTimeout(() => this.abort(this.reason), left);
    this.timer.unref?.();
  }

  /** An upstream call ended: with none left in flight, the timer stops. */
  leave(): void {
    this.active = Math.max(0, this.active - 1);
    if (this.active === 0 && this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  private abort(reason: unknown): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.signal.aborted) this.cancellation.abort(reason);
  }
}

export const isDeadlineExceeded = (reason: unknown): reason is DeadlineExceeded => reason instanceof DeadlineExceeded;

/** `reason`: what the signal aborts with; Deadlines shares one per client (no Error built per request). */
export function createDeadline(ms: number, caller?: AbortSignal, now = performance.now(), reason?: DeadlineExceeded): Deadline {
  return new Deadline(ms, caller, now, reason);
}

/** Deadlines by the caller's signal; calls without a signal get one each. */
export class Deadlines {
  private readonly bySignal = new WeakMap<AbortSignal, Deadline>();
  private readonly reason: DeadlineExceeded;

  constructor(readonly ms: number) {
    this.reason = new DeadlineExceeded(ms);
  }

  for(caller: AbortSignal | undefined): Deadline {
    if (!caller) return createDeadline(this.ms, undefined, performance.now(), this.reason);
    let deadline = this.bySignal.get(caller);
    if (!deadline) {
      deadline = createDeadline(this.ms, caller, performance.now(), this.reason);
      this.bySignal.set(caller, deadline);
    }
    return deadline;
  }
}

/** Milliseconds left before the deadline (≤ 0 when passed). */
export const remainingMs = (deadline: Deadline, now = performance.now()): number => deadline.at - now;

/** The timeout of one attempt: the per-attempt timeout, or less when the deadline is nearer. */
export function attemptTimeoutMs(timeoutMs: number, deadline: Deadline | undefined, now = performance.now()): number {
  if (!deadline) return timeoutMs;
  return Math.max(1, Math.min(timeoutMs, Math.floor(remainingMs(deadline, now))));
}

/** The deadline policy: the call runs under its request's deadline (none for uploads, or with REQUEST_DEADLINE_MS=0). */
export function deadlinePolicy(deadlines: Deadlines | undefined): Policy {
  return {
    async execute<T>(ctx: CallContext, next: () => Promise<T>): Promise<T> {
      if (!deadlines || ctx.scope === "none") return next();
      const deadline = deadlines.for(ctx.caller);
      ctx.deadline = deadline;
      deadline.enter();
      try {
        return await next();
      } finally {
        deadline.leave();
      }
    },
  };
}

/** The attempt timeout policy: each attempt gets min(`timeoutMs`, time left), which the transport gives undici. */
export function attemptTimeoutPolicy(timeoutMs: number): Policy {
  return {
    execute<T>(ctx: CallContext, next: () => Promise<T>): Promise<T> {
      ctx.timeoutMs = attemptTimeoutMs(timeoutMs, ctx.deadline);
      // The same instant as the deadline's own timer: whichever fires first, it is the deadline.
      ctx.deadlineBoundMs = ctx.deadline && ctx.timeoutMs < timeoutMs ? ctx.deadline.ms : undefined;
      return next();
    },
  };
}
