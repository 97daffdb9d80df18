// PostgreSQL unreachable (docs/deploy.md#when-postgresql-or-redis-is-down): the gateway reaches the
// machine's PostgreSQL through a TCP proxy this test owns on its own port, and cuts it — the shared
// server itself is never touched. While cut: /readyz 503 "unavailable", reads and writes 503
// SERVICE_UNAVAILABLE with Retry-After, and no document half-written; once restored, everything
// works again without a restart.
import { randomBytes } from "node:crypto";
import { createServer, connect, type Server, type Socket } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestGateway } from "../helpers/gateway.ts";

const base = new URL(process.env["TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test");
const schema = `gw_outage_${process.pid}_${randomBytes(4).toString("hex")}`;

/** A TCP proxy to PostgreSQL that can be cut (every connection dropped, new ones refused) and restored on the same port. */
function pgProxy() {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const up = () =>
    new Promise<number>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(base.port || 5432), base.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("close", () => sockets.delete(s));
          s.on("error", () => {});
        }
        client.pipe(upstream).pipe(client);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as { port: number }).port;
        resolve(port);
      });
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server!.close(() => resolve());
    });
  return { up, down };
}

beforeAll(async () => {
  const client = new pg.Client({ connectionString: base.href });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
});
afterAll(async () => {
  const client = new pg.Client({ connectionString: base.href });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

it("PostgreSQL cut: /readyz 503, reads and writes 503 with Retry-After, nothing half-written; restored: served again without a restart", async () => {
  const proxy = pgProxy();
  const port = await proxy.up();
  const url = new URL(base.href);
  url.port = String(port);
  url.searchParams.set("options", `-c search_path=${schema}`);
  const tg = await startTestGateway({ DATABASE_URL: url.href, PG_CONNECT_TIMEOUT_MS: "1000" });
  try {
    const key = await tg.key({ user: "outage" });
    const auth = { authorization: `Bearer ${key}` };
    const create = (name: string) =>
      fetch(`${tg.url}/api/v1/documents`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ name, markdown: `# ${name}` }),
      });
    expect((await create("before")).status).toBe(201);

    await proxy.down();
    const ready = await fetch(`${tg.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: "unavailable", pool: { max: 10 } });
    for (const response of [await fetch(`${tg.url}/api/v1/documents`, { headers: auth }), await create("during")]) {
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      expect(await response.json()).toMatchObject({ error: { code: "SERVICE_UNAVAILABLE" } });
    }

    await proxy.up();
    let status = 0;
    for (const deadline = Date.now() + 10_000; status !== 200 && Date.now() < deadline;) {
      status = (await fetch(`${tg.url}/readyz`)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    expect((await create("after")).status).toBe(201);
    const list = (await (await fetch(`${tg.url}/api/v1/documents`, { headers: auth })).json()) as { documents: { name: string }[] };
    expect(list.documents.map((d) => d.name).sort()).toEqual(["after", "before"]);
  } finally {
    await tg.close();
    await proxy.down().catch(() => {});
  }
});
