// Upstream failures on both surfaces: statuses, timeout, reset, malformed bodies and an open circuit
// become the code of docs/api.md "Errors" (GraphQL errors[].extensions.code, tRPC data.gatewayCode); Retry-After is
// kept; idempotent GETs are retried, POSTs never.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FaultSpec } from "../sandbox/index.ts";
import { fromConnection, fromPage, type ListResult } from "./cases.ts";
import {
  SURFACES,
  expectOk,
  newRequestId,
  onlyRequest,
  runOperation,
  startGatewayFor,
  startProductsEnv,
  trpcClient,
  type Operation,
  type Outcome,
  type ProductsEnv,
} from "./harness.ts";

const TIMEOUT_MS = 400;
let env: ProductsEnv;

beforeAll(async () => {
  env = await startProductsEnv({ env: { UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) } });
});
afterAll(async () => {
  await env?.close();
});
beforeEach(async () => {
  await env.sandbox.reset();
});
afterEach(async () => {
  // One good call after each failure resets the origin's consecutive-failure count, so failures
  // injected by one test never add up to an open circuit in the next.
  env.sandbox.clearFaults();
  await trpcClient(env.gateway.url, { token: env.token }).messages.list.query({ limit: 1 });
});

/** GET /email/v1/messages: idempotent, so retried on 5xx/reset. */
const listInbox: Operation<ListResult<{ id: string }>> = {
  graphql: {
    query: `{ messages(folder: "inbox", first: 3) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
    pick: (d) => fromConnection(d["messages"]),
  },
  trpc: async (c) => fromPage(await c.messages.list.query({ folder: "inbox", limit: 3 })),
};

/** POST /search/v1/query: never retried. */
const searchQuery: Operation<{ answer: string }> = {
  graphql: { query: `{ search(query: "budget") { answer } }`, pick: (d) => d["search"] as { answer: string } },
  trpc: (c) => c.search.query.query({ query: "budget" }),
};

const call = <R>(surface: (typeof SURFACES)[number], op: Operation<R>, requestId = newRequestId(surface)): Promise<Outcome<R>> =>
  runOperation(surface, env.gateway.url, op, { token: env.token, requestId });

function expectFailure<R>(outcome: Outcome<R>): Extract<Outcome<R>, { ok: false }> {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.data)}`);
  return outcome;
}

