// The MCP tools of every product (docs/api.md "MCP"), through the real MCP SDK client against a real
// gateway on an ephemeral port and the sandbox upstream: tools/list with annotations and output
// schemas, one tools/call per product over HTTP (and over stdio), paging an agent can follow,
// MCP_TOOLS (read-only, names, an unknown name stopping start-up).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGatewayFor, startProductsEnv, type ProductsEnv } from "../products/harness.ts";
import { readOnlyTools } from "../helpers/surface.ts";
import { ALL_TOOLS, expectDriveToolSchemas, textOf } from "./mcp-cases.ts";
import { connectStdio, runStdioToExit } from "./stdio-client.ts";

interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

/** The read-only tools: what MCP_TOOLS=read-only offers (docs/surface.json). */
const READ_ONLY = readOnlyTools;

let env: ProductsEnv;

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: "products-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  // Known output schemas make callTool check every structuredContent against them.
  await client.listTools();
  return client;
}

/** A successful call's structured content (fails the test with the tool's text otherwise). */
async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
  expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
}

beforeAll(async () => {
  // Every scope: the session is offered every tool (test/mcp/credential-tools.test.ts filters).
  env = await startProductsEnv({ scope: "docs:read docs:write sheets:read sheets:write" });
});
afterAll(() => env?.close());

describe("tools/list", () => {
  it("lists every tool with truthful annotations and an object output schema", async () => {
    const client = await connect(env.gateway.url, env.token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...ALL_TOOLS].sort());
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expectDriveToolSchemas(byName);
    for (const tool of tools) {
      expect(tool.outputSchema, tool.name).toMatchObject({ type: "object" });
      expect(tool.description, tool.name).toBeTruthy();
      const a = tool.annotations!;
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const)
        expect(typeof a[hint], `${tool.name} ${hint}`).toBe("boolean");
      if (a.readOnlyHint) expect(a.destructiveHint, tool.name).toBe(false);
      if (!tool.name.startsWith("docs_") && !tool.name.startsWith("sheets_")) expect(tool.description, tool.name).toMatch(/access token/);
    }
    expect(
      tools
        .filter((t) => t.annotations!.readOnlyHint)
        .map((t) => t.name)
        .sort(),
    ).toEqual([...READ_ONLY].sort());
    // Sending mail and running workflows act on the world at once, and say so.
    for (const name of ["mail_send", "workflows_run"]) {
      expect(byName[name]!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false, openWorldHint: true });
    }
    expect(byName["mail_send"]!.description).toMatch(/SENDS an email/);
    expect(byName["workflows_run"]!.description).toMatch(/RUNS a tenant workflow/);
    expect(byName["mail_draft"]!.description).toMatch(/nothing is sent/);
    // List tools page with cursor → nextCursor.
    for (const name of ["mail_list", "calendar_events", "invoices_list"]) {
      expect(byName[name]!.inputSchema.properties).toMatchObject({ cursor: { type: "string" }, limit: { type: "integer", maximum: 100 } });
      expect(byName[name]!.outputSchema).toMatchObject({ required: expect.arrayContaining(["data", "nextCursor"]) });
      expect(byName[name]!.description).toMatch(/nextCursor/);
    }
    expect(byName["drive_upload"]!.inputSchema).toMatchObject({
      properties: { content: { type: "string" } },
      required: ["name", "content"],
    });
    await client.close();
  });
});

