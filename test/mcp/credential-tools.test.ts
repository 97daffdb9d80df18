// Issue 26 point 2: MCP offers only the tools the session's credential can use. A personal API key
// lists the documents and spreadsheet tools its scopes allow and no product tool; a verified access
// token lists the products too (and the documents tools its scopes allow); the server's
// instructions say which credential unlocks the rest. Over HTTP and over stdio alike.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationOf } from "../../src/services/operations/index.ts";
import { tools as allTools } from "../../src/mcp/tools.ts";
import { signAccessToken, startProductsEnv, type ProductsEnv } from "../products/harness.ts";
import { ALL_TOOLS, textOf } from "./mcp-cases.ts";
import { connectStdio } from "./stdio-client.ts";

const productTools = allTools.filter((t) => operationOf(t.operation).auth === "access_token").map((t) => t.name);
const ownTools = ALL_TOOLS.filter((name) => !productTools.includes(name));
const ALL_SCOPES = ["docs:read", "docs:write", "sheets:read", "sheets:write"];

let env: ProductsEnv;
beforeAll(async () => {
  env = await startProductsEnv();
});
afterAll(() => env?.close());

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: "credential-tools-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${env.gateway.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();

describe("over HTTP", () => {
  it("an API key with every scope: the documents and spreadsheet tools, no product tool; the instructions say an access token unlocks them", async () => {
    const client = await connect(await env.gateway.key({ user: "key-all", scopes: ALL_SCOPES }));
    try {
      expect(productTools).toContain("mail_list");
      expect(await names(client)).toEqual([...ownTools].sort());
      const instructions = client.getInstructions() ?? "";
      expect(instructions).toMatch(/Not offered to this credential: .*mail_list.*; they need an access token/);
      // Called anyway, a withheld tool says why, as the runner would.
      const refused = await client.callTool({ name: "mail_list", arguments: {} });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^FORBIDDEN: .*access token/);
    } finally {
      await client.close();
    }
  });

  it("an API key with docs:read only: the documents' read tools (and the trash's), nothing that writes", async () => {
    const client = await connect(await env.gateway.key({ user: "key-read", scopes: ["docs:read"] }));
    try {
      const listed = await names(client);
      expect(listed).toEqual(expect.arrayContaining(["docs_list", "docs_read", "docs_versions"]));
      for (const name of ["docs_create", "docs_update", "sheets_list", "sheets_read", "mail_list"]) expect(listed).not.toContain(name);
      expect(client.getInstructions()).toMatch(/docs_create.*docs:write scope/);
      expect(client.getInstructions()).toMatch(/sheets_list.*sheets:read scope/);
    } finally {
      await client.close();
    }
  });

  it("a verified access token with every scope: every tool, nothing withheld", async () => {
    const token = await signAccessToken({ sub: "user-1", tenant: "acme", scope: ALL_SCOPES.join(" ") });
    const client = await connect(token);
    try {
      expect(await names(client)).toEqual([...ALL_TOOLS].sort());
      expect(client.getInstructions()).not.toMatch(/Not offered/);
    } finally {
      await client.close();
    }
  });

  it("a verified access token with docs scopes only: the products and the documents tools, not the spreadsheet ones", async () => {
    const client = await connect(env.token);
    try {
      const listed = await names(client);
      expect(listed).toEqual(expect.arrayContaining([...productTools, "docs_create", "docs_read"]));
      expect(listed.filter((name) => name.startsWith("sheets_"))).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe("over stdio (workspace-gateway mcp), from the gateway's viewer", () => {
  it("an API key: the same tools as over HTTP, and the same instructions", async () => {
    const key = await env.gateway.key({ user: "key-stdio", scopes: ALL_SCOPES });
    const mcp = await connectStdio({ GATEWAY_URL: env.gateway.url, GATEWAY_API_KEY: key });
    try {
      expect(await names(mcp.client)).toEqual([...ownTools].sort());
      expect(mcp.client.getInstructions()).toMatch(/Not offered to this credential: .*mail_list.*; they need an access token/);
    } finally {
      await mcp.close();
    }
  });
});
