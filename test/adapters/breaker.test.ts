// The failure-rate circuit breaker on its own, on a hand-driven clock.
import { describe, expect, it } from "vitest";
import { CircuitBreaker, type BreakerOptions, type CircuitState } from "../../adapters/upstream/breaker.ts";

function breakerAt(options: BreakerOptions = {}) {
  const clock = { now: 0 };
  const changes: CircuitState[] = [];
  const breaker = new CircuitBreaker({
    failureRate: 0.5,
    minCalls: 10,
    windowMs: 10_000,
    buckets: 10,
    openMs: 1_000,
    openMaxMs: 4_000,
    probes: 2,
    consecutiveFailures: 0,
    jitter: 0, // exact intervals here; the jitter has its own test
    now: () => clock.now,
    onStateChange: (s) => changes.push(s),
    ...options,
  });
  const fail = (n: number) => {
    for (let i = 0; i < n; i++) {
      const t = breaker.tryAcquire();
      if (t) breaker.failure(t);
    }
  };
  const pass = (n: number) => {
    for (let i = 0; i < n; i++) {
      const t = breaker.tryAcquire();
      if (t) breaker.success(t);
    }
  };
  return { breaker, clock, changes, fail, pass };
}

describe("circuit breaker", () => {
  it("does not open before the minimum number of calls, however many failed", () => {
    const { breaker, fail } = breakerAt();
    fail(9);
    expect(breaker.current).toBe("closed");
    fail(1);
    expect(breaker.current).toBe("open");
  });

  it("opens on the rate, not a streak: interleaved failures under the rate never open it", () => {
    const { breaker, fail, pass } = breakerAt();
    for (let i = 0; i < 100; i++) {
      fail(1);
      pass(2); // a third
    }
    expect(breaker.current).toBe("closed");
    expect(breaker.counts).toEqual([300, 100]); // all in the same 10 s window (the clock did not move)
    fail(99);
    expect(breaker.current).toBe("closed");
    fail(1); // 200 of 400 = 50 %
    expect(breaker.current).toBe("open");
  });

  it("forgets what left the sliding window", () => {
    const fresh = breakerAt();
    fresh.fail(6);
    fresh.clock.now = 10_500; // the failures' bucket has left the window
    fresh.pass(5);
    fresh.fail(4); // 4 of 9 in the window: below the minimum, and 44 %
    expect(fresh.breaker.current).toBe("closed");
    expect(fresh.breaker.counts).toEqual([9, 4]);
  });

  it("judges the rate over the latest 2 s too: a sudden outage after a busy healthy spell opens it fast", () => {
    const { breaker, clock, fail, pass } = breakerAt();
    for (let second = 0; second < 9; second++) {
      clock.now = second * 1_000;
      pass(125); // 1,125 successes in the window
    }
    clock.now = 9_000; // the latest 2 s: 125 successes, then only failures
    fail(124);
    expect(breaker.current).toBe("closed"); // 124 of 249 recently, 124 of 1,249 in the window
    fail(1);
    expect(breaker.current).toBe("open"); // the whole window alone would have needed 1,125 failures
  });

  it("a burst of failures among many successes in the latest 2 s does not open it", () => {
    const { breaker, clock, fail, pass } = breakerAt();
    clock.now = 1_000;
    pass(100);
    clock.now = 2_000;
    pass(50);
    fail(40); // every call in flight timing out at once: 40 of 190 recently
    expect(breaker.current).toBe("closed");
  });

  it("20 fast failures in a row open it; timeouts neither extend nor break the run", () => {
    const { breaker, clock, fail, pass } = breakerAt({ consecutiveFailures: 20 });
    for (let second = 0; second < 9; second++) {
      clock.now = second * 1_000;
      pass(500);
    }
    const timeouts = (n: number) => {
      for (let i = 0; i < n; i++) breaker.failure(breaker.tryAcquire()!, true);
    };
    timeouts(60); // every call in flight timing out at once: no run, and 60 of 560 recently
    expect(breaker.current).toBe("closed");
    clock.now = 11_500; // a pause of 2.5 s: the latest 2 s hold only what timed out at its end
    timeouts(40);
    expect(breaker.current).toBe("closed"); // timeouts are the whole window's to judge: 100 of 4,100
    clock.now = 12_000;
    pass(200);
    fail(19);
    pass(1); // a success breaks the run
    fail(10);
    timeouts(5);
    fail(9);
    expect(breaker.current).toBe("closed");
    fail(1); // 20 fast failures since the last success
    expect(breaker.current).toBe("open");
  });

  it("sends one probe alone first: its failure re-opens the circuit, whatever `probes` is", () => {
    const { breaker, clock, fail } = breakerAt({ probes: 3 });
    fail(10);
    clock.now = 1_000;
    const first = breaker.tryAcquire();
    expect(first).toBe("probe");
    expect(breaker.tryAcquire()).toBeNull(); // the others wait for the first
    breaker.failure(first!);
    expect(breaker.current).toBe("open");
    expect(breaker.openIntervalMs).toBe(2_000);
  });

  it("judges the probes by the rate: a minority of failed probes still closes it", () => {
    const { breaker, clock, fail } = breakerAt({ probes: 3 });
    fail(10);
    clock.now = 1_000;
    breaker.success(breaker.tryAcquire()!);
    const [b, c] = [breaker.tryAcquire()!, breaker.tryAcquire()!];
    expect(breaker.tryAcquire()).toBeNull(); // 3 in all
    breaker.failure(b);
    expect(breaker.current).toBe("half-open"); // 1 of 3 < 50 %
    breaker.success(c);
    expect(breaker.current).toBe("closed");

    fail(10);
    clock.now += 10_000;
    breaker.success(breaker.tryAcquire()!);
    const [d, e] = [breaker.tryAcquire()!, breaker.tryAcquire()!];
    breaker.failure(d);
    breaker.failure(e); // 2 of 3 ≥ 50 %
    expect(breaker.current).toBe("open");
  });

  it("closes as soon as enough probes succeeded, without waiting for the slowest", () => {
    const { breaker, clock, fail } = breakerAt({ probes: 5 });
    fail(10);
    clock.now = 1_000;
    breaker.success(breaker.tryAcquire()!);
    const rest = [breaker.tryAcquire()!, breaker.tryAcquire()!, breaker.tryAcquire()!, breaker.tryAcquire()!];
    expect(rest).toEqual(["probe", "probe", "probe", "probe"]);
    breaker.success(rest[0]!);
    expect(breaker.current).toBe("half-open"); // 2 of 5: 3 failures could still re-open it
    breaker.success(rest[1]!);
    expect(breaker.current).toBe("closed"); // 3 of 5: the other two cannot reach 50 %
    breaker.failure(rest[2]!); // late probes of a closed round count for nothing
    breaker.failure(rest[3]!);
    expect(breaker.current).toBe("closed");
    expect(breaker.counts).toEqual([0, 0]);
  });

  it("tells waiting calls about transitions and about the first probe's success", () => {
    const { breaker, clock, fail } = breakerAt({ probes: 3 });
    const seen: string[] = [];
    const listen = (label: string) => breaker.onChange(() => seen.push(`${label}:${breaker.current}`));
    listen("a");
    fail(10);
    expect(seen).toEqual(["a:open"]);
    expect(breaker.openings).toBe(1);
    expect(breaker.msUntilHalfOpen).toBe(1_000);
    clock.now = 1_000;
    expect(breaker.msUntilHalfOpen).toBe(0);
    listen("b");
    const first = breaker.tryAcquire()!;
    expect(seen).toEqual(["a:open", "b:half-open"]);
    listen("c");
    breaker.success(first); // more probes may go now
    expect(seen).toEqual(["a:open", "b:half-open", "c:half-open"]);
    const removed = () => seen.push("never");
    breaker.onChange(removed);
    breaker.offChange(removed);
    listen("d");
    breaker.success(breaker.tryAcquire()!);
    expect(seen).toEqual(["a:open", "b:half-open", "c:half-open", "d:closed"]);
  });

  it("refuses while open, then lets `probes` through (the first alone); they close it", () => {
    const { breaker, clock, fail, changes } = breakerAt();
    fail(10);
    expect(breaker.tryAcquire()).toBeNull();
    expect(breaker.retryInSeconds).toBe(1);
    clock.now = 1_000;
    expect(breaker.current).toBe("half-open");
    const a = breaker.tryAcquire();
    expect(a).toBe("probe");
    expect(breaker.tryAcquire()).toBeNull();
    breaker.success(a!);
    expect(breaker.current).toBe("half-open");
    const b = breaker.tryAcquire();
    expect(b).toBe("probe");
    expect(breaker.tryAcquire()).toBeNull();
    breaker.success(b!);
    expect(breaker.current).toBe("closed");
    expect(breaker.counts).toEqual([0, 0]); // a fresh window
    expect(changes).toEqual(["open", "half-open", "closed"]);
  });

  it("a released probe (the caller hung up) frees its slot without a verdict", () => {
    const { breaker, clock, fail } = breakerAt({ probes: 1 });
    fail(10);
    clock.now = 1_000;
    const probe = breaker.tryAcquire()!;
    expect(breaker.tryAcquire()).toBeNull();
    breaker.release(probe);
    expect(breaker.current).toBe("half-open");
    expect(breaker.tryAcquire()).toBe("probe");
  });

  it("grows the open interval while the upstream stays down, capped, and resets it once healthy", () => {
    const { breaker, clock, fail, pass } = breakerAt();
    fail(10);
    const intervals: number[] = [];
    for (let i = 0; i < 5; i++) {
      const opened = clock.now;
      while (breaker.current === "open") clock.now += 50;
      intervals.push(clock.now - opened);
      fail(1); // the probe fails: open again
    }
    expect(intervals).toEqual([1_000, 2_000, 4_000, 4_000, 4_000]);

    // Healthy: the probes close it; it stays closed for a window; the next outage starts short.
    while (breaker.current === "open") clock.now += 50;
    pass(2);
    expect(breaker.current).toBe("closed");
    clock.now += 10_000;
    fail(10);
    expect(breaker.openIntervalMs).toBe(1_000);

    // Re-opening soon after closing is the same outage: the interval keeps growing.
    while ((breaker.current as string) === "open") clock.now += 50;
    pass(2);
    fail(10);
    expect(breaker.openIntervalMs).toBe(2_000);
  });

  it("shortens each open interval by a random share of up to `jitter`, and holds no call by default", () => {
    let draw = 0;
    const draws = [0, 1, 0.5];
    const { breaker, clock, fail } = breakerAt({ jitter: 0.2, random: () => draws[draw++ % draws.length] as number });
    expect(breaker.settings.holdMs).toBe(0);
    const intervals: number[] = [];
    fail(10);
    for (let i = 0; i < 3; i++) {
      const opened = clock.now;
      while (breaker.current === "open") clock.now += 10;
      intervals.push(clock.now - opened);
      fail(1); // the probe fails: open again, for the same nominal interval once capped
    }
    // Nominal 1 s, then 2 s, then the 4 s cap; shortened by 0%, 20% and 10%.
    expect(intervals).toEqual([1_000, 1_600, 3_600]);
    expect(new CircuitBreaker().settings).toMatchObject({ holdMs: 0, jitter: 0.2 });
  });

  it("ignores late results of calls admitted before it opened", () => {
    const { breaker, clock, fail } = breakerAt();
    const early = breaker.tryAcquire()!;
    fail(10);
    breaker.success(early);
    expect(breaker.current).toBe("open");
    clock.now = 1_000;
    breaker.failure(early);
    expect(breaker.current).toBe("half-open");
  });
});
