// A circuit breaker per upstream origin that measures a failure *rate*, not a streak (in the
// manner of resilience4j's sliding window and Envoy's outlier detection; see docs/resilience.md).
//
// closed    every call passes; outcomes go into a sliding time window. Once the window holds at
//           least `minCalls` calls and at least `failureRate` of them failed, the circuit opens.
//           Two fast paths for a sudden outage, because after a busy healthy spell the whole
//           window holds so many successes that a dead upstream would take seconds to reach the
//           rate: the same rate over the window's latest `recentBuckets` (2 s of 10 s), and
//           `consecutiveFailures` (20) in a row (Envoy's consecutive_5xx beside its success-rate
//           ejection). Both count only fast answers — successes, resets, refusals, 5xx, bad
//           bodies — and leave timeouts to the whole window: a pause of the gateway's own event
//           loop (a loaded machine) times out every call in flight at once, and a pause of 2 s
//           leaves nothing else in the latest 2 s; that says nothing about the upstream (the
//           fault suite saw such pauses open a healthy-enough circuit). At a 20% rate of fast
//           failures, 20 in a row happen by chance once in ~10^14 calls.
// open      calls are refused at once for the open interval: `openMs` the first time, doubled
//           each time it re-opens while the upstream stays down, at most `openMaxMs` (kept short:
//           it bounds how long a recovered upstream goes unused), and each time shortened by a
//           random share of up to `jitter` (20%), so that gateway processes opened by the same
//           outage do not probe in step. The interval goes back to `openMs` once the circuit has
//           stayed closed for a window. Nothing waits for the interval's end: a refusal is an
//           answer in microseconds (hold.ts can make a call arriving near it wait for the probe;
//           off by default — it made refusals slow during an outage, issue 23).
// half-open the interval over, the next call is the breaker's probe: one goes first, alone, so a
//           dead upstream sees one call per interval (3–4 a second at the 0.3 s cap, less the
//           jitter); if it fails the circuit re-opens. Once it has succeeded, up to `probes` calls in all are let
//           through at once and judged by the same rate (resilience4j's permitted calls in
//           half-open): the circuit re-opens once `failureRate` of `probes` have failed, and
//           closes, with an empty window, as soon as enough have succeeded that the rest could
//           not reach it (2 of 3 at 50%) — no need to wait for the slowest. (Requiring every
//           probe to succeed would keep an upstream that fails 27% of calls open most of the
//           time: 3 probes all succeed only 39% of the time.)
//
// What counts as a failure is the caller's decision (client.ts: 5xx, resets, timeouts,
// malformed bodies; never 4xx); release() reports a call that says nothing about the upstream
// (the caller hung up).
import { SlidingWindow } from "./window.ts";

export type CircuitState = "closed" | "open" | "half-open";

/** 0 closed, 1 half-open, 2 open: the value of the circuit-state gauge. */
export const circuitStateValue: Record<CircuitState, number> = { closed: 0, "half-open": 1, open: 2 };

export interface BreakerSettings {
  /** Share of failed calls in the window that opens the circuit, 0 < rate ≤ 1. */
  failureRate: number;
  /** Calls the window must hold before the rate may open the circuit. */
  minCalls: number;
  /** Length of the sliding window. */
  windowMs: number;
  /** Buckets the window is kept in (its time resolution). Default 10. */
  buckets?: number;
  /** First open interval. */
  openMs: number;
  /** Longest open interval. */
  openMaxMs: number;
  /** Calls let through in half-open (the first alone), judged together by `failureRate`. */
  probes: number;
  /** A call meeting an open circuit that half-opens within this long waits for the probe (hold.ts); 0 (the default): never. */
  holdMs: number;
  /** The largest share by which an open interval is shortened at random (0: never), 0 ≤ jitter < 1. Default 0.2. */
  jitter?: number;
  /** The latest buckets the rate is also judged over (a sudden outage's fast path). Default 2. */
  recentBuckets?: number;
  /** Fast (non-timeout) failures in a row that open the circuit; 0: never. Default 20. */
  consecutiveFailures?: number;
}

