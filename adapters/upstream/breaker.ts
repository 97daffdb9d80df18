// A circuit breaker per upstream origin. Closed: calls pass; after `threshold` consecutive
// failures (connection errors, timeouts, 5xx) it opens and answers at once for `cooldownMs`;
// then one probe call is let through (half-open): success closes it, failure re-opens it.

export type CircuitState = "closed" | "open" | "half-open";

export interface BreakerOptions {
  threshold: number;
  cooldownMs: number;
  now?: () => number;
}

export class CircuitBreaker {
  private state: CircuitState = "closed";
  private failures = 0;
  private openUntil = 0;
  private probing = false;
  private readonly threshold: number;
  private readonly cooldownMs: number;
  private readonly now: () => number;

  constructor(options: BreakerOptions) {
    this.threshold = Math.max(1, options.threshold);
    this.cooldownMs = Math.max(0, options.cooldownMs);
    this.now = options.now ?? Date.now;
  }

  get current(): CircuitState {
    if (this.state === "open" && this.now() >= this.openUntil) return "half-open";
    return this.state;
  }

  /** Seconds until the circuit half-opens (0 when not open), for Retry-After style hints. */
  get retryInSeconds(): number {
    return this.state === "open" ? Math.max(0, Math.ceil((this.openUntil - this.now()) / 1000)) : 0;
  }

  /** May a call go out now? A `true` must be followed by success(), failure() or release(). */
  tryAcquire(): boolean {
    if (this.state === "closed") return true;
    if (this.state === "open") {
      if (this.now() < this.openUntil) return false;
      this.state = "half-open";
      this.probing = false;
    }
    if (this.probing) return false;
    this.probing = true;
    return true;
  }

  success(): void {
    this.state = "closed";
    this.failures = 0;
    this.probing = false;
  }

  failure(): void {
    this.probing = false;
    if (this.state === "half-open") {
      this.open();
      return;
    }
    this.failures += 1;
    if (this.state === "closed" && this.failures >= this.threshold) this.open();
  }

  /** The call ended without telling anything about the upstream (the caller hung up). */
  release(): void {
    if (this.state === "half-open") this.probing = false;
  }

  private open(): void {
    this.state = "open";
    this.openUntil = this.now() + this.cooldownMs;
    this.failures = 0;
  }
}
