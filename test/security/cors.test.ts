// CORS on every surface: only CORS_ORIGINS get Access-Control-* headers (none by default), never
// with Access-Control-Allow-Credentials; preflights are answered for allowed origins only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { mcpHeaders } from "./surfaces.ts";

const allowedOrigin = "https://app.example.com";
const evilOrigin = "https://evil.example";

/** One request per surface that a browser page would make, with `origin`. */
const requests = (key: string): [string, string, RequestInit][] => [
  ["rest", "/api/v1/documents", { headers: { authorization: `Bearer ${key}` } }],
  [
    "graphql",
    "/graphql",
    {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ viewer { id } }" }),
    },
  ],
  ["trpc", "/trpc/viewer", { headers: { authorization: `Bearer ${key}` } }],
  [
    "mcp",
    "/mcp",
    {
      method: "POST",
      headers: { ...mcpHeaders, authorization: `Bearer ${key}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    },
  ],
  ["openapi", "/api/v1/openapi.json", {}],
];

const withOrigin = (init: RequestInit, origin: string): RequestInit => ({
  ...init,
  headers: { ...(init.headers as Record<string, string>), origin },
});

const preflight = (url: string, origin: string, method = "POST") =>
  fetch(url, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": method, "access-control-request-headers": "authorization, content-type" },
  });

describe("default: no CORS_ORIGINS", () => {
  let tg: TestGateway;
  let key: string;
  beforeAll(async () => {
    tg = await startTestGateway();
    key = await tg.key();
  });
  afterAll(() => tg.close());

  it.each(["rest", "graphql", "trpc", "mcp", "openapi"])("%s: a cross-origin request gets no Access-Control-* header", async (surface) => {
    const [, path, init] = requests(key).find(([name]) => name === surface)!;
    const response = await fetch(`${tg.url}${path}`, withOrigin(init, evilOrigin));
    await response.arrayBuffer();
    const cors = [...response.headers.keys()].filter((name) => name.startsWith("access-control-"));
    expect(cors).toEqual([]);
  });

  it.each(["/graphql", "/api/v1/documents", "/trpc/viewer", "/mcp"])("a preflight to %s is refused without CORS headers", async (path) => {
    const response = await preflight(`${tg.url}${path}`, evilOrigin);
    expect(response.status).toBe(403);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
  });
});

describe(`CORS_ORIGINS=${allowedOrigin}`, () => {
  let tg: TestGateway;
  let key: string;
  beforeAll(async () => {
    tg = await startTestGateway({ CORS_ORIGINS: `${allowedOrigin}, http://localhost:3000` });
    key = await tg.key();
  });
  afterAll(() => tg.close());

  it.each(["rest", "graphql", "trpc", "mcp", "openapi"])(
    "%s: the allowed origin gets Allow-Origin (no credentials), another origin nothing",
    async (surface) => {
      const [, path, init] = requests(key).find(([name]) => name === surface)!;
      const allowed = await fetch(`${tg.url}${path}`, withOrigin(init, allowedOrigin));
      await allowed.arrayBuffer();
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get("access-control-allow-origin")).toBe(allowedOrigin);
      expect(allowed.headers.get("access-control-expose-headers")).toMatch(/X-Request-Id/);
      expect(allowed.headers.get("access-control-allow-credentials")).toBeNull();
      expect(allowed.headers.get("vary")).toMatch(/Origin/);

      const evil = await fetch(`${tg.url}${path}`, withOrigin(init, evilOrigin));
      await evil.arrayBuffer();
      expect(evil.headers.get("access-control-allow-origin")).toBeNull();
      expect(evil.headers.get("access-control-allow-credentials")).toBeNull();
      expect(evil.headers.get("vary")).toMatch(/Origin/);
    },
  );

  it.each(["/graphql", "/api/v1/documents", "/trpc/documents.create", "/mcp"])(
    "a preflight to %s from the allowed origin is answered 204",
    async (path) => {
      const response = await preflight(`${tg.url}${path}`, allowedOrigin);
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe(allowedOrigin);
      expect(response.headers.get("access-control-allow-methods")).toMatch(/POST/);
      expect(response.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
      expect(response.headers.get("access-control-allow-headers")).toMatch(/Content-Type/);
      expect(response.headers.get("access-control-allow-credentials")).toBeNull();
      expect((await preflight(`${tg.url}${path}`, evilOrigin)).status).toBe(403);
    },
  );

  it.each(["PUT", "PATCH", "DELETE"])("a preflight for %s with If-Match, If-None-Match and Idempotency-Key is allowed", async (method) => {
    const response = await fetch(`${tg.url}/api/v1/documents/doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A`, {
      method: "OPTIONS",
      headers: {
        origin: allowedOrigin,
        "access-control-request-method": method,
        "access-control-request-headers": "authorization, x-access-token, content-type, if-match, if-none-match, idempotency-key",
      },
    });
    expect(response.status).toBe(204);
    const methods = (response.headers.get("access-control-allow-methods") ?? "").split(/,\s*/);
    expect(methods).toContain(method);
    const headers = (response.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/,\s*/);
    for (const name of ["authorization", "x-access-token", "content-type", "if-match", "if-none-match", "idempotency-key"])
      expect(headers).toContain(name);
  });

  it("an allowed origin may read ETag, Location, Idempotent-Replayed, Retry-After and X-Request-Id", async () => {
    const response = await fetch(`${tg.url}/api/v1/documents`, withOrigin({ headers: { authorization: `Bearer ${key}` } }, allowedOrigin));
    await response.arrayBuffer();
    const exposed = (response.headers.get("access-control-expose-headers") ?? "").toLowerCase().split(/,\s*/);
    for (const name of ["etag", "location", "idempotent-replayed", "retry-after", "x-request-id"]) expect(exposed).toContain(name);
  });

  it("a look-alike origin (other scheme, port or suffix) is not allowed", async () => {
    for (const origin of ["http://app.example.com", "https://app.example.com:8443", "https://app.example.com.evil.example", "null"]) {
      const response = await fetch(`${tg.url}/api/v1/documents`, { headers: { origin, authorization: `Bearer ${key}` } });
      await response.arrayBuffer();
      expect(response.headers.get("access-control-allow-origin"), origin).toBeNull();
    }
  });

  it("a bad CORS_ORIGINS entry stops the start", async () => {
    await expect(startTestGateway({ CORS_ORIGINS: "https://app.example.com/path" })).rejects.toThrow(/CORS_ORIGINS/);
  });
});
