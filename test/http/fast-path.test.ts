// The Node server's fast path (src/http/fast-path.ts): which requests it takes before Hono, and
// that what it sends carries what the app's middleware would have given (request id, CORS,
// metric, log line, the error body of an unexpected failure). Answers equal to Hono's for real
// surfaces are checked where those surfaces are tested (test/trpc/single-query.test.ts, and
// GraphQL below).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClientAddressResolver } from "../../src/auth/client-address.ts";
import { createLogger } from "../../src/core/logger.ts";
import { NodeAnswer } from "../../src/http/answer.ts";
import type { HttpAppDeps, Surface } from "../../src/http/app.ts";
import { createNodeFastPath } from "../../src/http/fast-path.ts";
import { createMetrics } from "../../src/observability/metrics.ts";
import { startProductsEnv, type ProductsEnv } from "../products/harness.ts";

/** A surface at /fast whose Node handler answers what `answer` says; only GETs of /fast/ok* are fast. */
function fakeSurface(answer: () => Promise<NodeAnswer>): Surface {
  return {
    path: "/fast",
    fetch: () => new Response("via fetch"),
    handleNode: answer,
    fastNode: (incoming) => (incoming.url ?? "").startsWith("/fast/ok"),
  };
}

function depsWith(surface: Surface, extra: Partial<HttpAppDeps> = {}) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const metrics = createMetrics();
  const deps = {
    logger: createLogger("info", sink),
    metrics,
    bodyLimit: 1000,
    clientAddress: createClientAddressResolver([]),
    corsOrigins: ["https://app.example"],
    surfaces: [surface],
    ...extra,
  } as unknown as HttpAppDeps;
  return { deps, lines, metrics };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** A Node server: the fast path first, then "hono" (a 299 that says so) for what it leaves. */
