// Living documents through MCP (docs/api.md "MCP"), with the SDK's own client against a real
// gateway: over Streamable HTTP (the service backend) and over stdio (`workspace-gateway mcp`, the
// tRPC backend). Every tool's structuredContent is checked by the client against its outputSchema.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { textOf } from "./mcp-cases.ts";
import { connectStdio } from "./stdio-client.ts";

interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}
type Record_ = { id: string; name: string; version: number; url: string; downloadUrl: string };

let tg: TestGateway;
let key: string;

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: "living-documents-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${tg.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  // Known output schemas make callTool check every structuredContent against them.
  await client.listTools();
  return client;
}

/** A tool's structured result; fails on an error result. */
async function ok<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
  return result.structuredContent as T;
}

/** A tool's error text ("CODE: message"). */
async function failure(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  expect(result.isError, name).toBe(true);
  return textOf(result);
}

/** The edit cycle every backend must support: create, read as markdown, update with expectedVersion, versions, restore, delete, restore from trash. */
async function editCycle(client: Client, label: string): Promise<void> {
  const created = await ok<Record_>(client, "docs_create", { name: label, markdown: "# Notes\n\nFirst **draft**." });
  expect(created).toMatchObject({ version: 1, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/documents\/doc_/) });
  const markdown = await ok<{ text: string; format: string; version: number }>(client, "docs_read", { id: created.id, format: "markdown" });
  expect(markdown).toMatchObject({ format: "markdown", version: 1 });
  expect(markdown.text).toMatch(/^# Notes\n\nFirst \*\*draft\*\*/);

  const updated = await ok<Record_>(client, "docs_update", {
    id: created.id,
    markdown: `${markdown.text}\n\nSecond paragraph.`,
    expectedVersion: 1,
  });
  expect(updated).toMatchObject({ id: created.id, version: 2, downloadUrl: expect.stringMatching(/^http:.*\/content$/) });
  const renamed = await ok<Record_>(client, "docs_update", { id: created.id, name: `${label} (renamed)` });
  expect(renamed).toMatchObject({ name: `${label} (renamed)`, version: 3 });
  expect(await failure(client, "docs_update", { id: created.id, markdown: "# Lost", expectedVersion: 2 })).toMatch(
    /^PRECONDITION_FAILED: .*version 3/,
  );
  expect(await failure(client, "docs_update", { id: created.id })).toMatch(/^BAD_USER_INPUT: /);
  expect((await ok<{ text: string }>(client, "docs_read", { id: created.id })).text).toBe("Notes\n\nFirst draft.\n\nSecond paragraph.");

  const versions = await ok<{ versions: { version: number; source: string }[]; nextCursor: string | null }>(client, "docs_versions", {
    id: created.id,
    limit: 2,
  });
  expect(versions.versions.map((v) => [v.version, v.source])).toEqual([
    [3, "rename"],
    [2, "markdown"],
  ]);
  const older = await ok<{ versions: { version: number }[]; nextCursor: string | null }>(client, "docs_versions", {
    id: created.id,
    cursor: versions.nextCursor,
  });
  expect(older).toEqual({ versions: [expect.objectContaining({ version: 1 })], nextCursor: null });
  const first = await ok<{ text: string; version: number; name: string }>(client, "docs_read", { id: created.id, version: 1 });
  expect(first).toMatchObject({ text: "Notes\n\nFirst draft.", version: 1, name: label });

  expect(await failure(client, "docs_restore", { id: created.id, version: 1, expectedVersion: 2 })).toMatch(/^PRECONDITION_FAILED: /);
  const restored = await ok<Record_>(client, "docs_restore", { id: created.id, version: 1, expectedVersion: 3 });
  expect(restored).toMatchObject({ version: 4, name: `${label} (renamed)` });
  expect((await ok<{ text: string }>(client, "docs_read", { id: created.id })).text).toBe("Notes\n\nFirst draft.");

  expect(await failure(client, "docs_delete", { id: created.id, expectedVersion: 3 })).toMatch(/^PRECONDITION_FAILED: /);
  expect(await ok(client, "docs_delete", { id: created.id, expectedVersion: 4 })).toEqual({ id: created.id, deleted: true, inTrash: true });
  expect(await failure(client, "docs_read", { id: created.id })).toMatch(/^NOT_FOUND: /);
  expect(await failure(client, "docs_versions", { id: created.id })).toMatch(/^NOT_FOUND: /);
  const listed = await ok<{ documents: { id: string }[] }>(client, "docs_list", { query: label });
  expect(listed.documents).toEqual([]);
  expect(await failure(client, "docs_restore", { id: created.id, expectedVersion: 4 })).toMatch(/^BAD_USER_INPUT: expectedVersion/);
  const back = await ok<Record_>(client, "docs_restore", { id: created.id });
  expect(back).toMatchObject({ id: created.id, version: 4 });
  expect((await ok<{ documents: { id: string }[] }>(client, "docs_list", { query: label })).documents.map((d) => d.id)).toEqual([
    created.id,
  ]);
}

beforeAll(async () => {
  tg = await startTestGateway();
  key = await tg.key({ user: "agent" });
});
afterAll(() => tg.close());

