// MCP behaviour shared by the HTTP and stdio transports: the same client calls, the same answers.
import { readFile } from "node:fs/promises";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "vitest";
import { fixturesDir } from "../helpers/gateway.ts";
import { allTools } from "../helpers/surface.ts";

interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

/** Every tool the gateway offers: docs/api.md "MCP" (contract §8), as docs/surface.json lists them. */
export const ALL_TOOLS = allTools;

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

/**
 * One MCP session configured with a personal API key and a product access token (contract §2 "Two
 * credentials on one request"): it is offered every tool the pair allows, creates a document and
 * reads a spreadsheet (authorised by the key: they are the key's user's) and searches the drive
 * (the token forwarded upstream). `driveWord` must match a seeded drive file; the caller checks
 * what the upstream received.
 */
export async function expectPairSession(client: Client, driveWord: string): Promise<{ documentId: string; spreadsheetId: string }> {
  const listed = (await client.listTools()).tools.map((tool) => tool.name);
  for (const name of ["docs_create", "sheets_create", "sheets_read", "drive_search", "mail_list"]) expect(listed).toContain(name);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as ToolResult;
    expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
    return result.structuredContent as Record<string, unknown>;
  };
  const document = await call("docs_create", { name: "Pair plan", markdown: "# Pair plan\n\nWritten with the key." });
  const sheet = await call("sheets_create", {
    name: "Pair numbers",
    sheets: [
      {
        name: "First",
        values: [
          ["item", "qty"],
          ["pens", 3],
        ],
      },
    ],
  });
  const read = await call("sheets_read", { id: sheet["id"], range: "A1:B2" });
  expect(JSON.stringify(read)).toContain("pens");
  const found = await call("drive_search", { query: driveWord });
  expect((found["files"] as unknown[]).length).toBeGreaterThan(0);
  return { documentId: document["id"] as string, spreadsheetId: sheet["id"] as string };
}

/** Every `url`/`downloadUrl` string anywhere in a value (records, lists, nested records). */
export function linksIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) linksIn(item, found);
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if ((key === "url" || key === "downloadUrl") && typeof item === "string") found.push(item);
      else linksIn(item, found);
    }
  }
  return found;
}

/**
 * The documents and spreadsheet tools that answer with records, one call each; every link in each
 * result (its structuredContent and its JSON text) must start with `origin`. `key` is a credential
 * with every documents and spreadsheet scope.
 */
export async function expectAbsoluteLinks(client: Client, origin: string): Promise<void> {
  const results: [string, ToolResult][] = [];
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as ToolResult;
    expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
    results.push([name, result]);
    return result.structuredContent as Record<string, unknown>;
  };
  const doc = await call("docs_create", { name: "Links", markdown: "# Links" });
  await call("docs_update", { id: doc["id"], name: "Links, renamed" });
  await call("docs_list", {});
  await call("docs_share", { id: doc["id"] });
  const sheet = await call("sheets_create", { name: "Links", sheets: [{ name: "S", values: [["a", 1]] }] });
  const id = sheet["id"];
  await call("sheets_list", {});
  await call("sheets_describe", { id });
  await call("sheets_write", { id, range: "A2:B2", values: [["b", 2]] });
  await call("sheets_append", { id, values: [["c", 3]] });
  await call("sheets_edit", { id, operations: [{ addSheet: { name: "T" } }] });
  await call("sheets_share", { id });
  for (const [name, result] of results) {
    const text = result.content.map((block) => block.text ?? "").join("\n");
    const fromText = text.trimStart().startsWith("{") ? linksIn(JSON.parse(text)) : [];
    const links = [...linksIn(result.structuredContent), ...fromText];
    for (const link of links) expect(link.startsWith(`${origin}/`), `${name}: ${link}`).toBe(true);
  }
  const linked = results.filter(([, result]) => linksIn(result.structuredContent).length > 0).map(([name]) => name);
  expect(linked).toEqual(
    expect.arrayContaining(["docs_create", "sheets_create", "sheets_write", "sheets_append", "sheets_edit", "sheets_share"]),
  );
}