describe.each(SURFACES)("%s", (surface) => {
  const statuses: [number, string, string][] = [
    [400, "BAD_USER_INPUT", "BAD_REQUEST"],
    [401, "UNAUTHENTICATED", "UNAUTHORIZED"],
    [403, "FORBIDDEN", "FORBIDDEN"],
    [404, "NOT_FOUND", "NOT_FOUND"],
    [409, "CONFLICT", "CONFLICT"],
    [429, "RATE_LIMITED", "TOO_MANY_REQUESTS"],
    [500, "UPSTREAM_ERROR", "BAD_GATEWAY"],
    [503, "UPSTREAM_ERROR", "BAD_GATEWAY"],
  ];

  it.each(statuses)("upstream %i → %s", async (status, code, trpcCode) => {
    const fault: FaultSpec = {
      type: "status",
      path: "/email/v1/messages",
      status,
      message: `upstream says no (${status})`,
      ...(status === 429 || status === 503 ? { retryAfter: 7 } : {}),
    };
    env.sandbox.setFaults([fault]);
    const failure = expectFailure(await call(surface, listInbox));
    expect(failure.code).toBe(code);
    if (surface === "trpc") expect(failure.trpcCode).toBe(trpcCode);
    // 4xx pass the upstream's message on; 5xx say it was the upstream, with its message.
    expect(failure.message).toContain(`upstream says no (${status})`);
    if (status >= 500) expect(failure.message).toContain(`HTTP ${status}`);
    if (status === 429 || status === 503) {
      // Kept for the caller; and a 7 s wait is longer than the gateway would sleep, so no retry.
      expect(failure.retryAfter).toBe(7);
      expect(env.sandbox.countRequests("/email/v1/messages")).toBe(1);
    }
  });

  it("an upstream that does not answer in time → UPSTREAM_TIMEOUT", async () => {
    env.sandbox.setFaults([{ type: "hang", path: "/email/v1/messages" }]);
    const started = Date.now();
    const failure = expectFailure(await call(surface, listInbox));
    expect(failure.code).toBe("UPSTREAM_TIMEOUT");
    expect(failure.message).toContain(`${TIMEOUT_MS} ms`);
    // A timed-out GET is retried (twice, under the retry budget and the request deadline); each
    // attempt is cut by undici's coarse timers (up to ~1 s), far below the 10 s default.
    expect(env.sandbox.countRequests("/email/v1/messages")).toBe(3);
    expect(Date.now() - started).toBeLessThan(4_500);
  });

  it("a connection reset → UPSTREAM_UNAVAILABLE", async () => {
    env.sandbox.setFaults([{ type: "reset", path: "/email/v1/messages" }]);
    const failure = expectFailure(await call(surface, listInbox));
    expect(failure.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(failure.message).toMatch(/ECONNRESET|UND_ERR_SOCKET/);
  });

  it("a body missing a field → UPSTREAM_ERROR naming the field", async () => {
    env.sandbox.setFaults([{ type: "malformed", mode: "missing-field", field: "threadId", path: "/email/v1/messages" }]);
    const failure = expectFailure(await call(surface, listInbox));
    expect(failure.code).toBe("UPSTREAM_ERROR");
    expect(failure.message).toMatch(/data\.0\.threadId/);
  });

  it("a body that is not JSON → UPSTREAM_ERROR", async () => {
    env.sandbox.setFaults([{ type: "malformed", mode: "invalid-json", path: "/search/v1/query" }]);
    const failure = expectFailure(await call(surface, searchQuery));
    expect(failure.code).toBe("UPSTREAM_ERROR");
    expect(failure.message).toMatch(/not valid JSON/);
  });

  it("a GET that fails once is retried and succeeds (2 upstream requests)", async () => {
    env.sandbox.setFaults([{ type: "fail-once", path: "/email/v1/messages", status: 503 }]);
    const requestId = newRequestId(surface);
    const page = expectOk(await call(surface, listInbox, requestId));
    expect(page.data).toHaveLength(3);
    const seen = env.sandbox.requestsTo("/email/v1/messages", "GET");
    expect(seen.map((r) => r.status)).toEqual([503, 200]);
    // The retry is the same call: same token, same request id.
    for (const r of seen) expect(r.headers).toMatchObject({ authorization: `Bearer ${env.token}`, "x-request-id": requestId });
  });

  it("a GET whose connection is reset once is retried and succeeds", async () => {
    env.sandbox.setFaults([{ type: "reset", path: "/email/v1/messages", count: 1 }]);
    expect(expectOk(await call(surface, listInbox)).data).toHaveLength(3);
    expect(env.sandbox.countRequests("/email/v1/messages", "GET")).toBe(2);
  });

  it("a POST that fails is never retried (1 upstream request)", async () => {
    env.sandbox.setFaults([{ type: "fail-once", path: "/search/v1/query", status: 503 }]);
    const requestId = newRequestId(surface);
    const failure = expectFailure(await call(surface, searchQuery, requestId));
    expect(failure.code).toBe("UPSTREAM_ERROR");
    onlyRequest(env.sandbox, { token: env.token, requestId });
  });

  it("a POST whose connection is reset is never retried", async () => {
    env.sandbox.setFaults([{ type: "reset", path: "/search/v1/query", count: 1 }]);
    expect(expectFailure(await call(surface, searchQuery)).code).toBe("UPSTREAM_UNAVAILABLE");
    expect(env.sandbox.countRequests("/search/v1/query")).toBe(1);
  });
});

describe("an open circuit", () => {
  it("answers UPSTREAM_UNAVAILABLE on both surfaces without calling the upstream", async () => {
    // Its own gateway: its breakers start closed and stay open (10 s) only for this test. The
    // breaker measures a failure rate (docs/resilience.md); five calls are enough for this one.
    const gateway = await startGatewayFor(env.sandbox, {
      UPSTREAM_BREAKER_MIN_CALLS: "5",
      UPSTREAM_BREAKER_OPEN_MS: "10000",
      UPSTREAM_BREAKER_OPEN_MAX_MS: "10000",
    });
    try {
      env.sandbox.setFaults([{ type: "status", path: "/search/v1/query", status: 500 }]);
      const client = trpcClient(gateway.url, { token: env.token });
      // Five upstream failures out of five calls (POSTs: one request each) open the origin's circuit.
      for (let i = 0; i < 5; i++)
        await expect(client.search.query.query({ query: "budget" })).rejects.toMatchObject({ data: { gatewayCode: "UPSTREAM_ERROR" } });
      expect(env.sandbox.countRequests()).toBe(5);
      env.sandbox.clearFaults();

      for (const surface of SURFACES) {
        for (const op of [searchQuery, listInbox] as Operation<unknown>[]) {
          const failure = expectFailure(await runOperation(surface, gateway.url, op, { token: env.token }));
          expect(failure.code).toBe("UPSTREAM_UNAVAILABLE");
          expect(failure.message).toMatch(/circuit open/);
          expect(failure.retryAfter).toBeGreaterThanOrEqual(1);
        }
      }
      expect(env.sandbox.countRequests()).toBe(5);
      // The test gateway's circuit is per gateway: the suite's own gateway still gets through.
      expect(expectOk(await call("graphql", listInbox)).data).toHaveLength(3);
    } finally {
      await gateway.close();
    }
  });
});
