// A caller that hangs up mid-request cancels the upstream call: the sandbox sees its connection
// closed long before it would have answered.
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { graphqlFetch, newRequestId, startProductsEnv, trpcClient, waitFor, type ProductsEnv } from "./harness.ts";

const UPSTREAM_LATENCY_MS = 5_000;
let env: ProductsEnv;

beforeAll(async () => {
  env = await startProductsEnv({ env: { UPSTREAM_TIMEOUT_MS: "30000" } });
});
afterAll(async () => {
  await env?.close();
});
beforeEach(async () => {
  await env.sandbox.reset();
  env.sandbox.setFaults([{ type: "latency", path: "/email/v1/messages", ms: UPSTREAM_LATENCY_MS }]);
});

/** Starts a call, waits until the sandbox has it, aborts, and returns how long the upstream connection then lived. */
async function abortMidRequest(start: (signal: AbortSignal) => Promise<unknown>): Promise<number> {
  const controller = new AbortController();
  const pending = start(controller.signal).then(
    () => "resolved",
    (error: unknown) => error,
  );
  await waitFor(() => env.sandbox.requests.length === 1, 3_000, "the upstream request");
  const upstream = env.sandbox.requests[0];
  if (!upstream) throw new Error("no upstream request");
  const abortedAt = Date.now();
  controller.abort();
  expect(await pending).not.toBe("resolved");
  await waitFor(() => upstream.closedEarly === true, 2_000, "the upstream connection to close");
  expect(upstream.status).toBeUndefined();
  expect((upstream.closedAt ?? Infinity) - upstream.at).toBeLessThan(UPSTREAM_LATENCY_MS);
  return (upstream.closedAt ?? Infinity) - abortedAt;
}

it("GraphQL: aborting the fetch closes the upstream connection", async () => {
  const lag = await abortMidRequest((signal) =>
    graphqlFetch(
      env.gateway.url,
      { query: `{ messages(first: 3) { edges { node { id } } pageInfo { hasNextPage endCursor } } }` },
      { token: env.token, requestId: newRequestId("abort"), signal },
    ),
  );
  expect(lag).toBeLessThan(1_000);
});

it("tRPC: aborting the query closes the upstream connection", async () => {
  const client = trpcClient(env.gateway.url, { token: env.token });
  const lag = await abortMidRequest((signal) => client.messages.list.query({ limit: 3 }, { signal }));
  expect(lag).toBeLessThan(1_000);
});

it("tRPC, one query by GET (answered without resolveResponse): hanging up closes the upstream connection", async () => {
  const url = `${env.gateway.url}/trpc/messages.list?input=${encodeURIComponent(JSON.stringify({ limit: 3 }))}`;
  const lag = await abortMidRequest((signal) => fetch(url, { headers: { authorization: `Bearer ${env.token}` }, signal }));
  expect(lag).toBeLessThan(1_000);
});

it("the gateway keeps serving after cancelled calls", async () => {
  env.sandbox.clearFaults();
  const page = await trpcClient(env.gateway.url, { token: env.token }).messages.list.query({ limit: 3 });
  expect(page.data).toHaveLength(3);
});