describe("one tools/call per product over HTTP, the caller's access token forwarded", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(env.gateway.url, env.token);
  });
  afterAll(() => client?.close());

  it("mail: mail_list pages by nextCursor until the end; mail_thread, mail_draft, mail_send", async () => {
    env.sandbox.clearRequests();
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = (await ok(client, "mail_list", { folder: "inbox", limit: 7, ...(cursor ? { cursor } : {}) })) as {
        data: { id: string }[];
        nextCursor: string | null;
      };
      seen.push(...page.data.map((m) => m.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 50);
    const inbox = env.sandbox.data.messages.filter((m) => m.folder === "inbox").map((m) => m.id);
    expect(seen).toEqual(inbox);
    expect(pages).toBeGreaterThan(1);
    expect(env.sandbox.requestsTo("/email/v1/messages", "GET")[0]?.headers["authorization"]).toBe(`Bearer ${env.token}`);

    const thread = env.sandbox.data.threads[0]!;
    expect(await ok(client, "mail_thread", { id: thread.id })).toMatchObject({ id: thread.id, subject: thread.subject });

    const draft = await ok(client, "mail_draft", { to: ["ann@example.com"], subject: "Draft", body: "Not yet" });
    expect(draft).toMatchObject({ subject: "Draft", generated: false });
    expect(env.sandbox.requestsTo("/email/v1/messages", "POST")).toHaveLength(0);

    const sent = await ok(client, "mail_send", { to: ["bob@example.com"], subject: "From an agent", body: "Hello" });
    expect(sent).toMatchObject({ subject: "From an agent", to: [{ email: "bob@example.com" }] });
    expect(env.sandbox.requestsTo("/email/v1/messages", "POST").at(-1)?.body).toEqual({
      to: ["bob@example.com"],
      subject: "From an agent",
      body: "Hello",
    });
  });

  it("calendar and bookings: calendar_events, bookings_create", async () => {
    const events = (await ok(client, "calendar_events", { from: "2026-01-01T00:00:00Z", to: "2026-03-01T00:00:00Z", limit: 5 })) as {
      data: unknown[];
      nextCursor: string | null;
    };
    expect(events.data).toHaveLength(5);
    expect(events.nextCursor).toEqual(expect.any(String));
    const booking = await ok(client, "bookings_create", {
      bookingTypeId: "bt_intro30",
      start: "2026-12-07T10:00:00Z",
      attendee: { name: "Ana", email: "ana@example.com" },
    });
    expect(booking).toMatchObject({ bookingTypeId: "bt_intro30", attendee: { email: "ana@example.com" } });
  });

  it("drive: drive_upload (base64) stores the exact bytes; drive_share, drive_search, drive_get", async () => {
    const bytes = Buffer.from("name,total\nacme,42\n\u00e9\u0000\u00ff");
    const file = (await ok(client, "drive_upload", {
      name: "agent.csv",
      content: bytes.toString("base64"),
      contentType: "text/csv",
      folderId: "fld_finance",
    })) as { id: string; size: number; name: string };
    expect(file).toMatchObject({ name: "agent.csv", size: bytes.length });
    const download = await fetch(`${env.gateway.url}/api/v1/files/${file.id}/content`, {
      headers: { authorization: `Bearer ${env.token}` },
    });
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
    expect(await ok(client, "drive_get", { id: file.id })).toMatchObject({ id: file.id, size: bytes.length });
    const share = await ok(client, "drive_share", { fileId: file.id, permission: "view", emails: ["b@example.com"] });
    expect(share).toMatchObject({ fileId: file.id, permission: "view", url: expect.any(String) });
    const seeded = env.sandbox.data.files[0]!;
    const word = seeded.name.split(/[^A-Za-z0-9]+/).find((w) => w.length > 3) ?? seeded.name;
    expect(((await ok(client, "drive_search", { query: word })) as { files: { id: string }[] }).files.map((f) => f.id)).toContain(
      seeded.id,
    );

    const bad = (await client.callTool({ name: "drive_upload", arguments: { name: "x", content: "not base64!" } })) as ToolResult;
    expect(textOf(bad)).toMatch(/^BAD_USER_INPUT: content/);
  });

  it("search: search_query, then search_chat continuing its session", async () => {
    const answer = (await ok(client, "search_query", { query: "budget", sources: ["mail", "drive"] })) as {
      answer: string;
      sessionId?: string;
    };
    expect(answer.answer).toEqual(expect.any(String));
    const first = (await ok(client, "search_chat", { message: "what is planned?" })) as { sessionId: string };
    const second = await ok(client, "search_chat", { sessionId: first.sessionId, message: "and then?" });
    expect(second).toMatchObject({ sessionId: first.sessionId });
  });

  it("meetings: meetings_create, meetings_transcript, meetings_summary; a meeting not held is NOT_FOUND", async () => {
    const meeting = await ok(client, "meetings_create", {
      title: "Agent sync",
      startsAt: "2026-12-03T15:00:00Z",
      durationMinutes: 45,
      attendees: ["ann@example.com"],
    });
    expect(meeting).toMatchObject({ title: "Agent sync", durationMinutes: 45, joinUrl: expect.any(String) });
    const id = "mtg_weekly_product_sync";
    expect(await ok(client, "meetings_transcript", { id })).toMatchObject({ meetingId: id, segments: expect.any(Array) });
    expect(await ok(client, "meetings_summary", { id })).toMatchObject({ meetingId: id, summary: expect.any(String) });
    expect(textOf(await client.callTool({ name: "meetings_summary", arguments: { id: "mtg_board_prep" } }))).toMatch(/^NOT_FOUND: /);
  });

  it("enterprise, at the token's tenant: invoices_list pages; data_query; workflows_run", async () => {
    env.sandbox.clearRequests();
    const page = (await ok(client, "invoices_list", { limit: 2 })) as { data: { id: string }[]; nextCursor: string };
    expect(page.data).toHaveLength(2);
    const next = (await ok(client, "invoices_list", { limit: 2, cursor: page.nextCursor })) as { data: { id: string }[] };
    expect(next.data.map((i) => i.id)).not.toContain(page.data[0]!.id);
    const invoiceCall = env.sandbox.requests.find((r) => r.path.includes("/api/v1/invoices"));
    expect(invoiceCall?.headers["authorization"]).toBe(`Bearer ${env.token}`);
    expect(await ok(client, "data_query", { question: "totals by customer" })).toMatchObject({
      columns: expect.any(Array),
      rows: expect.any(Array),
    });
    const run = await ok(client, "workflows_run", { id: "wf_invoice_reminder", input: { month: "2026-01" } });
    expect(run).toMatchObject({ workflowId: "wf_invoice_reminder", runId: expect.any(String) });
  });

  it("a personal API key is FORBIDDEN on product tools, saying an access token is needed", async () => {
    const withKey = await connect(env.gateway.url, await env.gateway.key({ user: "mcp-key" }));
    const refused = (await withKey.callTool({ name: "mail_list", arguments: {} })) as ToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^FORBIDDEN: .*access token/);
    await withKey.close();
  });
});

