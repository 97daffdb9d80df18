// Limits a caller cannot dodge by changing credentials: unverified access tokens and failed
// authentications are counted per client address (the socket's, or the right-most untrusted
// X-Forwarded-For entry behind TRUSTED_PROXIES), and every call of a tRPC batch counts.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { startSandbox, type Sandbox } from "../sandbox/index.ts";
import { call, mcpHeaders, SURFACES, type Surface } from "./surfaces.ts";

const freshToken = () => `opaque-${randomBytes(16).toString("hex")}`;
const badKey = () => `wgk_${randomBytes(32).toString("base64url")}`;

/** A drive search with `token` on `surface`, a product call the gateway forwards upstream: "RATE_LIMITED" or "other". */
async function productCall(baseUrl: string, surface: Surface, token: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await productResponse(baseUrl, surface, token, headers);
  // GraphQL answers a field's RATE_LIMITED as a field error (HTTP 200); the others with HTTP 429.
  return response.status === 429 || (await response.text()).includes('"RATE_LIMITED"') ? "RATE_LIMITED" : "other";
}

function productResponse(baseUrl: string, surface: Surface, token: string, headers: Record<string, string>): Promise<Response> {
  const authorization = `Bearer ${token}`;
  const json = { "content-type": "application/json", authorization, ...headers };
  switch (surface) {
    case "rest":
      return fetch(`${baseUrl}/api/v1/files/f1/content`, { headers: { authorization, ...headers } });
    case "graphql":
      return fetch(`${baseUrl}/graphql`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ query: '{ searchFiles(query: "x") { id } }' }),
      });
    case "trpc":
      return fetch(`${baseUrl}/trpc/files.search?input=${encodeURIComponent('{"query":"x"}')}`, { headers: { authorization, ...headers } });
    case "mcp":
      return fetch(`${baseUrl}/mcp`, {
        method: "POST",
        headers: { ...mcpHeaders, authorization, ...headers },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "drive_search", arguments: { query: "x" } } }),
      });
  }
}

describe("unverified access tokens (no JWT configuration)", () => {
  let sandbox: Sandbox;
  let tg: TestGateway;
  beforeAll(async () => {
    sandbox = await startSandbox({ tokens: ["*"] });
    tg = await startTestGateway({ API_URL: sandbox.url, RATE_LIMIT_PER_MINUTE: "50" });
  });
  afterAll(async () => {
    await tg.close();
    await sandbox.close();
  });

  it("200 fresh random tokens on every surface, with spoofed X-Forwarded-For: at most 50 reach the upstream, the rest are RATE_LIMITED", async () => {
    sandbox.clearRequests();
    const outcomes: string[] = [];
    for (let round = 0; round < 10; round++) {
      const batch = Array.from({ length: 20 }, (_, i) =>
        productCall(tg.url, SURFACES[i % SURFACES.length] as Surface, freshToken(), { "x-forwarded-for": `198.51.100.${round * 20 + i}` }),
      );
      outcomes.push(...(await Promise.all(batch)));
    }
    expect(outcomes.filter((o) => o === "RATE_LIMITED").length).toBe(150);
    expect(sandbox.requests.length).toBeLessThanOrEqual(50);
  });
});

describe("failed authentications per client address", () => {
  let tg: TestGateway;
  const secret = "rate-limit-suite-secret-of-at-least-32-chars";
  beforeAll(async () => {
    tg = await startTestGateway({ JWT_SECRET: secret, AUTH_FAILURES_PER_MINUTE: "5" });
  });
  afterAll(() => tg.close());

  it("after 5 unknown keys and bad JWTs the address gets 429 RATE_LIMITED with Retry-After, even with a valid key, on every surface", async () => {
    const good = await tg.key({ user: "victim-of-own-guessing" });
    for (let i = 0; i < 5; i++) {
      const outcome = await call(tg.url, SURFACES[i % 4] as Surface, `Bearer ${i % 2 ? badKey() : "not.a.jwt"}`, { op: "list" });
      expect(outcome.code, outcome.raw).toBe("UNAUTHENTICATED");
    }
    const over = await fetch(`${tg.url}/api/v1/documents`, {
      headers: { authorization: `Bearer ${badKey()}`, "x-forwarded-for": "203.0.113.9" },
    });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await over.json()).toMatchObject({ error: { code: "RATE_LIMITED" } });
    for (const surface of SURFACES) {
      const outcome = await call(tg.url, surface, `Bearer ${good}`, { op: "list" }, { "x-forwarded-for": "203.0.113.10" });
      expect(outcome.code, `${surface}: ${outcome.raw}`).toBe("RATE_LIMITED");
    }
  });
});

