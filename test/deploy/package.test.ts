// Issue 18 item 3: the package as an agent's config installs it. `npm pack` (its prepack builds a
// stale dist/), the tarball installed with `--omit=dev` into an empty folder, then its
// `workspace-gateway` bin run with plain node — no tsx, no sources: `mcp` on stdio through the
// real MCP SDK client against a gateway from this checkout wired to the sandbox upstream, and
// `keys create --init` then `serve` on their own store.
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../helpers/process.ts";
import { ALL_TOOLS, textOf } from "../mcp/mcp-cases.ts";
import { startProductsEnv, type ProductsEnv } from "../products/harness.ts";

const run = promisify(execFile);
let project: string;
let bin: string;
let env: ProductsEnv;
const dirs: string[] = [];
/** Only what the command needs (node on PATH for the bin's shebang), never the developer's environment. */
const childEnv = (vars: Record<string, string>) => ({ PATH: `${dirname(process.execPath)}:${process.env["PATH"] ?? ""}`, ...vars });

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), "wg-package-"));
  dirs.push(project);
  const [packed, products] = await Promise.all([
    run("npm", ["pack", "--pack-destination", project, "--silent"], { cwd: root, timeout: 300_000 }),
    // Every scope: the session is offered every tool (test/mcp/credential-tools.test.ts filters).
    startProductsEnv({ scope: "docs:read docs:write sheets:read sheets:write" }),
  ]);
  env = products;
  const tarball = join(project, packed.stdout.trim().split("\n").at(-1)!);
  await writeFile(join(project, "package.json"), JSON.stringify({ name: "agent-config", version: "1.0.0", private: true }));
  // Install scripts run: better-sqlite3's native build is what `keys` and `serve` need.
  // --prefer-offline: the npm cache first (the registry otherwise). Where the registry has no
  // prebuilt better-sqlite3 for the running Node (26 at the time of writing), node-gyp compiles
  // SQLite from source: minutes on two loaded cores, hence the long bounds.
  await run("npm", ["install", tarball, "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: project, timeout: 1_080_000 });
  bin = join(project, "node_modules/.bin/workspace-gateway");
}, 1_200_000);
afterAll(async () => {
  await env?.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("the installed tarball", () => {
  it("holds the compiled code with its declarations, not the sources, and needs no tsx", () => {
    const pkg = join(project, "node_modules/workspace-gateway");
    for (const file of [
      "dist/src/cli/index.js",
      "dist/src/client/index.js",
      "dist/src/client/index.d.ts",
      "dist/src/index.d.ts",
      "dist/schema/documents.graphql",
      "dist/src/documents/pool/worker-bootstrap.mjs",
      "dist/src/spreadsheets/pool/worker-bootstrap.mjs",
    ]) {
      expect(existsSync(join(pkg, file)), file).toBe(true);
    }
    for (const absent of ["src", "adapters", "resolvers", "test", "scripts"]) expect(existsSync(join(pkg, absent)), absent).toBe(false);
    expect(existsSync(join(project, "node_modules/tsx"))).toBe(false);
    expect(existsSync(join(pkg, "node_modules/tsx"))).toBe(false);
  });
});

describe("workspace-gateway mcp from the installed package, through the MCP SDK client over stdio", () => {
  let client: Client;
  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: bin,
      args: ["mcp"],
      cwd: project,
      env: childEnv({ GATEWAY_URL: env.gateway.url, GATEWAY_API_KEY: env.token }),
      stderr: "pipe",
    });
    client = new Client({ name: "package-test", version: "1.0.0" });
    await client.connect(transport);
  });
  afterAll(() => client?.close());

  /** A successful call's structured content, which the text content repeats. */
  async function ok(name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
    expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    return result.structuredContent!;
  }

  it("tools/list: every tool, with truthful annotations (workflows_run and mail_send act on the world)", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...ALL_TOOLS].sort());
    for (const tool of tools) {
      const a = tool.annotations!;
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const)
        expect(typeof a[hint], `${tool.name} ${hint}`).toBe("boolean");
      if (a.readOnlyHint) expect(a.destructiveHint, tool.name).toBe(false);
      expect(tool.outputSchema, tool.name).toMatchObject({ type: "object" });
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName["workflows_run"]!.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(byName["mail_send"]!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false, openWorldHint: true });
    expect(byName["docs_list"]!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });

  it("one tools/call per product, the access token forwarded to the sandbox", async () => {
    env.sandbox.clearRequests();
    expect(await ok("docs_create", { name: "from the tarball", markdown: "# Packed" })).toMatchObject({ name: "from the tarball" });
    expect(await ok("docs_list")).toMatchObject({ documents: [expect.objectContaining({ name: "from the tarball" })] });

    const mail = (await ok("mail_list", { limit: 2 })) as { data: unknown[]; nextCursor: string | null };
    expect(mail.data).toHaveLength(2);
    expect(env.sandbox.requestsTo("/email/v1/messages", "GET")[0]?.headers["authorization"]).toBe(`Bearer ${env.token}`);

    const events = (await ok("calendar_events", { from: "2026-01-01T00:00:00Z", to: "2026-03-01T00:00:00Z", limit: 3 })) as {
      data: unknown[];
    };
    expect(events.data).toHaveLength(3);
    expect(
      await ok("bookings_create", {
        bookingTypeId: "bt_intro30",
        start: "2026-12-07T10:00:00Z",
        attendee: { name: "Ana", email: "ana@example.com" },
      }),
    ).toMatchObject({
      bookingTypeId: "bt_intro30",
    });

    const file = env.sandbox.data.files[0]!;
    expect(await ok("drive_get", { id: file.id })).toMatchObject({ id: file.id, name: file.name });
    expect(await ok("search_query", { query: "budget" })).toMatchObject({ answer: expect.any(String) });
    expect(await ok("meetings_summary", { id: "mtg_weekly_product_sync" })).toMatchObject({
      meetingId: "mtg_weekly_product_sync",
      summary: expect.any(String),
    });

    const invoices = (await ok("invoices_list", { limit: 2 })) as { data: unknown[]; nextCursor: string | null };
    expect(invoices.data).toHaveLength(2);
    expect(await ok("data_query", { question: "totals by customer" })).toMatchObject({
      columns: expect.any(Array),
      rows: expect.any(Array),
    });
    expect(await ok("workflows_run", { id: "wf_invoice_reminder" })).toMatchObject({
      workflowId: "wf_invoice_reminder",
      runId: expect.any(String),
    });
  });

  it("a gateway error comes back as the tool's error with the gateway code", async () => {
    const result = await client.callTool({ name: "meetings_summary", arguments: { id: "mtg_board_prep" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^NOT_FOUND: /);
  });
});

