// An external MCP client: the MCP Inspector's CLI mode against /mcp.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

const run = promisify(execFile);
// Pinned 0.18.0: its CLI mode runs on Node 20 (the package's engines field asks for 22).
const inspector = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/inspector/cli/build/cli.js", import.meta.url));
let tg: TestGateway;
let key: string;

beforeAll(async () => {
  tg = await startTestGateway();
  key = await tg.key({ user: "inspector" });
  await fetch(`${tg.url}/api/v1/documents`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "seen by the inspector", markdown: "# Hello" }),
  });
});
afterAll(() => tg.close());

const cli = (...args: string[]) =>
  run(process.execPath, [inspector, "--cli", `${tg.url}/mcp`, "--transport", "http", "--header", `Authorization: Bearer ${key}`, ...args], {
    timeout: 60_000,
  });

describe("MCP Inspector CLI", () => {
  it("lists the tools", async () => {
    const { stdout } = await cli("--method", "tools/list");
    const { tools } = JSON.parse(stdout) as { tools: { name: string }[] };
    expect(tools.map((t) => t.name).sort()).toEqual(["docs_create", "docs_list", "docs_read", "drive_get", "drive_search"]);
  });

  it("calls docs_list", async () => {
    const { stdout } = await cli("--method", "tools/call", "--tool-name", "docs_list", "--tool-arg", "query=inspector");
    const result = JSON.parse(stdout) as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBeFalsy();
    const body = JSON.parse(result.content[0]!.text) as { documents: { name: string }[] };
    expect(body.documents.map((d) => d.name)).toEqual(["seen by the inspector"]);
  });
});
