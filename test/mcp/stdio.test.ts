// `workspace-gateway mcp` spawned for real, talking to a gateway on an ephemeral port over tRPC.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphqlRequest } from "../documents/graphql-driver.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import {
  expectAbsoluteLinks,
  expectDocumentRoundTrip,
  expectReadScopeRequired,
  expectToolErrors,
  expectToolList,
  textOf,
} from "./mcp-cases.ts";
import { connectStdio, rawExchange, refusedPort, runStdioToExit, type StdioMcp } from "./stdio-client.ts";

let tg: TestGateway;
let mcp: StdioMcp;
let key: string;

beforeAll(async () => {
  tg = await startTestGateway();
  key = await tg.key({ user: "stdio-agent" });
  mcp = await connectStdio({ GATEWAY_URL: tg.url, GATEWAY_API_KEY: key });
});
afterAll(async () => {
  await mcp?.close();
  await tg.close();
});

describe("MCP over stdio (workspace-gateway mcp)", () => {
  it("lists the tools", async () => {
    await expectToolList(mcp.client);
  });

  it("round-trips a document through the running gateway, visible over REST and GraphQL too", async () => {
    const id = await expectDocumentRoundTrip(mcp.client, "stdio kitchen sink");
    const rest = await fetch(`${tg.url}/api/v1/documents/${id}?maxChars=9`, { headers: { authorization: `Bearer ${key}` } });
    expect(await rest.json()).toMatchObject({ id, text: "Launch pl", truncated: true });
    const gql = await graphqlRequest<{ document: { name: string } }>(tg.url, `Bearer ${key}`, `{ document(id: "${id}") { name } }`);
    expect(gql.body.data).toEqual({ document: { name: "stdio kitchen sink" } });
  });

  it("every link in the documents and spreadsheet tools' results is absolute against GATEWAY_URL", async () => {
    const all = await connectStdio({
      GATEWAY_URL: tg.url,
      GATEWAY_API_KEY: await tg.key({ user: "stdio-links", scopes: ["docs:read", "docs:write", "sheets:read", "sheets:write"] }),
    });
    try {
      await expectAbsoluteLinks(all.client, tg.url);
    } finally {
      await all.close();
    }
  });

  it("reports errors with the gateway code", async () => {
    await expectToolErrors(mcp.client);
  });

  it("a key without docs:read gets FORBIDDEN from docs_list and docs_read", async () => {
    const writer = await connectStdio({
      GATEWAY_URL: tg.url,
      GATEWAY_API_KEY: await tg.key({ user: "stdio-agent", scopes: ["docs:write"] }),
    });
    try {
      await expectReadScopeRequired(writer.client);
    } finally {
      await writer.close();
    }
  });

  it("writes only JSON-RPC to stdout; logs go to stderr", async () => {
    const { stdout, stderr } = await rawExchange({ GATEWAY_URL: tg.url, GATEWAY_API_KEY: key }, [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "docs_create", arguments: { name: "raw stdio", markdown: "# Hi" } } },
      { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "docs_list", arguments: {} } },
      // A failing call: the server logs it, which must not reach stdout.
      { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "docs_read", arguments: { id: "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A" } } },
    ]);
    expect(stdout.endsWith("\n")).toBe(true);
    const lines = stdout.slice(0, -1).split("\n");
    for (const line of lines) expect(JSON.parse(line), line).toMatchObject({ jsonrpc: "2.0" });
    // Tool calls run concurrently, so answers may come in any order.
    const ids = lines.map((line) => (JSON.parse(line) as { id?: number }).id);
    expect(ids.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(stderr).toContain("serving on stdio");
    expect(stderr).toMatch(/docs_read failed/);
  });

  it("a missing variable is a clear message and a non-zero exit", async () => {
    const run = await runStdioToExit({ GATEWAY_URL: "not a url" });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/GATEWAY_URL/);
    expect(run.stderr).toMatch(/GATEWAY_API_KEY or GATEWAY_TOKEN is required/);
  });

  it("a GATEWAY_URL nothing listens on stops it at start-up, naming the URL and the cause", async () => {
    const url = `http://127.0.0.1:${await refusedPort()}`;
    const run = await runStdioToExit({ GATEWAY_URL: url, GATEWAY_API_KEY: key });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`GATEWAY_URL ${url} could not be reached`);
    expect(run.stderr).toMatch(/ECONNREFUSED/);
  });

  it("a rejected key stops it at start-up", async () => {
    const run = await runStdioToExit({ GATEWAY_URL: tg.url, GATEWAY_API_KEY: "wgk_invalidinvalidinvalidinvalidinvalidinvalid00" });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`GATEWAY_API_KEY was rejected by ${tg.url}`);
  });

  it("a gateway that does not answer stops it after GATEWAY_STARTUP_TIMEOUT_MS", async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    try {
      const run = await runStdioToExit({ GATEWAY_URL: url, GATEWAY_API_KEY: key, GATEWAY_STARTUP_TIMEOUT_MS: "300" });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`GATEWAY_URL ${url} did not answer within 300 ms`);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it("a gateway that goes away later gives UPSTREAM_UNAVAILABLE naming its URL, not INTERNAL", async () => {
    const other = await startTestGateway();
    const session = await connectStdio({ GATEWAY_URL: other.url, GATEWAY_API_KEY: await other.key({ user: "gone" }) });
    try {
      await other.close();
      const result = await session.client.callTool({ name: "docs_list", arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        new RegExp(`^UPSTREAM_UNAVAILABLE: The gateway at ${other.url.replace(/\./g, "\\.")} could not be reached`),
      );
    } finally {
      await session.close();
    }
  });
});
