// Issue 14 part 3: configuration that meets expectations, over real processes and real HTTP.
// .env/ENV_FILE, PUBLIC_URL on every surface, the keys CLI naming its store and refusing to make an
// empty one, two gateways on one DATA_DIR, Redis reported once, one-line configuration errors.
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createGatewayClient } from "../../src/client/index.ts";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import { graphqlRequest } from "../documents/graphql-driver.ts";
import { connectStdio } from "../mcp/stdio-client.ts";
import { graphqlFetch, startProductsEnv } from "../products/harness.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { root, startGatewayProcess } from "../helpers/process.ts";

const run = promisify(execFile);
const bin = fileURLToPath(new URL("../../bin/workspace-gateway.js", import.meta.url));
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), "wg-first-"));
  dirs.push(dir);
  return dir;
};

async function storeWithKey(dataDir: string, userId = "first"): Promise<string> {
  const store = openSqliteStore(dataDir);
  const { key } = await createApiKey(store, { userId });
  await store.close();
  return key;
}

/** `src/main.ts` run to its exit (a start-up failure). */
function startToExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "silent", PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  return new Promise((resolve) =>
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
}

/** A logger destination whose lines the test can read. */
function logLines(): { stream: PassThrough; lines: () => { level: number; msg: string; [k: string]: unknown }[] } {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (c: Buffer) => (text += c.toString()));
  return {
    stream,
    lines: () =>
      text
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { level: number; msg: string }),
  };
}

describe(".env and ENV_FILE", () => {
  it("the file configures the gateway, the real environment wins over it", async () => {
    const dataDir = await tempDir();
    const key = await storeWithKey(dataDir);
    const envFile = join(await tempDir(), "gateway.env");
    // LOG_LEVEL=silent in the file would hide the listening line: the environment's info wins.
    await writeFile(envFile, `# comment\nDATA_DIR=${dataDir}\nPUBLIC_URL="https://gw.example.com/base/"\nLOG_LEVEL=silent\n`);
    const gateway = await startGatewayProcess({ ENV_FILE: envFile, LOG_LEVEL: "info" });
    try {
      const response = await fetch(`${gateway.url}/api/v1/documents`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "From .env", markdown: "# hi" }),
      });
      expect(response.status).toBe(201); // the key lives in the file's DATA_DIR
      const body = (await response.json()) as { id: string; url: string };
      expect(response.headers.get("location")).toBe(`https://gw.example.com/base/api/v1/documents/${body.id}`);
      expect(body.url).toBe(response.headers.get("location"));
    } finally {
      await gateway.stop();
    }
  });

  it("the CLI reads ./.env from its working directory too", async () => {
    const dataDir = await tempDir();
    await storeWithKey(dataDir, "from-dotenv");
    const cwd = await tempDir();
    await writeFile(join(cwd, ".env"), `DATA_DIR=${dataDir}\n`);
    const { DATA_DIR: _unset, ...env } = process.env;
    const { stdout, stderr } = await run(process.execPath, [bin, "keys", "list", "--json"], { cwd, env });
    expect(stderr).toContain(`Store: SQLite ${dataDir}/gateway.sqlite`);
    expect(JSON.parse(stdout)).toEqual([expect.objectContaining({ userId: "from-dotenv" })]);
  });

  it("a missing ENV_FILE stops the process with one line naming it", async () => {
    const { code, stderr } = await startToExit({ ENV_FILE: "/nonexistent/gateway.env" });
    expect(code).toBe(2);
    expect(stderr.trim()).toBe("workspace-gateway failed to start: ENV_FILE: cannot read /nonexistent/gateway.env: ENOENT");
  });
});

describe("configuration errors", () => {
  it("a missing TENANTS_FILE is one line naming the variable, no stack trace", async () => {
    const { code, stderr } = await startToExit({ DATA_DIR: await tempDir(), TENANTS_FILE: "/x.json" });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^workspace-gateway failed to start: TENANTS_FILE: cannot read \/x\.json: ENOENT/);
    expect(stderr.trim().split("\n")).toHaveLength(1);
  });

  it("an upstream base URL the adapters refuse is one line too", async () => {
    const { code, stderr } = await startToExit({ DATA_DIR: await tempDir(), API_URL: "https://api.example.com/v1?x=1" });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe("workspace-gateway failed to start: API_URL: must not contain a query or fragment");
  });

  it("a PUBLIC_URL that is not an http(s) base names the variable", async () => {
    const { code, stderr } = await startToExit({ PUBLIC_URL: "https://gw.example.com/?x=1" });
    expect(code).toBe(2);
    expect(stderr).toMatch(/PUBLIC_URL: must not have a query or fragment/);
  });
});

