// Backoff, Retry-After and when a failure is retried (adapters/upstream/retry.ts), and the
// retry budget (adapters/upstream/retry-budget.ts), on their own.
import { describe, expect, it } from "vitest";
import { backoff, retryDelay, sleep, type RetrySettings } from "../../adapters/upstream/retry.ts";
import { RetryBudget } from "../../adapters/upstream/retry-budget.ts";

const settings: RetrySettings = { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 2_000, random: () => 1 };
const transient = { retryable: true, retryAfter: undefined };

describe("retry", () => {
  it("backs off exponentially with equal jitter", () => {
    expect([0, 1, 2].map((n) => backoff(n, 100, () => 0))).toEqual([50, 100, 200]);
    expect([0, 1, 2].map((n) => backoff(n, 100, () => 1))).toEqual([100, 200, 400]);
  });

  it("retries idempotent calls with transient failures, up to maxRetries", () => {
    expect(retryDelay(settings, true, transient, 0)).toBe(100);
    expect(retryDelay(settings, true, transient, 1)).toBe(200);
    expect(retryDelay(settings, true, transient, 2)).toBeUndefined();
    expect(retryDelay(settings, false, transient, 0)).toBeUndefined(); // POST
    expect(retryDelay(settings, true, { retryable: false }, 0)).toBeUndefined(); // 4xx, bad shape
  });

  it("honours Retry-After up to the cap, and answers at once beyond it", () => {
    expect(retryDelay(settings, true, { retryable: true, retryAfter: 1 }, 0)).toBe(1_000);
    expect(retryDelay(settings, true, { retryable: true, retryAfter: 0 }, 0)).toBe(100);
    expect(retryDelay(settings, true, { retryable: true, retryAfter: 3 }, 0)).toBeUndefined();
  });

  it("does not retry when the deadline leaves no time for the wait and the attempt", () => {
    expect(retryDelay(settings, true, transient, 0, 1_000)).toBe(100);
    expect(retryDelay(settings, true, transient, 0, 150)).toBeUndefined();
    expect(retryDelay(settings, true, { retryable: true, retryAfter: 1 }, 0, 1_500)).toBeUndefined();
  });

  it("sleep stops when its signal aborts", async () => {
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort(new Error("gone"));
    await expect(pending).rejects.toThrow("gone");
  });
});

describe("retry budget", () => {
  it("allows retries up to ratio × recent requests plus the floor", () => {
    const clock = { now: 0 };
    const budget = new RetryBudget({ ratio: 0.2, minPerSecond: 0.5, windowMs: 10_000 }, () => clock.now);
    // floor: 0.5/s × 10 s = 5 retries with no traffic at all
    let allowed = 0;
    for (let i = 0; i < 20; i++) if (budget.tryRetry()) allowed++;
    expect(allowed).toBe(5);
    for (let i = 0; i < 100; i++) budget.request(); // +20
    for (let i = 0; i < 100; i++) if (budget.tryRetry()) allowed++;
    expect(allowed).toBe(25);
  });

  it("refills as requests and retries leave the window", () => {
    const clock = { now: 0 };
    const budget = new RetryBudget({ ratio: 0.1, minPerSecond: 0, windowMs: 10_000 }, () => clock.now);
    for (let i = 0; i < 50; i++) budget.request();
    let allowed = 0;
    for (let i = 0; i < 50; i++) if (budget.tryRetry()) allowed++;
    expect(allowed).toBe(5);
    clock.now = 10_000; // everything above has left the window
    expect(budget.tryRetry()).toBe(false); // no requests in the window, no floor
    for (let i = 0; i < 10; i++) budget.request();
    expect(budget.tryRetry()).toBe(true);
    expect(budget.tryRetry()).toBe(false);
  });

  it("a ratio of 0 and no floor turns retries off", () => {
    const budget = new RetryBudget({ ratio: 0, minPerSecond: 0 });
    budget.request();
    expect(budget.tryRetry()).toBe(false);
  });
});