describe("the same product tools over stdio (workspace-gateway mcp, through the typed tRPC client)", () => {
  it("mail_list, drive_upload and workflows_run with an access token in GATEWAY_API_KEY", async () => {
    const mcp = await connectStdio({ GATEWAY_URL: env.gateway.url, GATEWAY_API_KEY: env.token });
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...ALL_TOOLS].sort());
      env.sandbox.clearRequests();
      const page = (await ok(mcp.client, "mail_list", { limit: 3 })) as { data: unknown[]; nextCursor: string | null };
      expect(page.data).toHaveLength(3);
      expect(env.sandbox.requestsTo("/email/v1/messages", "GET")[0]?.headers["authorization"]).toBe(`Bearer ${env.token}`);
      const bytes = Buffer.from("stdio upload \u2713");
      const file = (await ok(mcp.client, "drive_upload", {
        name: "stdio.txt",
        content: bytes.toString("base64"),
        contentType: "text/plain",
      })) as { id: string; size: number };
      expect(file.size).toBe(bytes.length);
      const download = await fetch(`${env.gateway.url}/api/v1/files/${file.id}/content`, {
        headers: { authorization: `Bearer ${env.token}` },
      });
      expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
      expect(await ok(mcp.client, "workflows_run", { id: "wf_month_end_close" })).toMatchObject({ workflowId: "wf_month_end_close" });
    } finally {
      await mcp.close();
    }
  });

  it("MCP_TOOLS=read-only offers the read-only tools only", async () => {
    const mcp = await connectStdio({ GATEWAY_URL: env.gateway.url, GATEWAY_TOKEN: env.token, MCP_TOOLS: "read-only" });
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...READ_ONLY].sort());
    } finally {
      await mcp.close();
    }
  });

  it("an unknown MCP_TOOLS name is a start-up error naming MCP_TOOLS", async () => {
    const run = await runStdioToExit({ GATEWAY_URL: env.gateway.url, GATEWAY_TOKEN: env.token, MCP_TOOLS: "mail_list,mail_delete" });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/MCP_TOOLS: unknown tool "mail_delete"/);
  });
});

describe("MCP_TOOLS on the gateway", () => {
  it("read-only: tools/list shows only read-only tools, and a write tool is unknown", async () => {
    const gateway = await startGatewayFor(env.sandbox, { MCP_TOOLS: "read-only" });
    try {
      const client = await connect(gateway.url, env.token);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...READ_ONLY].sort());
      for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      const refused = (await client.callTool({
        name: "mail_send",
        arguments: { to: ["x@example.com"], subject: "s", body: "b" },
      })) as ToolResult;
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^NOT_FOUND: Unknown tool mail_send/);
      expect(await ok(client, "mail_list", { limit: 1 })).toMatchObject({ data: expect.any(Array) });
      await client.close();
    } finally {
      await gateway.close();
    }
  });

  it("a list of names (and read-only with extra names) offers exactly those", async () => {
    const gateway = await startGatewayFor(env.sandbox, { MCP_TOOLS: " mail_draft , docs_read" });
    try {
      const client = await connect(gateway.url, env.token);
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["docs_read", "mail_draft"]);
      await client.close();
    } finally {
      await gateway.close();
    }
  });

  it("an unknown name stops start-up with a configuration error naming MCP_TOOLS", async () => {
    await expect(startGatewayFor(env.sandbox, { MCP_TOOLS: "read-only,mail_delete" })).rejects.toThrow(
      /MCP_TOOLS: unknown tool "mail_delete"/,
    );
  });
});
