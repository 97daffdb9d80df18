// admit() (adapters/upstream/hold.ts): a call near an open circuit's probe waits for it. Real
// timers, short intervals; the waits asserted are ordering and generous upper bounds.
import { describe, expect, it } from "vitest";
import { CircuitBreaker } from "../../adapters/upstream/breaker.ts";
import { admit } from "../../adapters/upstream/hold.ts";

/** A breaker opened just now for `openMs`. */
function opened(openMs: number, probes = 2): CircuitBreaker {
  const breaker = new CircuitBreaker({
    minCalls: 1,
    failureRate: 0.5,
    openMs,
    openMaxMs: openMs,
    probes,
    consecutiveFailures: 0,
    jitter: 0,
  });
  breaker.failure(breaker.tryAcquire()!);
  expect(breaker.current).toBe("open");
  return breaker;
}

const elapsed = (start: number) => performance.now() - start;

describe("admit", () => {
  it("refuses at once early in the open interval, and when holding is off", async () => {
    const breaker = opened(5_000);
    const start = performance.now();
    expect(await admit(breaker, 250)).toBeNull();
    expect(await admit(opened(100), 0)).toBeNull();
    expect(elapsed(start)).toBeLessThan(1_000); // a wait would last 5 s; with holding off, it would have become the probe
  });

  it("passes a closed circuit straight through", async () => {
    const breaker = new CircuitBreaker();
    expect(await admit(breaker, 250)).toBe("call");
  });

  it("near the interval's end, waits and becomes the probe; the others wait for its verdict and go once it closes", async () => {
    const breaker = opened(80, 2);
    const start = performance.now();
    const first = await admit(breaker, 250);
    expect(first).toBe("probe");
    expect(elapsed(start)).toBeGreaterThanOrEqual(70);
    const waiting = [admit(breaker, 250), admit(breaker, 250), admit(breaker, 250)];
    breaker.success(first!); // the first probe succeeded: one more may go
    const second = await waiting[0];
    expect(second).toBe("probe");
    breaker.success(second!); // 2 of 2: closed, and the rest go as ordinary calls
    expect(await Promise.all(waiting.slice(1))).toEqual(["call", "call"]);
    expect(breaker.current).toBe("closed");
  });

  it("refuses the waiting calls promptly when the probe fails", async () => {
    // A long hold, so "promptly" (well under it) is clear even on a loaded machine.
    const breaker = opened(60, 2);
    // Whichever call's timer fires first at the interval's end is the probe (their waits are
    // rounded separately, so not always the first caller's); the others wait for its verdict.
    const calls = [admit(breaker, 3_000), admit(breaker, 3_000), admit(breaker, 3_000)];
    const ticket = await Promise.race(calls);
    expect(ticket).toBe("probe");
    const failedAt = performance.now();
    breaker.failure(ticket!);
    expect((await Promise.all(calls)).sort()).toEqual([null, null, "probe"].sort());
    expect(elapsed(failedAt)).toBeLessThan(1_000);
  });

  it("gives up after holdMs when the probe's verdict does not come", async () => {
    const breaker = opened(40, 2);
    const probe = await admit(breaker, 100); // holds the only slot, never settles
    expect(probe).toBe("probe");
    const start = performance.now();
    expect(await admit(breaker, 100)).toBeNull();
    expect(elapsed(start)).toBeGreaterThanOrEqual(90);
    expect(elapsed(start)).toBeLessThan(1_000);
  });

  it("stops waiting when the caller goes away", async () => {
    const breaker = opened(200);
    const controller = new AbortController();
    const waiting = admit(breaker, 250, controller.signal);
    controller.abort(new Error("gone"));
    await expect(waiting).rejects.toThrow("gone");
  });
});