async function serve(deps: HttpAppDeps): Promise<string> {
  const fast = createNodeFastPath(deps);
  const server = createServer((req, res) => {
    if (fast?.(req, res)) return;
    req.resume();
    res.writeHead(299, { "content-type": "text/plain" }).end("hono");
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("the fast path", () => {
  const ok = () => Promise.resolve(new NodeAnswer(200, { "content-type": "application/json" }, '{"ok":true}'));

  it("takes only what the surface's fastNode accepts, by GET or POST with a declared body within the limit", async () => {
    const url = await serve(depsWith(fakeSurface(ok)).deps);
    const status = async (path: string, init?: RequestInit) => (await fetch(url + path, init)).status;
    expect(await status("/fast/ok")).toBe(200);
    expect(await status("/fast/ok?x=1", { method: "POST", body: "{}" })).toBe(200);
    expect(await status("/fast/other")).toBe(299); // the surface says no
    expect(await status("/elsewhere")).toBe(299); // no surface there
    expect(await status("/fastok")).toBe(299); // not under /fast/
    expect(await status("/fast/ok", { method: "HEAD" })).toBe(299);
    expect(await status("/fast/ok", { method: "OPTIONS" })).toBe(299);
    expect(await status("/fast/ok", { method: "POST", body: "x".repeat(1001) })).toBe(299); // Hono answers the 413
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("{}"));
        controller.close();
      },
    });
    // No Content-Length: the app reads it to measure it.
    expect(await status("/fast/ok", { method: "POST", body: stream, duplex: "half" } as RequestInit)).toBe(299);
  });

  it("is off while tracing is on: every request goes through Hono's tracing middleware", () => {
    const { deps } = depsWith(fakeSurface(ok), { tracing: async (_c, next) => next() });
    expect(createNodeFastPath(deps)).toBeUndefined();
  });

  it("gives the request id, CORS headers, the metric and the request log line the middleware would", async () => {
    const { deps, lines, metrics } = depsWith(fakeSurface(ok));
    const url = await serve(deps);
    const allowed = await fetch(`${url}/fast/ok`, { headers: { "x-request-id": "req-42", origin: "https://app.example" } });
    expect(allowed.headers.get("x-request-id")).toBe("req-42");
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(allowed.headers.get("vary")).toContain("Origin");
    const other = await fetch(`${url}/fast/ok`, { headers: { origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expect(other.headers.get("vary")).toContain("Origin");
    expect(other.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const metric = await metrics.registry.getSingleMetricAsString("gateway_http_request_duration_seconds");
    expect(metric).toContain('gateway_http_request_duration_seconds_count{method="GET",route="/fast/*",status="200"} 2');
    expect(lines).toContainEqual(expect.objectContaining({ msg: "request", requestId: "req-42", path: "/fast/ok", status: 200 }));
  });

  it("answers an unexpected failure of the surface as the app's onError does: 500 with the error body, logged", async () => {
    const { deps, lines } = depsWith(fakeSurface(() => Promise.reject(new Error("boom"))));
    const url = await serve(deps);
    const response = await fetch(`${url}/fast/ok`, { headers: { "x-request-id": "req-500" } });
    expect(response.status).toBe(500);
    expect(response.headers.get("x-request-id")).toBe("req-500");
    expect(await response.json()).toMatchObject({ error: { code: "INTERNAL" } });
    expect(lines).toContainEqual(expect.objectContaining({ level: "error", msg: "unexpected error", requestId: "req-500" }));
    expect(lines).toContainEqual(expect.objectContaining({ msg: "request", requestId: "req-500", status: 500 }));
  });
});

it("a failure in the request basics is a 500 with the error body, and the server keeps serving", async () => {
  let calls = 0;
  const { deps, lines } = depsWith(
    fakeSurface(() => Promise.resolve(new NodeAnswer(200, { "content-type": "application/json" }, "{}"))),
    {
      clientAddress: () => {
        if (++calls === 1) throw new Error("resolver broke");
        return "127.0.0.1";
      },
    },
  );
  const url = await serve(deps);
  const broken = await fetch(`${url}/fast/ok`);
  expect(broken.status).toBe(500);
  expect(await broken.json()).toMatchObject({ error: { code: "INTERNAL" } });
  expect(lines).toContainEqual(expect.objectContaining({ level: "error", msg: "unexpected error" }));
  expect((await fetch(`${url}/fast/ok`)).status).toBe(200);
});

describe("GraphQL on the fast path answers as through Hono", () => {
  let env: ProductsEnv;
  beforeAll(async () => {
    env = await startProductsEnv();
  });
  afterAll(async () => {
    await env?.close();
  });

  /** The same POST with a declared length (fast path) and streamed without one (Hono, which reads it to measure it). */
  const both = async (body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    const ask = async (streamed: boolean) => {
      const response = await fetch(`${env.gateway.url}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${env.token}`, "content-type": "application/json", ...headers },
        body: streamed
          ? new ReadableStream({
              start(controller) {
                controller.enqueue(new TextEncoder().encode(text));
                controller.close();
              },
            })
          : text,
        duplex: "half",
      } as RequestInit);
      return {
        status: response.status,
        type: response.headers.get("content-type"),
        vary: response.headers.get("vary"),
        body: (await response.json()) as unknown,
      };
    };
    const fast = await ask(false);
    expect(fast).toEqual(await ask(true));
    return fast;
  };

  it("on success, on a field error, on a validation error", async () => {
    expect(env.gateway.gateway.fastPath).toBeDefined(); // what src/server.ts puts before Hono
    expect((await both({ query: "{ viewer { id } }" })).body).toEqual({ data: { viewer: { id: "user-1" } } });
    expect((await both({ query: "{ messages(first: 2) { edges { node { id } } } }" })).status).toBe(200);
    expect((await both({ query: "{ nope }" })).body).toMatchObject({ errors: [{ message: expect.stringContaining("nope") as string }] });
    expect((await both({ query: "{ viewer { id } }" }, { accept: "application/graphql-response+json" })).type).toContain(
      "application/graphql-response+json",
    );
  });
});
