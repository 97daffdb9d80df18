// MCP behaviour shared by the HTTP and stdio transports: the same client calls, the same answers.
import { readFile } from "node:fs/promises";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "vitest";
import { fixturesDir } from "../helpers/gateway.ts";

interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

/** Every tool the gateway offers: docs/api.md "MCP" (contract §8). */
export const ALL_TOOLS = [
  "docs_list",
  "docs_read",
  "docs_create",
  "docs_update",
  "docs_delete",
  "docs_versions",
  "docs_restore",
  "docs_share",
  // Issue 26 point 3: the rest of the documents operations an agent needs.
  "docs_import",
  "docs_trash",
  "docs_purge",
  "docs_shares",
  "docs_revoke_share",
  "sheets_list",
  "sheets_describe",
  "sheets_create",
  "sheets_import",
  "sheets_read",
  "sheets_write",
  "sheets_append",
  "sheets_edit",
  "sheets_evaluate",
  // Issue 38: defined names through the API.
  "sheets_names",
  "sheets_define_name",
  "sheets_delete_name",
  "sheets_delete",
  "sheets_versions",
  "sheets_restore",
  "sheets_share",
  "drive_search",
  "drive_get",
  "drive_read",
  "mail_list",
  "mail_thread",
  "mail_send",
  "mail_draft",
  "calendar_events",
  "bookings_create",
  "drive_upload",
  "drive_share",
  "search_query",
  "search_chat",
  "meetings_create",
  "meetings_transcript",
  "meetings_summary",
  "invoices_list",
  "data_query",
  "workflows_run",
] as const;

/**
 * What a personal API key with the documents scopes only (docs:read, docs:write: the test keys')
 * is offered: the documents tools; no spreadsheet tool (no sheets scope), no product tool (an API
 * key is never forwarded upstream). See test/mcp/credential-tools.test.ts.
 */
export const DOCS_KEY_TOOLS = ALL_TOOLS.filter((name) => name.startsWith("docs_"));

export const textOf = (result: unknown) => (result as ToolResult).content[0]?.text ?? "";

export async function expectToolList(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual([...DOCS_KEY_TOOLS].sort());
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  expect(byName["docs_create"]!.inputSchema).toMatchObject({
    type: "object",
    properties: {
      name: { type: "string", minLength: 1, maxLength: 255 },
      markdown: { type: "string", maxLength: 400_000 },
      // Advertised so that a retrying agent does not create the document twice.
      idempotencyKey: { type: "string", minLength: 1, maxLength: 255, description: expect.stringMatching(/retry/) },
    },
  });
  expect(byName["docs_create"]!.inputSchema.required).toEqual(["name", "markdown"]);
  expect(byName["docs_list"]!.inputSchema).toMatchObject({
    type: "object",
    properties: {
      query: { type: "string", maxLength: 255 },
      limit: { type: "integer", minimum: 1, maximum: 100, default: 50 },
      cursor: { type: "string" },
    },
  });
  expect(byName["docs_list"]!.inputSchema.required ?? []).toEqual([]);
  expect(byName["docs_read"]!.inputSchema).toMatchObject({
    type: "object",
    properties: { id: { type: "string" }, maxChars: { type: "integer", minimum: 1, maximum: 1_000_000, default: 20_000 } },
    required: ["id"],
  });
  expect(byName["docs_read"]!.description).toMatch(/20,000/);
  expect(byName["docs_create"]!.description).toMatch(/400,000/);
  for (const tool of tools) expect(tool.description, tool.name).toBeTruthy();
  // Every tool's result is structured, and says so; the SDK client checks results against it.
  for (const tool of tools) expect(tool.outputSchema, tool.name).toMatchObject({ type: "object" });
  expect(byName["docs_list"]!.outputSchema).toMatchObject({ required: ["documents", "nextCursor"] });
  expect(byName["docs_read"]!.outputSchema).toMatchObject({
    properties: { text: { type: "string" }, truncated: { type: "boolean" }, totalChars: { type: "integer" } },
  });
  expect(byName["docs_create"]!.outputSchema!.required).toEqual(expect.arrayContaining(["id", "downloadUrl", "characters"]));
}

/** The drive tools' schemas, as an access token sees them listed (test/mcp/products.test.ts). */
export function expectDriveToolSchemas(
  byName: Record<string, { inputSchema: unknown; outputSchema?: unknown; description?: string }>,
): void {
  expect(byName["drive_search"]!.inputSchema).toMatchObject({
    type: "object",
    properties: { query: { type: "string", minLength: 1, maxLength: 1000, description: expect.any(String) } },
    required: ["query"],
  });
  expect(byName["drive_get"]!.inputSchema).toMatchObject({
    type: "object",
    properties: { id: { type: "string", minLength: 1, maxLength: 256, description: expect.any(String) } },
    required: ["id"],
  });
  for (const name of ["drive_search", "drive_get"]) expect(byName[name]!.description).toMatch(/access token/);
  expect((byName["drive_get"]!.outputSchema as { required: string[] }).required).not.toContain("parentId");
  expect(byName["drive_search"]!.outputSchema).toMatchObject({ required: ["files"] });
}

