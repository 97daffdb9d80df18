// The MCP drive tools against the sandbox upstream, with a forwarded access token.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductsEnv, type ProductsEnv } from "../products/harness.ts";
import { textOf } from "./mcp-cases.ts";
import { connectStdio } from "./stdio-client.ts";

let env: ProductsEnv;

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: "drive-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${env.gateway.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  // Known output schemas make callTool check each structuredContent against them.
  await client.listTools();
  return client;
}

beforeAll(async () => {
  env = await startProductsEnv();
});
afterAll(() => env.close());

describe("MCP drive tools", () => {
  it("drive_get returns a file's metadata, forwarding the caller's token", async () => {
    const file = env.sandbox.data.files[0]!;
    const client = await connect(env.token);
    env.sandbox.clearRequests();
    const result = await client.callTool({ name: "drive_get", arguments: { id: file.id } });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(JSON.parse(textOf(result))).toMatchObject({ id: file.id, name: file.name, mimeType: file.mimeType });
    const [request] = env.sandbox.requestsTo(`/drive/v1/files/${file.id}`, "GET");
    expect(request?.headers["authorization"]).toBe(`Bearer ${env.token}`);
    await client.close();
  });

  it("drive_search returns matching files", async () => {
    const file = env.sandbox.data.files[0]!;
    const word = file.name.split(/[^A-Za-z0-9]+/).find((w) => w.length > 3) ?? file.name;
    const client = await connect(env.token);
    const result = await client.callTool({ name: "drive_search", arguments: { query: word } });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { files } = JSON.parse(textOf(result)) as { files: { id: string }[] };
    expect(files.map((f) => f.id)).toContain(file.id);
    expect(env.sandbox.requestsTo("/drive/v1/search", "POST").at(-1)?.body).toEqual({ query: word });
    await client.close();
  });

  it("unknown file → NOT_FOUND; an API key → FORBIDDEN; bad arguments → BAD_USER_INPUT", async () => {
    const client = await connect(env.token);
    expect(textOf(await client.callTool({ name: "drive_get", arguments: { id: "no-such-file" } }))).toMatch(/^NOT_FOUND: /);
    expect(textOf(await client.callTool({ name: "drive_search", arguments: { query: 5 } }))).toMatch(/^BAD_USER_INPUT: /);
    await client.close();
    const withKey = await connect(await env.gateway.key({ user: "mcp-key" }));
    const refused = await withKey.callTool({ name: "drive_search", arguments: { query: "budget" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^FORBIDDEN: .*access token/);
    await withKey.close();
  });
});

describe("MCP drive tools over stdio", () => {
  it("work with an access token in GATEWAY_TOKEN, forwarded through the gateway to the upstream", async () => {
    const file = env.sandbox.data.files[0]!;
    const mcp = await connectStdio({ GATEWAY_URL: env.gateway.url, GATEWAY_TOKEN: env.token });
    try {
      await mcp.client.listTools();
      env.sandbox.clearRequests();
      const got = await mcp.client.callTool({ name: "drive_get", arguments: { id: file.id } });
      expect(got.isError, textOf(got)).toBeFalsy();
      expect(JSON.parse(textOf(got))).toMatchObject({ id: file.id, name: file.name });
      expect(env.sandbox.requestsTo(`/drive/v1/files/${file.id}`, "GET")[0]?.headers["authorization"]).toBe(`Bearer ${env.token}`);
      const word = file.name.split(/[^A-Za-z0-9]+/).find((w) => w.length > 3) ?? file.name;
      const found = await mcp.client.callTool({ name: "drive_search", arguments: { query: word } });
      expect(found.isError, textOf(found)).toBeFalsy();
      expect((JSON.parse(textOf(found)) as { files: { id: string }[] }).files.map((f) => f.id)).toContain(file.id);
    } finally {
      await mcp.close();
    }
  });

  it("the same access token works in GATEWAY_API_KEY", async () => {
    const file = env.sandbox.data.files[0]!;
    const mcp = await connectStdio({ GATEWAY_URL: env.gateway.url, GATEWAY_API_KEY: env.token });
    try {
      const got = await mcp.client.callTool({ name: "drive_get", arguments: { id: file.id } });
      expect(got.isError, textOf(got)).toBeFalsy();
    } finally {
      await mcp.close();
    }
  });

  it("with a personal API key, drive tools are FORBIDDEN and say an access token is needed", async () => {
    const mcp = await connectStdio({ GATEWAY_URL: env.gateway.url, GATEWAY_API_KEY: await env.gateway.key({ user: "stdio-key" }) });
    try {
      const refused = await mcp.client.callTool({ name: "drive_get", arguments: { id: env.sandbox.data.files[0]!.id } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^FORBIDDEN: .*access token/);
    } finally {
      await mcp.close();
    }
  });
});