describe("PUBLIC_URL", () => {
  it("makes Location, url and downloadUrl absolute on REST, GraphQL, tRPC and MCP", async () => {
    const tg = await startTestGateway({ PUBLIC_URL: "https://docs.example.com/gw" });
    try {
      const key = await tg.key();
      const base = "https://docs.example.com/gw/api/v1/documents/";
      const rest = await fetch(`${tg.url}/api/v1/documents`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Absolute", markdown: "# a" }),
      });
      const { id } = (await rest.json()) as { id: string };
      expect(rest.headers.get("location")).toBe(base + id);
      const gql = await graphqlRequest<{ document: { url: string; downloadUrl: string } }>(
        tg.url,
        `Bearer ${key}`,
        `{ document(id: "${id}") { url downloadUrl } }`,
      );
      expect(gql.body.data?.document).toEqual({ url: base + id, downloadUrl: `${base + id}/content` });
      const trpc = createGatewayClient({ url: tg.url, token: key });
      expect((await trpc.documents.list.query({ limit: 1 })).documents[0]).toMatchObject({
        url: base + id,
        downloadUrl: `${base + id}/content`,
      });
      const mcp = new Client({ name: "t", version: "1" });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${tg.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
      );
      const listed = await mcp.callTool({ name: "docs_list", arguments: {} });
      expect((listed.structuredContent as { documents: { url: string }[] }).documents[0]!.url).toBe(base + id);
      await mcp.close();
    } finally {
      await tg.close();
    }
  });

  it("makes the links of the GET / index absolute, in JSON and HTML", async () => {
    const tg = await startTestGateway({ PUBLIC_URL: "https://docs.example.com/gw/" });
    try {
      const index = (await (await fetch(`${tg.url}/`)).json()) as {
        links: Record<string, { href: string }>;
        docs: Record<string, { href: string }>;
      };
      const hrefs = [...Object.values(index.links), ...Object.values(index.docs)].map((l) => l.href);
      expect(hrefs.length).toBeGreaterThan(8);
      for (const href of hrefs) expect(href).toMatch(/^https:\/\/docs\.example\.com\/gw\/[a-z]/);
      expect(index.links["graphql"]!.href).toBe("https://docs.example.com/gw/graphql");
      expect(index.docs["api"]!.href).toBe("https://docs.example.com/gw/docs/api.md");
      const html = await (await fetch(`${tg.url}/`, { headers: { accept: "text/html" } })).text();
      const anchors = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);
      expect(anchors).toEqual(hrefs);
    } finally {
      await tg.close();
    }
  });

  it("makes GraphQL's DriveFile.downloadUrl (a product file) absolute", async () => {
    const env = await startProductsEnv({ env: { PUBLIC_URL: "https://docs.example.com/gw" } });
    try {
      const file = env.sandbox.data.files[0]!;
      const { body } = await graphqlFetch(
        env.gateway.url,
        { query: `query ($id: ID!) { file(id: $id) { downloadUrl } }`, variables: { id: file.id } },
        { token: env.token },
      );
      expect(body.data).toEqual({
        file: { downloadUrl: `https://docs.example.com/gw/api/v1/files/${encodeURIComponent(file.id)}/content` },
      });
    } finally {
      await env.close();
    }
  });

  it("without it REST stays relative (the contract's paths) and MCP answers with the origin it was reached at", async () => {
    const tg = await startTestGateway();
    try {
      const key = await tg.key();
      const rest = await fetch(`${tg.url}/api/v1/documents`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Relative", markdown: "# r" }),
      });
      const { id, url } = (await rest.json()) as { id: string; url: string };
      expect(url).toBe(`/api/v1/documents/${id}`);
      expect(rest.headers.get("location")).toBe(url);
      const mcp = new Client({ name: "t", version: "1" });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${tg.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
      );
      const created = await mcp.callTool({ name: "docs_create", arguments: { name: "From MCP", markdown: "# m" } });
      const doc = created.structuredContent as { id: string; url: string; downloadUrl: string };
      expect(doc.url).toBe(`${tg.url}/api/v1/documents/${doc.id}`);
      expect(doc.downloadUrl).toBe(`${tg.url}/api/v1/documents/${doc.id}/content`);
      await mcp.close();
      // Over stdio the links are resolved against GATEWAY_URL.
      const stdio = await connectStdio({ GATEWAY_URL: `${tg.url}/`, GATEWAY_API_KEY: key });
      const listed = await stdio.client.callTool({ name: "docs_list", arguments: { limit: 1 } });
      expect((listed.structuredContent as { documents: { url: string }[] }).documents[0]!.url).toBe(`${tg.url}/api/v1/documents/${doc.id}`);
      await stdio.close();
    } finally {
      await tg.close();
    }
  });
});