export const DEFAULT_BREAKER: Readonly<BreakerSettings> = {
  failureRate: 0.5,
  minCalls: 20,
  windowMs: 10_000,
  buckets: 10,
  openMs: 100,
  openMaxMs: 300,
  probes: 3,
  holdMs: 0,
  jitter: 0.2,
  recentBuckets: 2,
  consecutiveFailures: 20,
};

export interface BreakerOptions extends Partial<BreakerSettings> {
  now?: () => number;
  /** The open interval's jitter source. */
  random?: () => number;
  /** Called on every transition (for the circuit-state gauge). */
  onStateChange?: (state: CircuitState) => void;
}

/** What tryAcquire() granted: an ordinary call (closed) or a probe (half-open). */
export type Ticket = "call" | "probe";

export class CircuitBreaker {
  private state: CircuitState = "closed";
  private readonly window: SlidingWindow;
  /** Fast answers only (no timeouts): what the latest-2-s fast path judges. */
  private readonly fast: SlidingWindow;
  private openUntil = 0;
  /** Re-opens in a row without a healthy spell: the exponent of the open interval. */
  private level = 0;
  private closedAt = Number.NEGATIVE_INFINITY;
  /** Fast failures since the last success (closed state). */
  private run = 0;
  private probesInFlight = 0;
  private probeSuccesses = 0;
  private probeFailures = 0;
  /** Times opened so far: a waiter that sees it change knows its round's probes failed. */
  private opened = 0;
  /** One-shot listeners for the next change a waiting call cares about (hold.ts); a Set, as many may give up at once. */
  private waiters = new Set<() => void>();
  readonly settings: Readonly<BreakerSettings>;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly onStateChange: ((state: CircuitState) => void) | undefined;

  constructor(options: BreakerOptions = {}) {
    const s = { ...DEFAULT_BREAKER, ...definedOnly(options) };
    this.settings = {
      failureRate: Math.min(1, Math.max(Number.EPSILON, s.failureRate)),
      minCalls: Math.max(1, Math.floor(s.minCalls)),
      windowMs: Math.max(1, s.windowMs),
      buckets: Math.max(1, Math.floor(s.buckets ?? 10)),
      openMs: Math.max(0, s.openMs),
      openMaxMs: Math.max(s.openMs, s.openMaxMs),
      probes: Math.max(1, Math.floor(s.probes)),
      holdMs: Math.max(0, s.holdMs),
      jitter: Math.min(0.9, Math.max(0, s.jitter ?? 0.2)),
      recentBuckets: Math.max(1, Math.floor(s.recentBuckets ?? 2)),
      consecutiveFailures: Math.max(0, Math.floor(s.consecutiveFailures ?? 20)),
    };
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.onStateChange = options.onStateChange;
    this.window = new SlidingWindow(this.settings.windowMs, this.settings.buckets ?? 10, this.now);
    this.fast = new SlidingWindow(this.settings.windowMs, this.settings.buckets ?? 10, this.now);
  }

  /** The state as a caller would meet it now (an open circuit whose interval is over is half-open). */
  get current(): CircuitState {
    if (this.state === "open" && this.now() >= this.openUntil) return "half-open";
    return this.state;
  }

  /** Seconds until the circuit half-opens (0 when not open), for Retry-After style hints. */
  get retryInSeconds(): number {
    return this.state === "open" ? Math.max(0, Math.ceil((this.openUntil - this.now()) / 1000)) : 0;
  }

  /** Milliseconds until the circuit half-opens (0 when it is not open, or its interval is over). */
  get msUntilHalfOpen(): number {
    return this.state === "open" ? Math.max(0, this.openUntil - this.now()) : 0;
  }

  /** How many times the circuit has opened (a change means a round of probes failed). */
  get openings(): number {
    return this.opened;
  }

  /** The interval the circuit stays open for the next (or current) time it opens, before its jitter. */
  get openIntervalMs(): number {
    return Math.min(this.settings.openMaxMs, this.settings.openMs * 2 ** this.level);
  }

  /** [calls, failures] in the window (closed state). */
  get counts(): [number, number] {
    return this.window.totals();
  }

  /** Calls `listener` once, at the next transition or when half-open lets more probes through. */
  onChange(listener: () => void): void {
    this.waiters.add(listener);
  }

  /** Stops waiting for onChange (a waiter that gave up). */
  offChange(listener: () => void): void {
    this.waiters.delete(listener);
  }

