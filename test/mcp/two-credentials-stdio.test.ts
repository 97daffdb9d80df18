// The stdio MCP servers with both credentials (contract §2 "Two credentials on one request"):
// `workspace-gateway mcp` spawned for real with GATEWAY_API_KEY and GATEWAY_TOKEN together lists
// every tool the pair allows, and one session creates a document and reads a spreadsheet (the key)
// and searches the drive (the token, forwarded upstream; the key never is). The light package
// (workspace-gateway-mcp) does the same in test/deploy/mcp-package.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductsEnv, type ProductsEnv } from "../products/harness.ts";
import { expectPairSession } from "./mcp-cases.ts";
import { connectStdio, runStdioToExit } from "./stdio-client.ts";

let env: ProductsEnv;
let key: string;
beforeAll(async () => {
  env = await startProductsEnv();
  key = await env.gateway.key({ user: "stdio-pair", scopes: ["docs:read", "docs:write", "sheets:read", "sheets:write"] });
});
afterAll(() => env?.close());

describe("workspace-gateway mcp with GATEWAY_API_KEY and GATEWAY_TOKEN", () => {
  it("one session creates a document, reads a spreadsheet and searches the drive; the upstream sees the token, never the key", async () => {
    const file = env.sandbox.data.files[0]!;
    const word = file.name.split(/[^A-Za-z0-9]+/).find((w) => w.length > 3) ?? file.name;
    const mcp = await connectStdio({ GATEWAY_URL: env.gateway.url, GATEWAY_API_KEY: key, GATEWAY_TOKEN: env.token });
    try {
      env.sandbox.clearRequests();
      const { documentId } = await expectPairSession(mcp.client, word);
      expect(mcp.client.getInstructions()).not.toMatch(/Not offered/);
      // The document is the key's user's.
      const read = await fetch(`${env.gateway.url}/api/v1/documents/${documentId}`, { headers: { authorization: `Bearer ${key}` } });
      expect(read.status).toBe(200);
      expect(env.sandbox.requests.length).toBeGreaterThan(0);
      for (const request of env.sandbox.requests) {
        expect(request.headers["authorization"]).toBe(`Bearer ${env.token}`);
        expect(JSON.stringify(request.headers)).not.toContain(key);
      }
    } finally {
      await mcp.close();
    }
  });

  it("a personal API key as GATEWAY_TOKEN beside GATEWAY_API_KEY stops it at start-up (a key is never forwarded)", async () => {
    const run = await runStdioToExit({ GATEWAY_URL: env.gateway.url, GATEWAY_API_KEY: key, GATEWAY_TOKEN: key });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/GATEWAY_API_KEY or GATEWAY_TOKEN was rejected by .*X-Access-Token takes a product access token/);
  });
});