describe("TRUSTED_PROXIES: the right-most untrusted X-Forwarded-For entry is the client", () => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway({ TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8", AUTH_FAILURES_PER_MINUTE: "3" });
  });
  afterAll(() => tg.close());

  const attempt = async (forwardedFor: string) =>
    (await fetch(`${tg.url}/api/v1/documents`, { headers: { authorization: `Bearer ${badKey()}`, "x-forwarded-for": forwardedFor } }))
      .status;

  it("counts per forwarded client; a spoofed left-most entry or a trusted hop does not change the bucket", async () => {
    expect([await attempt("203.0.113.1"), await attempt("203.0.113.1"), await attempt("203.0.113.1")]).toEqual([401, 401, 401]);
    expect(await attempt("203.0.113.1")).toBe(429);
    // Another client behind the same proxy has its own budget.
    expect(await attempt("203.0.113.2")).toBe(401);
    // The client prepends an address of its choosing: the proxy's entry (right-most) still wins.
    expect(await attempt("203.0.113.2, 203.0.113.1")).toBe(429);
    // Through a second trusted proxy (10.1.2.3): still the same client.
    expect(await attempt("203.0.113.1, 10.1.2.3")).toBe(429);
    expect(await attempt("[::ffff:203.0.113.2]:5555, 10.1.2.3")).toBe(401);
  });
});

describe("tRPC batches", () => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway({ RATE_LIMIT_PER_MINUTE: "10" });
  });
  afterAll(() => tg.close());

  const batch = async (key: string, n: number) => {
    const paths = Array.from({ length: n }, () => "documents.list").join(",");
    const input = Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i), {}]));
    const response = await fetch(`${tg.url}/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = (await response.json()) as { error?: { data?: { gatewayCode?: string } } }[];
    return body.map((item) => item.error?.data?.gatewayCode ?? "OK");
  };

  it("every call in a batch counts against the limit", async () => {
    const key = await tg.key({ user: "batcher" });
    expect(await batch(key, 10)).toEqual(Array(10).fill("OK"));
    expect(await batch(key, 1)).toEqual(["RATE_LIMITED"]);
  });

  it("a batch bigger than the budget is refused whole", async () => {
    const key = await tg.key({ user: "big-batcher" });
    expect(await batch(key, 11)).toEqual(Array(11).fill("RATE_LIMITED"));
  });

  it("a batch refused whole spends nothing: the whole budget is still there after it (issue 23)", async () => {
    const key = await tg.key({ user: "refused-batcher" });
    expect(await batch(key, 4)).toEqual(Array(4).fill("OK"));
    expect(await batch(key, 7)).toEqual(Array(7).fill("RATE_LIMITED"));
    expect(await batch(key, 7)).toEqual(Array(7).fill("RATE_LIMITED"));
    expect(await batch(key, 6)).toEqual(Array(6).fill("OK"));
    expect(await batch(key, 1)).toEqual(["RATE_LIMITED"]);
  });
});

describe("MCP JSON-RPC batches", () => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway({ RATE_LIMIT_PER_MINUTE: "5" });
  });
  afterAll(() => tg.close());

  const post = (key: string, body: unknown) =>
    fetch(`${tg.url}/mcp`, { method: "POST", headers: { ...mcpHeaders, authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
  const listTools = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });

  it("every message of a batch counts against the limit", async () => {
    const key = await tg.key({ user: "mcp-batcher" });
    const batch = await post(key, [1, 2, 3, 4, 5].map(listTools));
    expect(batch.status).toBe(200);
    expect((await batch.json()) as unknown[]).toHaveLength(5);
    const next = await post(key, listTools(6));
    expect(next.status).toBe(429);
    expect(await next.json()).toMatchObject({ error: { code: "RATE_LIMITED" } });
  });

  it("a body that is not JSON is still a JSON-RPC parse error, after authentication", async () => {
    const key = await tg.key({ user: "mcp-garbage" });
    const response = await fetch(`${tg.url}/mcp`, {
      method: "POST",
      headers: { ...mcpHeaders, authorization: `Bearer ${key}` },
      body: "{nope",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
    const anonymous = await fetch(`${tg.url}/mcp`, { method: "POST", headers: mcpHeaders, body: "{nope" });
    expect(anonymous.status).toBe(401);
  });
});