  /** May a call go out now? A ticket must be followed by success(), failure() or release() with it. */
  tryAcquire(): Ticket | null {
    if (this.state === "closed") return "call";
    if (this.state === "open") {
      if (this.now() < this.openUntil) return null;
      this.probesInFlight = 0;
      this.probeSuccesses = 0;
      this.probeFailures = 0;
      this.transition("half-open");
    }
    // The first probe goes alone: a dead upstream sees one call per interval, not `probes`.
    const admitted = this.probesInFlight + this.probeSuccesses + this.probeFailures;
    const limit = this.probeSuccesses === 0 ? 1 : this.settings.probes;
    if (admitted >= limit) return null;
    this.probesInFlight += 1;
    return "probe";
  }

  success(ticket: Ticket): void {
    if (ticket === "call") {
      if (this.state === "closed") {
        this.window.add(false);
        this.fast.add(false);
        this.run = 0;
      }
      return;
    }
    if (this.state !== "half-open") return; // a probe of an earlier round
    this.probesInFlight = Math.max(0, this.probesInFlight - 1);
    this.probeSuccesses += 1;
    this.judgeProbes();
  }

  /** `timeout`: the call failed by running out of time (counted in the window, not in the run). */
  failure(ticket: Ticket, timeout = false): void {
    if (ticket === "call") {
      if (this.state !== "closed") return;
      this.window.add(true);
      if (!timeout) {
        this.fast.add(true);
        this.run += 1;
      }
      const { consecutiveFailures, recentBuckets } = this.settings;
      if (
        (consecutiveFailures! > 0 && this.run >= consecutiveFailures!) ||
        this.tripped(...this.fast.totals(recentBuckets)) ||
        this.tripped(...this.window.totals())
      ) {
        // Re-opening soon after recovering is the same outage: keep growing the interval.
        this.level = this.now() - this.closedAt < this.settings.windowMs ? this.level + 1 : 0;
        this.open();
      }
      return;
    }
    if (this.state !== "half-open") return;
    this.probesInFlight = Math.max(0, this.probesInFlight - 1);
    this.probeFailures += 1;
    this.judgeProbes();
  }

  private tripped(calls: number, failures: number): boolean {
    return calls >= this.settings.minCalls && failures >= this.settings.failureRate * calls;
  }

  /**
   * Half-open: re-open when the lone first probe fails or the failures reach the rate of
   * `probes`; close as soon as the successes make that impossible.
   */
  private judgeProbes(): void {
    const { probes, failureRate } = this.settings;
    const failuresToOpen = Math.max(1, Math.ceil(failureRate * probes));
    if (this.probeFailures >= failuresToOpen || (this.probeSuccesses === 0 && this.probeFailures > 0)) {
      this.level += 1;
      this.open();
    } else if (this.probeSuccesses > probes - failuresToOpen) {
      this.close();
    } else if (this.probeSuccesses === 1 && this.probeFailures === 0) {
      this.notify(); // the first probe succeeded: the others may go
    }
  }

  /** The call ended without telling anything about the upstream (the caller hung up). */
  release(ticket: Ticket): void {
    if (ticket !== "probe" || this.state !== "half-open") return;
    this.probesInFlight = Math.max(0, this.probesInFlight - 1);
    this.notify(); // its slot is free for a waiting call
  }

  private open(): void {
    this.run = 0;
    // Cap the exponent too, so a long outage cannot overflow it.
    this.level = Math.min(this.level, 30);
    this.openUntil = this.now() + this.openIntervalMs * (1 - (this.settings.jitter ?? 0) * this.random());
    this.opened += 1;
    this.transition("open");
  }

  private close(): void {
    this.window.reset();
    this.fast.reset();
    this.run = 0;
    this.closedAt = this.now();
    this.transition("closed");
  }

  private transition(state: CircuitState): void {
    if (this.state === state) return;
    this.state = state;
    this.onStateChange?.(state);
    this.notify();
  }

  private notify(): void {
    if (this.waiters.size === 0) return;
    const waiters = this.waiters;
    this.waiters = new Set();
    for (const waiter of waiters) waiter();
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(value) as Array<keyof T>) if (value[key] !== undefined) out[key] = value[key];
  return out;
}
