// PG_PGBOUNCER=true through a real PgBouncer in transaction mode (docs/deploy.md#pgbouncer-transaction-pooling):
// the test starts its own pgbouncer on a free port in front of the machine's PostgreSQL, with a
// database of its own (PgBouncer refuses the `options` startup parameter that the other tests use
// for a schema of their own), 12 gateway connections over 3 server connections. Many concurrent
// REST requests — create, read, list, update, versions, share, shared read, delete, one winner of
// concurrent If-Match updates — all succeed. A control proves the multiplexing is real: named
// prepared statements (PG_PGBOUNCER=false) through the same PgBouncer fail.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore } from "../../src/store/postgres.ts";
import { findProgram, requireProgram } from "../helpers/external.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

// Debian installs it in /usr/sbin, which a non-root PATH may lack.
const program =
  (process.env["PGBOUNCER_PATH"] ? undefined : (findProgram("pgbouncer") ?? findProgram("/usr/sbin/pgbouncer"))) ??
  requireProgram("pgbouncer", {
    envVar: "PGBOUNCER_PATH",
    install: "apt-get install pgbouncer",
    purpose: "the PgBouncer transaction-pooling test",
  });

const base = new URL(process.env["TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test");
const database = `wg_bouncer_${process.pid}_${randomBytes(4).toString("hex")}`;
const SERVER_CONNECTIONS = 3;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: base.href });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** pgbouncer in the foreground on its own port and files; resolves once it accepts a query. */
async function startPgBouncer(path: string): Promise<{ port: number; log: () => string; stop(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "wg-pgbouncer-"));
  const port = await freePort();
  const user = decodeURIComponent(base.username || "postgres");
  await writeFile(join(dir, "userlist.txt"), `"${user}" ""\n`);
  await writeFile(
    join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `wg = host=${base.hostname} port=${base.port || 5432} dbname=${database} user=${user}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${join(dir, "userlist.txt")}`,
      "pool_mode = transaction",
      `default_pool_size = ${SERVER_CONNECTIONS}`,
      "max_client_conn = 100",
      "",
    ].join("\n"),
  );
  // PgBouncer will not run as root: it drops to the postgres user, which must read its files.
  const asRoot = process.getuid?.() === 0;
  if (asRoot)
    for (const file of [dir, join(dir, "pgbouncer.ini"), join(dir, "userlist.txt")]) await chmod(file, file === dir ? 0o755 : 0o644);
  const child: ChildProcess = spawn(path, [...(asRoot ? ["-u", "postgres"] : []), join(dir, "pgbouncer.ini")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  for (const deadline = Date.now() + 10_000; ;) {
    const client = new pg.Client({ connectionString: `postgres://${user}@127.0.0.1:${port}/wg` });
    try {
      await client.connect();
      await client.query("SELECT 1");
      await client.end();
      return { port, log: () => output, stop };
    } catch (error) {
      await client.end().catch(() => {});
      if (child.exitCode !== null || Date.now() > deadline) {
        await stop();
        throw new Error(`pgbouncer did not start: ${String(error)}\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe.skipIf(!program)("through a real PgBouncer in transaction mode", () => {
  let bouncer: Awaited<ReturnType<typeof startPgBouncer>>;
  let tg: TestGateway;
  let url: string;
  beforeAll(async () => {
    await admin((client) => client.query(`CREATE DATABASE ${database}`));
    bouncer = await startPgBouncer(program!);
    url = `postgres://${decodeURIComponent(base.username || "postgres")}@127.0.0.1:${bouncer.port}/wg?application_name=wg-bouncer`;
    tg = await startTestGateway({ DATABASE_URL: url, PG_PGBOUNCER: "true", PG_POOL_MAX: "12", RENDER_QUEUE: "100" });
  });
  afterAll(async () => {
    await tg?.close();
    await bouncer?.stop();
    await admin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  });

  it("concurrent create, read, list, update, versions, share, shared read and delete all succeed", async () => {
    const key = await tg.key({ user: "bouncer" });
    const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${tg.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: (text && response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text) as Record<string, unknown>,
      };
    };
    const flows = Array.from({ length: 24 }, async (_, i) => {
      const name = `bouncer ${i} ${randomBytes(3).toString("hex")}`;
      const created = await call(
        "POST",
        "/api/v1/documents",
        { name, markdown: `# ${name}\n\nfirst` },
        { "idempotency-key": `create-${i}` },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body["id"] as string;
      const read = await call("GET", `/api/v1/documents/${id}`);
      expect(read).toMatchObject({ status: 200, body: { version: 1, text: expect.stringContaining("first") } });
      expect(
        (await call("POST", "/api/v1/documents", { name, markdown: `# ${name}\n\nfirst` }, { "idempotency-key": `create-${i}` })).body[
          "id"
        ],
      ).toBe(id);
      const listed = await call("GET", `/api/v1/documents?query=${encodeURIComponent(name)}`);
      expect((listed.body["documents"] as { id: string }[]).map((doc) => doc.id)).toEqual([id]);
      const updated = await call("PUT", `/api/v1/documents/${id}`, { markdown: `# ${name}\n\nsecond` }, { "if-match": '"v1"' });
      expect(updated).toMatchObject({ status: 200, body: { version: 2 } });
      expect(await call("GET", `/api/v1/documents/${id}?format=markdown`)).toMatchObject({
        status: 200,
        body: { text: expect.stringContaining("second") },
      });
      const versions = await call("GET", `/api/v1/documents/${id}/versions`);
      expect((versions.body["versions"] as { version: number }[]).map((v) => v.version)).toEqual([2, 1]);
      expect(await call("GET", `/api/v1/documents/${id}/versions/1`)).toMatchObject({
        status: 200,
        body: { text: expect.stringContaining("first") },
      });
      const share = await call("POST", `/api/v1/documents/${id}/shares`, {});
      expect(share.status).toBe(201);
      const shared = await fetch(`${tg.url}${share.body["url"] as string}`);
      expect(shared.status).toBe(200);
      expect(((await shared.json()) as { text: string }).text).toContain("second");
      expect((await call("GET", `/api/v1/documents/${id}/content`)).status).toBe(200);
      expect((await call("DELETE", `/api/v1/documents/${id}`)).status).toBe(204);
      expect((await call("GET", `/api/v1/documents/${id}`)).status).toBe(404);
      expect((await fetch(`${tg.url}${share.body["url"] as string}`)).status).toBe(404);
    });
    await Promise.all(flows);

    // One winner of concurrent conditional updates: the row lock holds within each transaction.
    const doc = await call("POST", "/api/v1/documents", { name: "contested", markdown: "v1" });
    const id = doc.body["id"] as string;
    const puts = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call("PUT", `/api/v1/documents/${id}`, { markdown: `writer ${i}` }, { "if-match": '"v1"' })),
    );
    expect(puts.map((put) => put.status).sort()).toEqual([200, ...Array(7).fill(412)]);
    expect((await call("GET", `/api/v1/documents/${id}/versions`)).body["versions"]).toHaveLength(2);
  });

  it("PostgreSQL saw at most PgBouncer's server connections for the gateway's pool of 12", async () => {
    const servers = await admin(async (client) =>
      Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1`, [database])).rows[0]!.n),
    );
    expect(tg.gateway.store.poolStats!().total).toBeGreaterThan(SERVER_CONNECTIONS);
    expect(servers).toBeGreaterThanOrEqual(1);
    expect(servers).toBeLessThanOrEqual(SERVER_CONNECTIONS);
  });

  it("control: named prepared statements (PG_PGBOUNCER=false) through the same PgBouncer fail, so the pooling is real", async () => {
    const store = await openPostgresStore(url, { pgbouncer: false, statementTimeoutMs: 0, poolMax: 12 });
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, async () => {
          for (let i = 0; i < 10; i++) await store.documents.list({ ownerId: "bouncer", limit: 5 });
        }),
      );
      const reasons = results.flatMap((result) => (result.status === "rejected" ? [String((result.reason as Error).message)] : []));
      expect(reasons.length).toBeGreaterThan(0);
      expect(reasons[0]).toMatch(/prepared statement .* (does not exist|already exists)/);
    } finally {
      await store.close();
    }
  });
});
