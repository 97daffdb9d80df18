// The request deadline and the per-attempt timeout (adapters/upstream/timeout.ts), on their own.
import { describe, expect, it } from "vitest";
import { attemptTimeoutMs, createDeadline, Deadlines, isDeadlineExceeded, remainingMs } from "../../adapters/upstream/timeout.ts";

describe("deadline", () => {
  it("aborts its signal with DeadlineExceeded when the time is up during a call", async () => {
    const deadline = createDeadline(30);
    deadline.enter();
    expect(deadline.signal.aborted).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(deadline.signal.aborted).toBe(true);
    expect(isDeadlineExceeded(deadline.signal.reason)).toBe(true);
    expect(remainingMs(deadline)).toBeLessThan(0);
  });

  it("runs its timer only while a call is in flight, and checks the time when the next one enters", async () => {
    const deadline = createDeadline(40);
    deadline.enter();
    deadline.leave(); // between calls: no timer
    await new Promise((resolve) => setTimeout(resolve, 70));
    expect(deadline.signal.aborted).toBe(false);
    deadline.enter(); // the next call: already past
    expect(deadline.signal.aborted).toBe(true);
    expect(isDeadlineExceeded(deadline.signal.reason)).toBe(true);

    const nested = createDeadline(40);
    nested.enter();
    nested.enter();
    nested.leave(); // one call still in flight: the timer keeps running
    await new Promise((resolve) => setTimeout(resolve, 70));
    expect(nested.signal.aborted).toBe(true);
  });

  it("aborts with the caller's reason when the caller hangs up first", () => {
    const caller = new AbortController();
    const deadline = createDeadline(10_000, caller.signal);
    caller.abort(new Error("hung up"));
    expect(deadline.signal.aborted).toBe(true);
    expect(isDeadlineExceeded(deadline.signal.reason)).toBe(false);
    expect((deadline.signal.reason as Error).message).toBe("hung up");
    const late = createDeadline(10_000, caller.signal); // already aborted
    expect(late.signal.aborted).toBe(true);
  });

  it("is one per incoming request: every call with the request's signal shares it", () => {
    const deadlines = new Deadlines(5_000);
    const request = new AbortController().signal;
    const first = deadlines.for(request);
    expect(deadlines.for(request)).toBe(first);
    expect(deadlines.for(new AbortController().signal)).not.toBe(first);
    expect(deadlines.for(undefined)).not.toBe(deadlines.for(undefined));
  });

  it("an attempt gets min(per-attempt timeout, time left)", () => {
    const deadline = createDeadline(2_500, undefined, 0);
    expect(attemptTimeoutMs(1_000, deadline, 0)).toBe(1_000);
    expect(attemptTimeoutMs(1_000, deadline, 2_000)).toBe(500);
    expect(attemptTimeoutMs(1_000, deadline, 3_000)).toBe(1);
    expect(attemptTimeoutMs(1_000, undefined)).toBe(1_000);
  });
});
