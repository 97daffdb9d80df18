// The request deadline through the client, against a bare node:http server: calls that share a
// request's signal share its deadline, retries stop at it, and an exceeded deadline is
// UPSTREAM_TIMEOUT.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseBase, type UpstreamBase } from "../../adapters/upstream/base.ts";
import { createUpstreamClient, type UpstreamClient } from "../../adapters/upstream/client.ts";
import { transportFailure } from "../../adapters/upstream/errors.ts";
import type { CallContext } from "../../adapters/upstream/policy.ts";
import { attemptTimeoutPolicy, createDeadline } from "../../adapters/upstream/timeout.ts";
import { adapterRejection } from "./helpers.ts";

const seen: string[] = [];
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  seen.push(req.url ?? "");
  const delay = Number(new URL(req.url ?? "/", "http://x").searchParams.get("delay") ?? 0);
  const timer = setTimeout(() => res.end('{"ok":true}'), delay);
  res.on("close", () => clearTimeout(timer));
});
// Generous margins: a loaded CI machine can stall a loopback answer by hundreds of milliseconds.
const DEADLINE = 2_500;
const HALF = 1_500; // one call of this fits in the deadline, two in a row do not
let base: UpstreamBase;
let client: UpstreamClient;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = parseBase(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, "test");
  client = createUpstreamClient({
    timeoutMs: 6_000,
    requestDeadlineMs: DEADLINE,
    retryBaseDelayMs: 10,
    retryBudget: { minPerSecond: 1_000 },
  });
});
afterAll(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const schema = z.object({ ok: z.boolean() });
const get = (signal: AbortSignal, delay: number, c = client) =>
  c.json({ requestId: "r", accessToken: "t", signal }, { product: "mail", base, method: "GET", path: "/x", query: { delay }, schema });

describe("request deadline", () => {
  it("is shared by every upstream call of one request", async () => {
    const request = new AbortController().signal; // one incoming request
    const started = performance.now();
    expect(await get(request, HALF)).toEqual({ ok: true });
    const error = await adapterRejection(get(request, HALF)); // alone it would fit; after the first it does not
    const elapsed = performance.now() - started;
    expect(error.code).toBe("UPSTREAM_TIMEOUT");
    expect(error.message).toMatch(new RegExp(`deadline of ${DEADLINE} ms`));
    expect(elapsed).toBeGreaterThan(DEADLINE - 20);
    expect(elapsed).toBeLessThan(DEADLINE + 1_500);
    // Another request has its own deadline: the same call fits again.
    expect(await get(new AbortController().signal, HALF)).toEqual({ ok: true });
  });

  it("fans out in parallel under one deadline", async () => {
    const request = new AbortController().signal;
    const started = performance.now();
    const results = await Promise.allSettled([get(request, 50), get(request, 8_000), get(request, 8_000)]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "rejected"]);
    expect(performance.now() - started).toBeLessThan(DEADLINE + 1_500);
  });

  it("stops retrying at the deadline: each attempt gets min(timeout, time left)", async () => {
    seen.length = 0;
    // undici checks headers timeouts on a coarse clock (about every 500 ms), so a 150 ms attempt
    // timeout fires within ~0.5 s; the deadline itself is exact.
    const c = createUpstreamClient({
      timeoutMs: 150,
      requestDeadlineMs: 1_500,
      retryBaseDelayMs: 10,
      maxRetries: 10,
      retryBudget: { minPerSecond: 1_000 },
    });
    try {
      const started = performance.now();
      const error = await adapterRejection(get(new AbortController().signal, 5_000, c));
      expect(error.code).toBe("UPSTREAM_TIMEOUT");
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(seen.length).toBeGreaterThanOrEqual(2); // retried after a timed-out attempt …
      expect(seen.length).toBeLessThanOrEqual(5); // … but only while there was time
    } finally {
      await c.close();
    }
  });

  it("an attempt whose timeout is what was left of the deadline times out as the deadline, whichever timer fires first", async () => {
    // undici's own timeout (the attempt's) and the deadline's timer fall due together; on a busy
    // machine undici's may fire first. Either way it is the request's time that ran out.
    const ctx = { deadline: createDeadline(DEADLINE, undefined, performance.now() - 1_500) } as CallContext;
    await attemptTimeoutPolicy(6_000).execute(ctx, async () => undefined);
    expect(ctx.timeoutMs).toBeLessThanOrEqual(1_000);
    expect(ctx.deadlineBoundMs).toBe(DEADLINE);
    const undiciTimeout = Object.assign(new Error("Headers Timeout Error"), { code: "UND_ERR_HEADERS_TIMEOUT" });
    const failure = transportFailure(undiciTimeout, undefined, ctx.timeoutMs, ctx.deadlineBoundMs);
    expect(failure.error.message).toMatch(new RegExp(`deadline of ${DEADLINE} ms`));
    expect({ code: failure.error.code, verdict: failure.verdict, retryable: failure.retryable }).toEqual({
      code: "UPSTREAM_TIMEOUT",
      verdict: "neutral",
      retryable: false,
    });
    // With the deadline far away the attempt's own timeout is the upstream's: retried, and counted.
    const early = { deadline: createDeadline(DEADLINE) } as CallContext;
    await attemptTimeoutPolicy(1_000).execute(early, async () => undefined);
    expect(early.deadlineBoundMs).toBeUndefined();
    expect(transportFailure(undiciTimeout, undefined, early.timeoutMs, early.deadlineBoundMs)).toMatchObject({
      verdict: "failure",
      retryable: true,
    });
  });

  it("a caller that hangs up is still a cancellation, not a timeout", async () => {
    const controller = new AbortController();
    const pending = get(controller.signal, 5_000);
    setTimeout(() => controller.abort(), 50);
    expect((await adapterRejection(pending)).message).toMatch(/cancelled/);
  });

  it("REQUEST_DEADLINE_MS=0 turns it off", async () => {
    const c = createUpstreamClient({ timeoutMs: 5_000, requestDeadlineMs: 0 });
    try {
      const request = new AbortController().signal;
      expect(await get(request, 300, c)).toEqual({ ok: true });
      expect(await get(request, 300, c)).toEqual({ ok: true });
    } finally {
      await c.close();
    }
  });
});
