// MCP over Streamable HTTP: DNS-rebinding protection (Origin and Host checked before anything
// else) and JSON-RPC invalid params for malformed tools/call arguments.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { mcpHeaders } from "./surfaces.ts";

/** A POST /mcp with exactly these headers (Host included), over a raw node:http request. */
function post(baseUrl: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: string }> {
  const url = new URL(`${baseUrl}/mcp`);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { ...mcpHeaders, "content-length": Buffer.byteLength(payload), ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const listTools = { jsonrpc: "2.0", id: 1, method: "tools/list" };

describe("DNS-rebinding protection on a loopback bind", () => {
  let tg: TestGateway;
  let key: string;
  let port: string;
  beforeAll(async () => {
    tg = await startTestGateway({ MCP_ALLOWED_ORIGINS: "http://localhost:6274", CORS_ORIGINS: "https://app.example.com" });
    key = await tg.key();
    port = new URL(tg.url).port;
  });
  afterAll(() => tg.close());

  const auth = () => ({ authorization: `Bearer ${key}` });

  it("a request without Origin (a non-browser client) is served", async () => {
    const response = await post(tg.url, auth(), listTools);
    expect(response.status).toBe(200);
    expect(response.body).toContain("docs_list");
  });

  it.each(["http://localhost:6274", "https://app.example.com"])(
    "Origin %s (MCP_ALLOWED_ORIGINS or CORS_ORIGINS) is served",
    async (origin) => {
      const response = await post(tg.url, { ...auth(), origin }, listTools);
      expect(response.status).toBe(200);
    },
  );

  it.each(["https://evil.example", "null", "http://localhost:6275", "http://127.0.0.1"])(
    "Origin %s → 403, before authentication",
    async (origin) => {
      const withKey = await post(tg.url, { ...auth(), origin }, listTools);
      expect(withKey.status).toBe(403);
      expect(JSON.parse(withKey.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000, data: { code: "FORBIDDEN" } } });
      // Refused before the credential is looked at: no 401 to probe with.
      expect((await post(tg.url, { origin }, listTools)).status).toBe(403);
    },
  );

  it("the loopback Host names are served, on any port", async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "localhost", `[::1]:${port}`]) {
      expect((await post(tg.url, { ...auth(), host }, listTools)).status, host).toBe(200);
    }
  });

  it.each(["evil.example", "evil.example:4000", "127.0.0.1.nip.io", "localhost.evil.example"])("Host %s → 403", async (host) => {
    const response = await post(tg.url, { ...auth(), host }, listTools);
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toMatchObject({ error: { data: { code: "FORBIDDEN" } } });
  });

  it.each(["attacker@localhost", "localhost:80/x"])("malformed Host %s is refused (the HTTP server's 400, or 403)", async (host) => {
    const response = await post(tg.url, { ...auth(), host }, listTools);
    expect([400, 403]).toContain(response.status);
  });
});

describe("MCP_ALLOWED_HOSTS", () => {
  let tg: TestGateway;
  let key: string;
  beforeAll(async () => {
    tg = await startTestGateway({ MCP_ALLOWED_HOSTS: "mcp.internal.example" });
    key = await tg.key();
  });
  afterAll(() => tg.close());

  it("adds names to the loopback ones", async () => {
    const auth = { authorization: `Bearer ${key}` };
    expect((await post(tg.url, { ...auth, host: "mcp.internal.example:443" }, listTools)).status).toBe(200);
    expect((await post(tg.url, { ...auth, host: "localhost" }, listTools)).status).toBe(200);
    expect((await post(tg.url, { ...auth, host: "other.example" }, listTools)).status).toBe(403);
  });
});

describe("tools/call with malformed arguments", () => {
  let tg: TestGateway;
  let key: string;
  beforeAll(async () => {
    tg = await startTestGateway();
    key = await tg.key();
  });
  afterAll(() => tg.close());

  it.each([
    ["a string", "oops"],
    ["a number", 42],
    ["an array", [1, 2]],
    ["null", null],
  ])("arguments as %s → JSON-RPC -32602 invalid params with a short message", async (_label, args) => {
    const response = await post(
      tg.url,
      { authorization: `Bearer ${key}` },
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "docs_list", arguments: args } },
    );
    expect(response.status).toBe(200);
    const body = JSON.parse(response.body) as { id: number; error?: { code: number; message: string } };
    expect(body.id).toBe(7);
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message.length).toBeLessThan(200);
    expect(body.error?.message).not.toMatch(/"code":|invalid_type|\[\s*\{/);
  });

  it("a tool name that is not a string → -32602 as well", async () => {
    const response = await post(
      tg.url,
      { authorization: `Bearer ${key}` },
      { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: 5, arguments: {} } },
    );
    expect((JSON.parse(response.body) as { error?: { code: number } }).error?.code).toBe(-32602);
  });
});