/** Creates the kitchen-sink document through MCP, finds it, reads it; returns its id. */
export async function expectDocumentRoundTrip(client: Client, name: string): Promise<string> {
  // Listing the tools makes the SDK client check every structuredContent against its outputSchema.
  await client.listTools();
  const markdown = await readFile(new URL("kitchen-sink.md", fixturesDir), "utf8");
  const created = (await client.callTool({ name: "docs_create", arguments: { name, markdown } })) as ToolResult;
  expect(created.isError, textOf(created)).toBeFalsy();
  const doc = JSON.parse(textOf(created)) as { id: string; name: string; characters: number };
  expect(doc).toMatchObject({ name });
  expect(created.structuredContent).toMatchObject({ id: doc.id });

  const all = (await client.callTool({ name: "docs_list", arguments: {} })) as ToolResult;
  expect((JSON.parse(textOf(all)) as { documents: { id: string }[] }).documents.map((d) => d.id)).toContain(doc.id);
  const found = (await client.callTool({ name: "docs_list", arguments: { query: name.toUpperCase(), limit: 5 } })) as ToolResult;
  expect((JSON.parse(textOf(found)) as { documents: { id: string }[] }).documents.map((d) => d.id)).toEqual([doc.id]);

  const read = (await client.callTool({ name: "docs_read", arguments: { id: doc.id } })) as ToolResult;
  expect(read.isError).toBeFalsy();
  expect(textOf(read)).toMatch(/^Launch plan — Nordwind & Partners\n/);
  expect(read.structuredContent).toMatchObject({ id: doc.id, truncated: false, totalChars: doc.characters });
  expect(read.content).toHaveLength(1);
  const small = (await client.callTool({ name: "docs_read", arguments: { id: doc.id, maxChars: 9 } })) as ToolResult;
  expect(textOf(small)).toBe("Launch pl");
  expect(small.structuredContent).toMatchObject({ truncated: true });
  // Hosts that show only `content` must still see that the text was cut short.
  expect(small.content[1]).toEqual({
    type: "text",
    text: `[truncated: showing 9 of ${doc.characters.toLocaleString("en")} characters; call docs_read again with a larger maxChars (up to 1,000,000)]`,
  });

  // A retried docs_create with the same idempotencyKey answers with the first document.
  const idempotencyKey = `retry-${name}`;
  const first = (await client.callTool({
    name: "docs_create",
    arguments: { name: `${name} (retried)`, markdown: "# Once", idempotencyKey },
  })) as ToolResult;
  const again = (await client.callTool({
    name: "docs_create",
    arguments: { name: `${name} (retried)`, markdown: "# Once", idempotencyKey },
  })) as ToolResult;
  expect(first.isError, textOf(first)).toBeFalsy();
  expect((again.structuredContent as { id: string }).id).toBe((first.structuredContent as { id: string }).id);
  const retried = (await client.callTool({ name: "docs_list", arguments: { query: `${name} (retried)` } })) as ToolResult;
  expect((retried.structuredContent as { documents: unknown[] }).documents).toHaveLength(1);
  return doc.id;
}

export async function expectToolErrors(client: Client): Promise<void> {
  // With the output schemas known, an error result that carried non-conforming structuredContent
  // would make callTool throw instead of returning the isError result.
  await client.listTools();
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;
  const tooBig = await call("docs_create", { name: "big", markdown: "x".repeat(400_001) });
  expect(tooBig.isError).toBe(true);
  expect(textOf(tooBig)).toMatch(/^PAYLOAD_TOO_LARGE: /);
  const unknown = await call("docs_read", { id: "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A" });
  expect(unknown.isError).toBe(true);
  expect(textOf(unknown)).toMatch(/^NOT_FOUND: /);
  expect(unknown.structuredContent).toBeUndefined();
  for (const args of [{ id: 42 }, { id: "doc_x", maxChars: "many" }, { id: "doc_x", maxChars: 0 }]) {
    const bad = await call("docs_read", args);
    expect(bad.isError, JSON.stringify(args)).toBe(true);
    expect(textOf(bad)).toMatch(/^BAD_USER_INPUT: /);
  }
  const badCreate = await call("docs_create", { name: 7, markdown: "x" });
  expect(textOf(badCreate)).toMatch(/^BAD_USER_INPUT: /);
  // And the server keeps serving.
  const list = await call("docs_list", {});
  expect(list.isError).toBeFalsy();
}

/** A credential without docs:read (here: docs:write only) may neither list nor read. */
export async function expectReadScopeRequired(client: Client): Promise<void> {
  for (const [name, args] of [
    ["docs_list", {}],
    ["docs_read", { id: "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A" }],
  ] as const) {
    const result = (await client.callTool({ name, arguments: args })) as ToolResult;
    expect(result.isError, name).toBe(true);
    expect(textOf(result), name).toMatch(/^FORBIDDEN: .*docs:read/);
  }
}
