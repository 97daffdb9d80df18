// Cancellation without listener fan-in (issue 23, finding 10): thousands of upstream calls under
// one request's signal — a tRPC batch, a GraphQL query — leave that signal, and the request's
// deadline signal, with one `abort` listener each, not one per call in flight; nothing is left
// behind, and Node never warns (MaxListenersExceededWarning).
import { getEventListeners } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseBase, type UpstreamBase } from "../../adapters/upstream/base.ts";
import { cancelPolicy, Linker } from "../../adapters/upstream/cancel.ts";
import type { Cancellation, CancelSignal } from "../../adapters/upstream/cancellation.ts";
import type { CallContext } from "../../adapters/upstream/policy.ts";
import { createDeadline } from "../../adapters/upstream/timeout.ts";
import { createUpstreamClient } from "../../adapters/upstream/client.ts";
import { startProductsEnv, type ProductsEnv } from "../products/harness.ts";
import { adapterRejection } from "./helpers.ts";
import { startListenerCensus } from "./listeners.ts";

const abortListeners = (signal: AbortSignal) => getEventListeners(signal, "abort").length;

describe("Linker", () => {
  it("puts one listener on a source however many calls link to it, and fans its abort out to those in flight", () => {
    const linker = new Linker();
    const source = new AbortController();
    const links = Array.from({ length: 5_000 }, () => linker.link(source.signal));
    expect(abortListeners(source.signal)).toBe(1);
    expect(linker.inFlight(source.signal)).toBe(5_000);
    for (const link of links.slice(0, 4_000)) link.release();
    expect(linker.inFlight(source.signal)).toBe(1_000);
    const reason = new Error("hung up");
    source.abort(reason);
    expect(links.slice(4_000).every((l) => l.signal.aborted && l.signal.reason === reason)).toBe(true);
    expect(links.slice(0, 4_000).some((l) => l.signal.aborted)).toBe(false); // released: no longer the source's
    expect(linker.link(source.signal).signal.reason).toBe(reason); // a late link is born aborted
  });
});

