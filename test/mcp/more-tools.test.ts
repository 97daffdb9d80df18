// Issue 26 point 3: the operations agents could not reach, as MCP tools (rows of the operation
// table): docs_import (.docx as base64), docs_trash, docs_purge, docs_shares, docs_revoke_share,
// and drive_read (a drive file's text: as it is, a .docx through the documents extraction, an
// .xlsx's first sheet through the spreadsheet import reader), bounded like docs_read. Over HTTP
// and, for the upload and the drive read, over stdio too.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderedDocx } from "../documents/import/docx-fixtures.ts";
import { startProductsEnv, type ProductsEnv } from "../products/harness.ts";
import { textOf } from "./mcp-cases.ts";
import { connectStdio } from "./stdio-client.ts";

interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

let env: ProductsEnv;
let token: string;
let client: Client;

beforeAll(async () => {
  env = await startProductsEnv({ scope: "docs:read docs:write sheets:read sheets:write" });
  // The sandbox knows the env's own token (every scope, so every tool is offered).
  token = env.token;
  client = new Client({ name: "more-tools-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${env.gateway.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  // Known output schemas: callTool checks every structuredContent against them.
  await client.listTools();
});
afterAll(async () => {
  await client?.close();
  await env?.close();
});

async function call(name: string, args: Record<string, unknown>, on: Client = client): Promise<ToolResult> {
  return (await on.callTool({ name, arguments: args })) as ToolResult;
}
async function ok<T = Record<string, unknown>>(name: string, args: Record<string, unknown>, on: Client = client): Promise<T> {
  const result = await call(name, args, on);
  expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
  return result.structuredContent as T;
}

const base64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");

describe("documents", () => {
  it("docs_import stores a base64 .docx as a document whose text docs_read gives", async () => {
    const docx = await renderedDocx("# Imported plan\n\nThe plan, imported.\n\n- first\n- second\n");
    const created = await ok<{ id: string; name: string; version: number }>("docs_import", {
      name: "Imported plan",
      content: base64(docx),
    });
    expect(created).toMatchObject({ name: "Imported plan", version: 1 });
    const read = await ok<{ text: string }>("docs_read", { id: created.id });
    expect(read.text).toBe("Imported plan\n\nThe plan, imported.\n\nfirst\n\nsecond");
    const notDocx = await call("docs_import", { name: "Nope", content: base64("plain text, not a package") });
    expect(notDocx.isError).toBe(true);
    expect(textOf(notDocx)).toMatch(/^UNSUPPORTED_MEDIA_TYPE: /);
  });

  it("docs_shares lists a share docs_share made (no token); docs_revoke_share ends it", async () => {
    const { id } = await ok<{ id: string }>("docs_create", { name: "Shared", markdown: "# Shared" });
    const share = await ok<{ id: string; url: string }>("docs_share", { id });
    const listed = await ok<{ shares: { id: string }[] }>("docs_shares", { id });
    expect(listed.shares.map((s) => s.id)).toEqual([share.id]);
    expect(JSON.stringify(listed)).not.toContain(share.url.split("/").pop());
    expect(await ok("docs_revoke_share", { id, shareId: share.id })).toEqual({ id: share.id, revoked: true });
    expect((await fetch(share.url)).status).toBe(404);
    expect((await ok<{ shares: unknown[] }>("docs_shares", { id })).shares).toEqual([]);
  });

  it("docs_trash lists a deleted document; docs_purge deletes it for good", async () => {
    const { id } = await ok<{ id: string }>("docs_create", { name: "Trashed", markdown: "# Gone" });
    await ok("docs_delete", { id });
    const trash = await ok<{ documents: { id: string; deletedAt: string }[]; nextCursor: string | null }>("docs_trash", {});
    expect(trash.documents.map((d) => d.id)).toContain(id);
    expect(await ok("docs_purge", { id })).toEqual({ id, purged: true });
    expect((await ok<{ documents: { id: string }[] }>("docs_trash", {})).documents.map((d) => d.id)).not.toContain(id);
    expect(textOf(await call("docs_restore", { id }))).toMatch(/^NOT_FOUND: /);
  });
});

describe("drive_read", () => {
  async function upload(name: string, content: Uint8Array | string, contentType: string): Promise<string> {
    return (await ok<{ id: string }>("drive_upload", { name, content: base64(content), contentType })).id;
  }

  it("a CSV as it is, cut at maxChars and saying so", async () => {
    const seeded = env.sandbox.data.files.find((f) => f.id === "file_q3_budget_csv")!;
    const whole = await ok<{ text: string; format: string; truncated: boolean; totalChars: number }>("drive_read", { id: seeded.id });
    expect(whole).toMatchObject({ format: "text", text: seeded.content, truncated: false, totalChars: seeded.content.length });
    const cut = await ok<{ text: string; truncated: boolean }>("drive_read", { id: seeded.id, maxChars: 10 });
    expect(cut).toMatchObject({ text: seeded.content.slice(0, 10), truncated: true });
  });

  it("markdown as it is; a .docx as its extracted text; an .xlsx's first sheet as CSV", async () => {
    const md = await upload("notes.md", "# Notes\n\n- a\n", "text/markdown");
    expect(await ok("drive_read", { id: md })).toMatchObject({ format: "text", text: "# Notes\n\n- a\n" });

    const docx = await upload(
      "brief.docx",
      await renderedDocx("# Brief\n\nOne paragraph.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"),
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    );
    expect(await ok("drive_read", { id: docx })).toMatchObject({ format: "docx", text: "Brief\n\nOne paragraph.\n\na\n\nb\n\n1\n\n2" });

    const sheet = await ok<{ id: string }>("sheets_create", {
      name: "Numbers",
      sheets: [
        {
          name: "First",
          values: [
            ["item", "qty", "total"],
            ["pens, blue", 3, "=B2*2"],
            ["=1+1", null, true],
          ],
        },
        { name: "Second" },
      ],
    });
    const xlsx = new Uint8Array(
      await (
        await fetch(`${env.gateway.url}/api/v1/spreadsheets/${sheet.id}/content`, { headers: { authorization: `Bearer ${token}` } })
      ).arrayBuffer(),
    );
    const id = await upload("numbers.xlsx", xlsx, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(await ok("drive_read", { id })).toMatchObject({
      format: "xlsx",
      text: 'item,qty,total\r\n"pens, blue",3,6\r\n2,,TRUE\r\n',
      truncated: false,
    });
  });

  it("a file it cannot read as text is UNSUPPORTED_MEDIA_TYPE, pointing at drive_get", async () => {
    const id = await upload("logo.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]), "image/png");
    const result = await call("drive_read", { id });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^UNSUPPORTED_MEDIA_TYPE: .*logo\.png is image\/png.*drive_get/);
  });

  it("over stdio too, through the gateway's files.read and documents.import procedures", async () => {
    const mcp = await connectStdio({ GATEWAY_URL: env.gateway.url, GATEWAY_TOKEN: token });
    try {
      await mcp.client.listTools();
      const seeded = env.sandbox.data.files.find((f) => f.id === "file_q3_budget_csv")!;
      expect(await ok("drive_read", { id: seeded.id, maxChars: 5 }, mcp.client)).toMatchObject({ text: seeded.content.slice(0, 5) });
      const created = await ok<{ id: string }>(
        "docs_import",
        { name: "Over stdio", content: base64(await renderedDocx("# Over stdio\n\nText.")) },
        mcp.client,
      );
      expect(await ok("docs_read", { id: created.id }, mcp.client)).toMatchObject({ text: "Over stdio\n\nText." });
    } finally {
      await mcp.close();
    }
  });
});
