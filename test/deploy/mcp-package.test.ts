// Issue 26 point 1: the MCP stdio server as its own package, workspace-gateway-mcp
// (packages/mcp/). Built and packed by `npm run pack:mcp` (scripts/build-mcp.mjs), the tarball
// installed into an empty project: one package, no EBADENGINE, no network needed. Its bin then
// runs under the real MCP SDK client on stdio, forwarding to a gateway on an ephemeral port.
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { root } from "../helpers/process.ts";
import { expectDocumentRoundTrip, expectPairSession, expectToolErrors, textOf } from "../mcp/mcp-cases.ts";
import { startProductsEnv } from "../products/harness.ts";
import { refusedPort } from "../mcp/stdio-client.ts";

const run = promisify(execFile);
let project: string;
let bin: string;
let installOutput: string;
let tg: TestGateway;
let key: string;
/** Only what the command needs (node on PATH for the bin's shebang), never the developer's environment. */
const childEnv = (vars: Record<string, string>) => ({ PATH: `${dirname(process.execPath)}:${process.env["PATH"] ?? ""}`, ...vars });

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), "wg-mcp-package-"));
  const [packed, gateway] = await Promise.all([
    run("npm", ["run", "-s", "pack:mcp", "--", project], { cwd: root, timeout: 120_000 }),
    startTestGateway(),
  ]);
  tg = gateway;
  key = await tg.key({ user: "npx-agent" });
  const tarball = packed.stdout.trim().split("\n").at(-1)!;
  await writeFile(join(project, "package.json"), JSON.stringify({ name: "agent-config", version: "1.0.0", private: true }));
  // --offline: a package with no dependencies needs nothing from the registry.
  const installed = await run("npm", ["install", tarball, "--engine-strict", "--offline", "--no-audit", "--no-fund"], {
    cwd: project,
    timeout: 120_000,
  });
  installOutput = installed.stdout + installed.stderr;
  bin = join(project, "node_modules/.bin/workspace-gateway-mcp");
}, 240_000);
afterAll(async () => {
  await tg?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

async function connect(vars: Record<string, string>, args: string[] = ["mcp"]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: bin, args, env: childEnv(vars), stderr: "pipe" });
  const chunks: string[] = [];
  transport.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  const client = new Client({ name: "package-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => chunks.join("") };
}

/** Runs the bin to its exit (a start-up failure); asynchronous, as the gateway lives in this process. */
async function runToExit(vars: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(bin, ["mcp"], { env: childEnv(vars), stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.once("close", resolve));
  return { status, stdout, stderr };
}

describe("workspace-gateway-mcp, packed and installed", () => {
  it("installs one package: no dependency, no install script, no EBADENGINE", async () => {
    const modules = (await readdir(join(project, "node_modules"))).filter((name) => !name.startsWith("."));
    expect(modules).toEqual(["workspace-gateway-mcp"]);
    const pkg = JSON.parse(await readFile(join(project, "node_modules/workspace-gateway-mcp/package.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(pkg["dependencies"]).toBeUndefined();
    expect(pkg["scripts"]).toBeUndefined();
    expect(await readdir(join(project, "node_modules/workspace-gateway-mcp"))).toEqual(expect.not.arrayContaining(["src"]));
    expect(installOutput).not.toMatch(/EBADENGINE|npm warn/i);
    expect(installOutput).toMatch(/added 1 package/);
  });

  it("lists the same tools as the gateway's /mcp for the same key, with its instructions", async () => {
    const http = new Client({ name: "http-reference", version: "1.0.0" });
    await http.connect(
      new StreamableHTTPClientTransport(new URL(`${tg.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
    );
    const stdio = await connect({ GATEWAY_URL: tg.url, GATEWAY_TOKEN: key });
    try {
      const [viaHttp, viaStdio] = await Promise.all([http.listTools(), stdio.client.listTools()]);
      expect(viaStdio.tools.length).toBeGreaterThan(0);
      expect(viaStdio).toEqual(viaHttp);
      expect(stdio.client.getInstructions()).toBeTruthy();
      expect(stdio.client.getInstructions()).toBe(http.getInstructions());
      expect(stdio.stderr()).toContain("serving on stdio");
    } finally {
      await Promise.all([http.close(), stdio.client.close()]);
    }
  });

  it("creates and reads a document through the gateway, and passes tool errors through", async () => {
    // Without the optional `mcp` argument, and with GATEWAY_API_KEY: both spellings work.
    const stdio = await connect({ GATEWAY_URL: tg.url, GATEWAY_API_KEY: key }, []);
    try {
      const id = await expectDocumentRoundTrip(stdio.client, "npx package round trip");
      const rest = await fetch(`${tg.url}/api/v1/documents/${id}`, { headers: { authorization: `Bearer ${key}` } });
      expect(rest.status).toBe(200);
      await expectToolErrors(stdio.client);
      const read = await stdio.client.callTool({ name: "docs_read", arguments: { id } });
      expect(textOf(read)).toMatch(/^Launch plan/);
    } finally {
      await stdio.client.close();
    }
  });

  it("GATEWAY_API_KEY and GATEWAY_TOKEN together: one session creates a document, reads a spreadsheet and searches the drive", async () => {
    const products = await startProductsEnv();
    try {
      const pairKey = await products.gateway.key({
        user: "package-pair",
        scopes: ["docs:read", "docs:write", "sheets:read", "sheets:write"],
      });
      const stdio = await connect({ GATEWAY_URL: products.gateway.url, GATEWAY_API_KEY: pairKey, GATEWAY_TOKEN: products.token });
      try {
        const file = products.sandbox.data.files[0]!;
        products.sandbox.clearRequests();
        await expectPairSession(stdio.client, file.name.split(/[^A-Za-z0-9]+/).find((w) => w.length > 3) ?? file.name);
        expect(products.sandbox.requests.length).toBeGreaterThan(0);
        for (const request of products.sandbox.requests) expect(request.headers["authorization"]).toBe(`Bearer ${products.token}`);
      } finally {
        await stdio.client.close();
      }
    } finally {
      await products.close();
    }
  });

  it("MCP_TOOLS narrows the gateway's tools, in the list and for calls", async () => {
    const stdio = await connect({ GATEWAY_URL: tg.url, GATEWAY_TOKEN: key, MCP_TOOLS: "read-only,docs_create" });
    try {
      const names = (await stdio.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("docs_read");
      expect(names).toContain("docs_create");
      expect(names).not.toContain("docs_delete");
      await expect(stdio.client.callTool({ name: "docs_delete", arguments: { id: "doc_x" } })).rejects.toThrow(/not in MCP_TOOLS/);
    } finally {
      await stdio.client.close();
    }
  });

  it("a gateway that goes away later: tool calls answer UPSTREAM_UNAVAILABLE, the server keeps serving", async () => {
    const gone = await startTestGateway();
    const stdio = await connect({ GATEWAY_URL: gone.url, GATEWAY_TOKEN: await gone.key({ user: "leaver" }) });
    try {
      await gone.close();
      const result = await stdio.client.callTool({ name: "docs_list", arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^UPSTREAM_UNAVAILABLE: The gateway at http:\/\/127\.0\.0\.1:\d+ could not be reached: .*ECONNREFUSED/,
      );
      // Still serving: the next call is answered the same way, not by a dead pipe.
      expect(textOf(await stdio.client.callTool({ name: "docs_read", arguments: { id: "doc_x" } }))).toMatch(/^UPSTREAM_UNAVAILABLE/);
    } finally {
      await stdio.client.close();
    }
  });

  it("start-up failures are one stderr message and exit 1, with nothing on stdout", async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ GATEWAY_TOKEN: key }, /GATEWAY_URL is required/],
      [{ GATEWAY_URL: "not a url", GATEWAY_TOKEN: key }, /GATEWAY_URL must be the gateway's http\(s\) base URL/],
      [{ GATEWAY_URL: tg.url }, /GATEWAY_API_KEY or GATEWAY_TOKEN is required/],
      [{ GATEWAY_URL: tg.url, GATEWAY_TOKEN: "wgk_wrong" }, /GATEWAY_TOKEN was rejected by/],
      [
        { GATEWAY_URL: tg.url, GATEWAY_TOKEN: key, MCP_TOOLS: "docs_nope" },
        /MCP_TOOLS: the gateway offers this credential no tool "docs_nope"/,
      ],
      [{ GATEWAY_URL: `http://127.0.0.1:${await refusedPort()}`, GATEWAY_API_KEY: key }, /could not be reached: .*ECONNREFUSED/],
    ];
    for (const [vars, message] of cases) {
      const result = await runToExit(vars);
      expect(result.status, result.stderr).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(message);
    }
  });
});
