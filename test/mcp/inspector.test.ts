// An external MCP client: the MCP Inspector's CLI mode against /mcp.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { DOCS_KEY_TOOLS } from "./mcp-cases.ts";

const run = promisify(execFile);
// @modelcontextprotocol/inspector-cli is what the umbrella package's `--cli` runs; unlike the
// umbrella (engines node >=22.7.5 since 0.16), it installs cleanly on Node 20. Its bin, as declared.
const pkgJson = createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector-cli/package.json");
const { bin } = JSON.parse(readFileSync(pkgJson, "utf8")) as { bin: Record<string, string> };
const inspector = resolve(dirname(pkgJson), bin["mcp-inspector-cli"]!);
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
    // Its build/index.js checks `existsSync("../package.json")` against the cwd but imports it
    // relative to itself (modelcontextprotocol/inspector#1334): run it from its own build dir.
    cwd: dirname(inspector),
  });

describe("MCP Inspector CLI", () => {
  it("lists the tools", async () => {
    const { stdout } = await cli("--method", "tools/list");
    const { tools } = JSON.parse(stdout) as { tools: { name: string }[] };
    // The key's tools (docs scopes: test/mcp/credential-tools.test.ts).
    expect(tools.map((t) => t.name).sort()).toEqual([...DOCS_KEY_TOOLS].sort());
  });

  it("calls docs_list", async () => {
    const { stdout } = await cli("--method", "tools/call", "--tool-name", "docs_list", "--tool-arg", "query=inspector");
    const result = JSON.parse(stdout) as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBeFalsy();
    const body = JSON.parse(result.content[0]!.text) as { documents: { name: string }[] };
    expect(body.documents.map((d) => d.name)).toEqual(["seen by the inspector"]);
  });
});