describe("keys CLI and its store", () => {
  const cli = (env: Record<string, string>, ...args: string[]) =>
    run(process.execPath, [bin, ...args], { env: { ...process.env, LOG_LEVEL: "silent", ...env } }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  it("refuses to create an empty store without --init, naming DATA_DIR; prints the store it uses", async () => {
    const dataDir = join(await tempDir(), "not-the-servers");
    const refused = await cli({ DATA_DIR: dataDir }, "keys", "create", "--user", "me");
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain(`DATA_DIR (${dataDir}): no gateway store at ${dataDir}/gateway.sqlite`);
    expect(refused.stderr).toMatch(/--init/);

    const created = await cli({ DATA_DIR: dataDir }, "keys", "create", "--user", "me", "--init", "--json");
    expect(created.code).toBe(0);
    expect(created.stderr).toContain(`Store: SQLite ${dataDir}/gateway.sqlite (DATA_DIR=${dataDir})`);
    expect(JSON.parse(created.stdout)).toMatchObject({ userId: "me" });
  });

  it("names a PostgreSQL store by host and database, never its password", async () => {
    const failed = await cli({ DATABASE_URL: "postgres://gw:s3cretpw@127.0.0.1:1/gatewaydb" }, "keys", "list");
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("Store: PostgreSQL gw@127.0.0.1:1/gatewaydb (DATABASE_URL)");
    expect(failed.stderr).not.toContain("s3cretpw");
  });

  it("on PostgreSQL, a database (schema) without the gateway's tables is refused without --init", async () => {
    const base = process.env["TEST_DATABASE_URL"] || "postgres://postgres@127.0.0.1:5432/test";
    const schema = `fh_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: base, connectionTimeoutMillis: 5_000 });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    try {
      const url = `${base}${base.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      const refused = await cli({ DATABASE_URL: url }, "keys", "list");
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /DATABASE_URL \(.*@127\.0\.0\.1:5432\/test\): no gateway tables here; use the server's DATABASE_URL, or pass --init/,
      );
      const created = await cli({ DATABASE_URL: url }, "keys", "create", "--user", "pg-user", "--init", "--json");
      expect(created.code).toBe(0);
      const listed = await cli({ DATABASE_URL: url }, "keys", "list", "--json");
      expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ userId: "pg-user" })]);
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });

  it("a second gateway on the same DATA_DIR warns; the CLI works while both run", async () => {
    const dataDir = await tempDir();
    const key = await storeWithKey(dataDir);
    const firstProcess = await startGatewayProcess({ DATA_DIR: dataDir });
    const log = logLines();
    const second = await startTestGateway({ DATA_DIR: dataDir, LOG_LEVEL: "info" }, { logTo: log.stream });
    try {
      const warning = log.lines().find((l) => l.msg.startsWith("DATA_DIR: another gateway is using this store"));
      expect(warning).toMatchObject({ otherPid: firstProcess.child.pid });
      const listed = await cli({ DATA_DIR: dataDir }, "keys", "list", "--json");
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toHaveLength(1);
      for (const url of [firstProcess.url, second.url]) {
        expect((await fetch(`${url}/api/v1/documents`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      }
    } finally {
      await firstProcess.stop();
      await second.close();
    }
  });
});

describe("an unreachable Redis", () => {
  it("is logged once, shows in /readyz as degraded (200), and requests are still served", async () => {
    const log = logLines();
    const tg = await startTestGateway(
      { REDIS_URL: "redis://127.0.0.1:1", RATE_LIMIT_PER_MINUTE: "100", LOG_LEVEL: "info" },
      { logTo: log.stream },
    );
    try {
      const key = await tg.key();
      // ioredis retries every few hundred ms: a few seconds is many failed attempts.
      await new Promise((r) => setTimeout(r, 3_000));
      const ready = await fetch(`${tg.url}/readyz`);
      expect(ready.status).toBe(200);
      const body = (await ready.json()) as { status: string; reasons: string[] };
      expect(body.status).toBe("degraded");
      expect(body.reasons).toEqual([expect.stringMatching(/^redis: .*ECONNREFUSED/)]);
      expect((await fetch(`${tg.url}/api/v1/documents`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      const redisLines = log.lines().filter((l) => /redis/i.test(JSON.stringify(l)));
      expect(redisLines).toHaveLength(1);
      expect(redisLines[0]).toMatchObject({ msg: expect.stringMatching(/^redis unreachable/), reason: body.reasons[0] });
    } finally {
      await tg.close();
    }
  });
});