describe("cancelPolicy", () => {
  const target = { product: "mail" as const, base: parseBase("http://127.0.0.1:1", "test"), path: "/x" };
  const contextFor = (deadline: ReturnType<typeof createDeadline>, caller: AbortSignal): CallContext => ({
    target,
    idempotent: true,
    scope: "whole",
    caller,
    deadline,
    attempt: 0,
    timeoutMs: 1_000,
  });

  it("gives the request's only call in flight the deadline's own signal, and links the calls beside it", async () => {
    const linker = new Linker();
    const policy = cancelPolicy(linker);
    const caller = new AbortController();
    const deadline = createDeadline(30_000, caller.signal);
    const seen: CancelSignal[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const run = () => {
      const ctx = contextFor(deadline, caller.signal);
      deadline.enter(); // as the deadline policy does, outside this one
      return policy
        .execute(ctx, async () => {
          seen.push(ctx.sendSignal!);
          await held;
          return ctx.signal!;
        })
        .finally(() => deadline.leave());
    };
    const first = run();
    const second = run();
    const third = run();
    expect(seen[0]).toBe(deadline.signal); // alone in flight when it started: no link of its own
    expect(seen[1]).not.toBe(deadline.signal);
    expect(seen[2]).not.toBe(seen[1]);
    expect(linker.inFlight(deadline.signal)).toBe(2);
    expect((deadline.signal as Cancellation).listenerCount).toBe(1); // the fan-out's; the first call adds none itself
    const reason = new Error("hung up");
    caller.abort(reason);
    expect(seen.every((signal) => signal.aborted && signal.reason === reason)).toBe(true);
    release();
    await Promise.all([first, second, third]);
    expect(linker.inFlight(deadline.signal)).toBe(0);
    // Once the others have ended, the next call is alone again.
    const next = contextFor(deadline, caller.signal);
    deadline.enter();
    await policy.execute(next, async () => undefined).finally(() => deadline.leave());
    expect(next.signal).toBe(deadline.signal);
  });

  it("a download alone in flight still sends with the caller's signal (its body streams past the deadline)", async () => {
    const caller = new AbortController();
    const deadline = createDeadline(30_000, caller.signal);
    const ctx = { ...contextFor(deadline, caller.signal), scope: "headers" as const };
    deadline.enter();
    await cancelPolicy().execute(ctx, async () => undefined);
    deadline.leave();
    expect(ctx.signal).toBe(deadline.signal);
    expect(ctx.sendSignal).toBe(caller.signal);
  });
});

describe("upstream calls under one caller signal", () => {
  let server: Server;
  let base: UpstreamBase;
  beforeAll(async () => {
    server = createServer((_req, res) => setTimeout(() => res.end('{"ok":true}'), 2));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = parseBase(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, "test");
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each([
    ["with the request deadline", 30_000],
    ["without it (REQUEST_DEADLINE_MS=0)", 0],
  ])("5,000 calls, 250 at a time, %s: no signal carries more than a few listeners", async (_label, requestDeadlineMs) => {
    const client = createUpstreamClient({ requestDeadlineMs, connections: 16 });
    const census = startListenerCensus();
    try {
      const request = new AbortController().signal; // one incoming request: a tRPC batch, say
      const call = { requestId: "r", accessToken: "t", signal: request };
      const schema = z.object({ ok: z.boolean() });
      let most = 0;
      for (let wave = 0; wave < 20; wave++) {
        const calls = Array.from({ length: 250 }, (_, i) =>
          client.json(call, { product: "mail", base, method: "GET", path: `/x/${wave}/${i}`, schema }),
        );
        most = Math.max(most, abortListeners(request)); // all 250 in flight
        expect(await Promise.all(calls)).toHaveLength(250);
      }
      expect(most).toBeLessThanOrEqual(2);
      expect(abortListeners(request)).toBeLessThanOrEqual(2); // and none left behind
      // Any signal at all, the deadline's included: before, it carried one listener per call in flight.
      expect(census.max).toBeLessThanOrEqual(5);
      expect(census.warnings).toEqual([]);
    } finally {
      census.stop();
      await client.close();
    }
  });

  it("a caller that hangs up still cancels every call in flight", async () => {
    const client = createUpstreamClient({ timeoutMs: 5_000 });
    const hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    try {
      const hangBase = parseBase(`http://127.0.0.1:${(hanging.address() as AddressInfo).port}`, "test");
      const controller = new AbortController();
      const call = { requestId: "r", accessToken: "t", signal: controller.signal };
      const calls = Array.from({ length: 50 }, () =>
        adapterRejection(client.json(call, { product: "mail", base: hangBase, method: "GET", path: "/hang", schema: z.object({}) })),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.abort();
      const errors = await Promise.all(calls);
      expect(errors.every((e) => /cancelled/.test(e.message))).toBe(true);
    } finally {
      await client.close();
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });
});

describe("tRPC batches through the gateway", () => {
  let env: ProductsEnv;
  beforeAll(async () => {
    // Batches of 100 calls share one request's signal: the most listeners one signal can gather.
    env = await startProductsEnv({ env: { BATCH_MAX_CALLS: "100" } });
  });
  afterAll(async () => {
    await env?.close();
  });

  it("5,000 files.get calls in batches of 100: no signal carries more than a few listeners, no warning", async () => {
    const ids = env.sandbox.data.files.map((f) => f.id);
    const census = startListenerCensus();
    try {
      for (let batch = 0; batch < 50; batch++) {
        const input = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [String(i), { id: ids[(batch + i) % ids.length] }]));
        const path = Array.from({ length: 100 }, () => "files.get").join(",");
        const response = await fetch(`${env.gateway.url}/trpc/${path}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`, {
          headers: { authorization: `Bearer ${env.token}` },
        });
        const body = (await response.json()) as Array<{ result?: { data?: { id?: string } } }>;
        expect(body.filter((item) => item.result?.data?.id).length).toBe(100);
      }
      expect(census.max).toBeLessThanOrEqual(5);
      expect(census.warnings).toEqual([]);
    } finally {
      census.stop();
    }
  });
});
