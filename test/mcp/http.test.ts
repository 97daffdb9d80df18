// MCP over Streamable HTTP at /mcp with the SDK's own client.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphqlRequest } from "../documents/graphql-driver.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { expectDocumentRoundTrip, expectReadScopeRequired, expectToolErrors, expectToolList, textOf } from "./mcp-cases.ts";

let tg: TestGateway;
let key: string;

async function connect(token: string | null): Promise<Client> {
  const client = new Client({ name: "test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${tg.url}/mcp`), {
    requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} },
  });
  await client.connect(transport);
  return client;
}

beforeAll(async () => {
  tg = await startTestGateway();
  key = await tg.key({ user: "agent" });
});
afterAll(() => tg.close());

describe("MCP over Streamable HTTP", () => {
  it("lists the tools with their schemas", async () => {
    const client = await connect(key);
    await expectToolList(client);
    await client.close();
  });

  it("creates, lists and reads a document, visible over REST and GraphQL too", async () => {
    const client = await connect(key);
    const id = await expectDocumentRoundTrip(client, "MCP kitchen sink");
    await client.close();
    const rest = await fetch(`${tg.url}/api/v1/documents/${id}?maxChars=9`, { headers: { authorization: `Bearer ${key}` } });
    expect(await rest.json()).toMatchObject({ id, text: "Launch pl", truncated: true });
    const gql = await graphqlRequest<{ document: { name: string } }>(tg.url, `Bearer ${key}`, `{ document(id: "${id}") { name } }`);
    expect(gql.body.data).toEqual({ document: { name: "MCP kitchen sink" } });
  });

  it("answers tool errors as isError results with the gateway code", async () => {
    const client = await connect(key);
    await expectToolErrors(client);
    await client.close();
  });

  it("a key without docs:read gets FORBIDDEN from docs_list and docs_read", async () => {
    const client = await connect(await tg.key({ user: "agent", scopes: ["docs:write"] }));
    await expectReadScopeRequired(client);
    await client.close();
  });

  it("a missing scope is FORBIDDEN", async () => {
    const client = await connect(await tg.key({ user: "agent", scopes: ["docs:read"] }));
    const result = await client.callTool({ name: "docs_create", arguments: { name: "x", markdown: "x" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^FORBIDDEN: .*docs:write/);
    await client.close();
  });

  it("refuses a missing or invalid credential with HTTP 401 before any tool runs", async () => {
    for (const auth of [undefined, "Bearer wgk_invalidinvalidinvalidinvalidinvalidinvalid00"]) {
      const response = await fetch(`${tg.url}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(auth ? { authorization: auth } : {}),
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "docs_list", arguments: {} } }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await response.json()).toMatchObject({ error: { code: "UNAUTHENTICATED" } });
    }
    await expect(connect(null)).rejects.toThrow();
  });

  it("an unauthenticated docs_create is refused with 401 and creates nothing", async () => {
    // An expired key of a real user: the one case where "that user's documents" can be checked.
    const user = "expired-agent";
    const expired = await tg.key({ user, expiresInMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (const auth of [undefined, `Bearer ${expired}`]) {
      const response = await fetch(`${tg.url}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(auth ? { authorization: auth } : {}),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "docs_create", arguments: { name: "should not exist", markdown: "# no" } },
        }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
    const list = await fetch(`${tg.url}/api/v1/documents`, { headers: { authorization: `Bearer ${await tg.key({ user })}` } });
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual({ documents: [], nextCursor: null });
  });

  it("GET and DELETE authenticate first (401), then answer 405 with Allow: POST and a JSON-RPC error", async () => {
    for (const method of ["GET", "DELETE"]) {
      const anonymous = await fetch(`${tg.url}/mcp`, { method, headers: { accept: "text/event-stream" } });
      expect(anonymous.status, method).toBe(401);
      expect(anonymous.headers.get("www-authenticate"), method).toMatch(/^Bearer/);
      expect(await anonymous.json()).toMatchObject({ error: { code: "UNAUTHENTICATED" } });

      const response = await fetch(`${tg.url}/mcp`, { method, headers: { accept: "text/event-stream", authorization: `Bearer ${key}` } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("allow"), method).toBe("POST");
      expect(await response.json()).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null });
    }
  });

  it("a body over the limit is 413 with a JSON-RPC error carrying PAYLOAD_TOO_LARGE", async () => {
    const limit = tg.config.BODY_LIMIT_BYTES;
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "docs_create", arguments: { name: "huge", markdown: "x".repeat(limit) } },
    });
    const response = await fetch(`${tg.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${key}` },
      body,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32600,
        message: `The request body is over the ${limit}-byte limit`,
        data: { code: "PAYLOAD_TOO_LARGE", details: { limit } },
      },
      id: null,
    });
  });
});