describe("living documents over MCP (Streamable HTTP)", () => {
  it("lists the new tools with truthful annotations; read-only ones only where nothing changes", async () => {
    const client = await connect(key);
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName["docs_versions"]?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    expect(byName["docs_delete"]?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: false });
    expect(byName["docs_update"]?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(byName["docs_restore"]?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(byName["docs_share"]?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
    expect(byName["docs_read"]?.inputSchema.properties).toMatchObject({
      format: { enum: ["text", "markdown"], default: "text" },
      version: { type: "integer" },
    });
    expect(byName["docs_update"]?.inputSchema).toMatchObject({
      properties: { expectedVersion: { type: "integer" } },
      required: ["id"],
      additionalProperties: false,
    });
    expect(byName["docs_update"]?.description).toMatch(/PRECONDITION_FAILED/);
    expect(byName["docs_delete"]?.description).toMatch(/30 days/);
    expect(byName["docs_versions"]?.outputSchema).toMatchObject({ properties: { versions: { type: "array" } } });
    expect(byName["docs_share"]?.outputSchema).toMatchObject({ properties: { url: { type: "string" } } });
    await client.close();
  });

  it("create → read markdown → update (expectedVersion) → rename → versions → read and restore an old version → delete → restore from the trash", async () => {
    const client = await connect(key);
    await editCycle(client, "MCP living");
    await client.close();
  });

  it("docs_share gives an absolute link that reads without a credential; revoked elsewhere, it is 404", async () => {
    const client = await connect(key);
    const doc = await ok<Record_>(client, "docs_create", { name: "Shared by an agent", markdown: "Share me." });
    const share = await ok<{ id: string; url: string; expiresAt: string; createdAt: string }>(client, "docs_share", {
      id: doc.id,
      expiresInSeconds: 120,
    });
    expect(share.url).toMatch(new RegExp(`^${tg.url}/api/v1/shared/wgs_[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(share.expiresAt) - Date.parse(share.createdAt)).toBe(120_000);
    const read = await fetch(share.url);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: doc.id, text: "Share me." });
    expect(await failure(client, "docs_share", { id: doc.id, expiresInSeconds: 10 })).toMatch(/^BAD_USER_INPUT: /);

    const revoke = await fetch(`${tg.url}/api/v1/documents/${doc.id}/shares/${share.id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${key}` },
    });
    expect(revoke.status).toBe(204);
    expect((await fetch(share.url)).status).toBe(404);
    await client.close();
  });

  it("another user's documents, versions and trash are NOT_FOUND to every new tool", async () => {
    const owner = await connect(key);
    const doc = await ok<Record_>(owner, "docs_create", { name: "Not yours", markdown: "Mine." });
    const trashed = await ok<Record_>(owner, "docs_create", { name: "Not yours either", markdown: "Mine too." });
    await ok(owner, "docs_delete", { id: trashed.id });
    const other = await connect(await tg.key({ user: "someone-else" }));
    for (const [name, args] of [
      ["docs_read", { id: doc.id, version: 1 }],
      ["docs_versions", { id: doc.id }],
      ["docs_update", { id: doc.id, markdown: "hijacked" }],
      ["docs_delete", { id: doc.id }],
      ["docs_restore", { id: doc.id, version: 1 }],
      ["docs_restore", { id: trashed.id }],
      ["docs_share", { id: doc.id }],
    ] as const) {
      expect(await failure(other, name, args), name).toMatch(/^NOT_FOUND: /);
    }
    expect(await ok<{ text: string; version: number }>(owner, "docs_read", { id: doc.id })).toMatchObject({ text: "Mine.", version: 1 });
    await owner.close();
    await other.close();
  });

  it("a key with docs:read only may list versions but not change, delete, restore or share", async () => {
    const owner = await connect(key);
    const doc = await ok<Record_>(owner, "docs_create", { name: "Read only", markdown: "Look." });
    const reader = await connect(await tg.key({ user: "agent", scopes: ["docs:read"] }));
    expect(await ok<{ versions: unknown[] }>(reader, "docs_versions", { id: doc.id })).toMatchObject({
      versions: [expect.objectContaining({ version: 1 })],
    });
    for (const [name, args] of [
      ["docs_update", { id: doc.id, name: "x" }],
      ["docs_delete", { id: doc.id }],
      ["docs_restore", { id: doc.id, version: 1 }],
      ["docs_share", { id: doc.id }],
    ] as const) {
      expect(await failure(reader, name, args), name).toMatch(/^FORBIDDEN: .*docs:write/);
    }
    await owner.close();
    await reader.close();
  });
});

describe("MCP_TOOLS=read-only", () => {
  it("offers docs_versions but none of the writing documents tools", async () => {
    const gateway = await startTestGateway({ MCP_TOOLS: "read-only" });
    try {
      const client = new Client({ name: "ro", version: "1.0.0" });
      const token = await gateway.key();
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["docs_list", "docs_read", "docs_versions"]));
      for (const writer of ["docs_create", "docs_update", "docs_delete", "docs_restore", "docs_share"]) expect(names).not.toContain(writer);
      await client.close();
    } finally {
      await gateway.close();
    }
  });
});

describe("living documents over stdio (the tRPC backend)", () => {
  it("runs the same edit cycle, and docs_share's link is absolute against GATEWAY_URL", async () => {
    const mcp = await connectStdio({ GATEWAY_URL: tg.url, GATEWAY_API_KEY: key });
    try {
      await mcp.client.listTools();
      await editCycle(mcp.client, "stdio living");
      const doc = await ok<Record_>(mcp.client, "docs_create", { name: "stdio share", markdown: "Over stdio." });
      const share = await ok<{ url: string }>(mcp.client, "docs_share", { id: doc.id });
      expect(share.url.startsWith(`${tg.url}/api/v1/shared/`)).toBe(true);
      expect(await (await fetch(share.url)).json()).toMatchObject({ text: "Over stdio." });
    } finally {
      await mcp.close();
    }
  });
});
