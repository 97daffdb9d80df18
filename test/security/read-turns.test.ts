// How one request's text reads take turns in its read budget (src/core/read-budget.ts), with
// reads that stand in for the store: how many run at once, when they must wait, and which are
// refused without reading.
import { describe, expect, it } from "vitest";
import type { RequestContext } from "../../src/core/context.ts";
import { chargeRead, readInTurn, READS_AT_ONCE } from "../../src/core/read-budget.ts";

const context = (readBudgetChars: number): RequestContext =>
  ({ requestId: "r", memo: new Map(), readBudgetChars }) as unknown as RequestContext;

/** A read of `size` characters asked with `maxChars`: records how many reads were in flight when it started. */
function reads(ctx: RequestContext, log: { inFlight: number; peak: number; started: number }) {
  return (maxChars: number, size: number) =>
    readInTurn(ctx, maxChars, async () => {
      log.started++;
      log.inFlight++;
      log.peak = Math.max(log.peak, log.inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.inFlight--;
      chargeRead(ctx, size, maxChars);
      return size;
    });
}

describe("readInTurn", () => {
  it("runs the first read alone, then up to READS_AT_ONCE side by side while what they ask fits", async () => {
    const ctx = context(1_000_000);
    const log = { inFlight: 0, peak: 0, started: 0 };
    const read = reads(ctx, log);
    const results = await Promise.all(Array.from({ length: 20 }, () => read(1_000, 1_000)));
    expect(results).toEqual(Array(20).fill(1_000));
    expect(log.peak).toBe(READS_AT_ONCE);
  });

  it("runs reads one at a time once a read returned more than it asked for", async () => {
    const ctx = context(100_000_000);
    const log = { inFlight: 0, peak: 0, started: 0 };
    const read = reads(ctx, log);
    await Promise.all(Array.from({ length: 10 }, () => read(1, 390_000)));
    expect(log.peak).toBe(1);
  });

  it("reads past the budget fail with PAYLOAD_TOO_LARGE, and those after it are refused before they read", async () => {
    const ctx = context(1_000_000);
    const log = { inFlight: 0, peak: 0, started: 0 };
    const read = reads(ctx, log);
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => read(400_000, 390_000)));
    const served = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as { code: string; details: unknown }] : []));
    expect(served).toHaveLength(2);
    expect(refused.map((e) => e.code)).toEqual(Array(4).fill("PAYLOAD_TOO_LARGE"));
    expect(refused[0]?.details).toEqual({ limit: 1_000_000 });
    // Two served, one that read and crossed the budget; the other three never read.
    expect(log.started).toBe(3);
  });

  it("what the reads in flight asked for is reserved: a read that does not fit beside them waits", async () => {
    const ctx = context(1_000_000);
    const log = { inFlight: 0, peak: 0, started: 0 };
    const read = reads(ctx, log);
    await read(10, 10); // the first read, alone
    await Promise.all([read(600_000, 10), read(600_000, 10), read(600_000, 10)]);
    expect(log.peak).toBe(1);
  });
});