describe("keys and serve from the installed package", () => {
  it("keys create --init makes a store and a key; serve answers with it, renders a .docx, and exits 0 on SIGTERM", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "wg-package-data-"));
    dirs.push(dataDir);
    const created = await run(bin, ["keys", "create", "--init", "--user", "packaged"], {
      cwd: project,
      env: childEnv({ DATA_DIR: dataDir }),
      timeout: 60_000,
    });
    const key = created.stdout.trim();
    expect(key).toMatch(/^wgk_/);
    expect(created.stderr).toContain(`Store: SQLite ${dataDir}/gateway.sqlite`);

    const child = spawn(bin, ["serve"], {
      cwd: project,
      env: childEnv({ DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", RATE_LIMIT_PER_MINUTE: "0" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).on("line", (line) => {
          if (line.includes('"workspace-gateway listening"')) resolve((JSON.parse(line) as { url: string }).url);
        });
        void exited.then((code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
      });
      expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: "ok" });
      const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const doc = await fetch(`${url}/api/v1/documents`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ name: "served", markdown: "# Served\n\nFrom **dist**." }),
      });
      expect(doc.status).toBe(201);
      const { id } = (await doc.json()) as { id: string };
      const docx = await fetch(`${url}/api/v1/documents/${id}/content`, { headers: auth });
      expect(docx.status).toBe(200);
      expect(
        Buffer.from(await docx.arrayBuffer())
          .subarray(0, 2)
          .toString(),
      ).toBe("PK");
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
