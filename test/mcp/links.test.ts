// Every link in every tool result is absolute over /mcp (docs/api.md "MCP"): the documents and the
// spreadsheets tools, lists and nested records (sheets_write, sheets_append and sheets_edit answer
// {spreadsheet: {url, downloadUrl}, …}). Over stdio the same cases run in test/mcp/stdio.test.ts.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withAbsoluteLinks } from "../../src/mcp/tools.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { expectAbsoluteLinks } from "./mcp-cases.ts";

let tg: TestGateway;
beforeAll(async () => {
  tg = await startTestGateway();
});
afterAll(() => tg?.close());

describe("links in MCP tool results", () => {
  it("are absolute against the origin the client reached, in every documents and spreadsheet tool's result", async () => {
    const key = await tg.key({ user: "links", scopes: ["docs:read", "docs:write", "sheets:read", "sheets:write"] });
    const client = new Client({ name: "links-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${tg.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
    );
    try {
      await expectAbsoluteLinks(client, tg.url);
    } finally {
      await client.close();
    }
  });

  it("withAbsoluteLinks: nested records and lists of records; a range's rows and absolute links are left as they are", () => {
    const rows = [["/a", 1]];
    const value = {
      spreadsheet: { url: "/api/v1/spreadsheets/s", downloadUrl: "/api/v1/spreadsheets/s/content" },
      spreadsheets: [{ url: "/api/v1/spreadsheets/t" }],
      share: { url: "https://public.example/api/v1/shared/x" },
      values: rows,
    };
    const fixed = withAbsoluteLinks(value, "http://gw:4000/");
    expect(fixed).toEqual({
      spreadsheet: { url: "http://gw:4000/api/v1/spreadsheets/s", downloadUrl: "http://gw:4000/api/v1/spreadsheets/s/content" },
      spreadsheets: [{ url: "http://gw:4000/api/v1/spreadsheets/t" }],
      share: { url: "https://public.example/api/v1/shared/x" },
      values: rows,
    });
    expect(fixed.values).toBe(rows);
  });
});
