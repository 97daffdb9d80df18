// A retry budget per upstream origin (as Finagle's RetryBudget and Envoy's retry_budget): over a
// sliding window, retries may be at most `ratio` of the requests plus a small floor of
// `minPerSecond` × the window's seconds, so that a failing upstream sees at most (1 + ratio)×
// its normal traffic instead of (1 + retries)×, however many callers retry at once.
import type { CallContext, Policy } from "./policy.ts";
import { SlidingWindow } from "./window.ts";

export interface RetryBudgetSettings {
  /** Retries allowed per request in the window (0.2 = one retry for every five requests). */
  ratio: number;
  /** Retries allowed per second whatever the traffic (the floor, for quiet origins). */
  minPerSecond: number;
  windowMs: number;
  /** Default 10. */
  buckets?: number;
}

export const DEFAULT_RETRY_BUDGET: Readonly<RetryBudgetSettings> = { ratio: 0.2, minPerSecond: 5, windowMs: 10_000, buckets: 10 };

export class RetryBudget {
  /** first: requests (first attempts), second: retries. */
  private readonly window: SlidingWindow;
  private readonly ratio: number;
  private readonly floor: number;

  constructor(settings: Partial<RetryBudgetSettings> = {}, now: () => number = Date.now) {
    const s = { ...DEFAULT_RETRY_BUDGET, ...settings };
    this.ratio = Math.max(0, s.ratio ?? DEFAULT_RETRY_BUDGET.ratio);
    const windowMs = Math.max(1, s.windowMs ?? DEFAULT_RETRY_BUDGET.windowMs);
    this.floor = Math.max(0, s.minPerSecond ?? DEFAULT_RETRY_BUDGET.minPerSecond) * (windowMs / 1000);
    this.window = new SlidingWindow(windowMs, s.buckets ?? 10, now);
  }

  /** A request's first attempt: it deposits `ratio` of a retry. */
  request(): void {
    this.window.add(false);
  }

  /** May one more retry go out? A true withdraws it from the budget. */
  tryRetry(): boolean {
    const [requests, retries] = this.window.totals();
    if (retries + 1 > this.ratio * requests + this.floor) return false;
    this.window.addSecond();
    return true;
  }
}

/** Per-origin retry budgets, and what the client counts of their decisions. */
export interface RetryBudgetPolicyOptions {
  budgetFor(origin: string): RetryBudget;
  onDecision?: ((origin: string, allowed: boolean) => void) | undefined;
}

/** The retry budget policy: counts the call against its origin's budget, and lets the retry policy ask it for each retry. */
export function retryBudgetPolicy(options: RetryBudgetPolicyOptions): Policy {
  return {
    execute<T>(ctx: CallContext, next: () => Promise<T>): Promise<T> {
      const origin = ctx.target.base.origin;
      const budget = options.budgetFor(origin);
      budget.request();
      ctx.mayRetry = () => {
        const allowed = budget.tryRetry();
        options.onDecision?.(origin, allowed);
        return allowed;
      };
      return next();
    },
  };
}
