// PostgreSQL settings (PG_* variables, docs/deploy.md#postgresql) on the machine's real PostgreSQL,
// in a schema of this test's own: the pool's size holds, the statement timeout fires, PgBouncer
// mode sends no startup parameter PgBouncer would refuse and leaves no session state, /readyz
// reports the pool.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres.ts";
import { startTestGateway } from "../helpers/gateway.ts";

const baseUrl = process.env["TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";
const schema = `gw_deploy_${process.pid}_${randomBytes(4).toString("hex")}`;
/** A URL on this test's schema, with an application_name of its own to find its backends by. */
const urlFor = (app: string) =>
  `${baseUrl}${baseUrl.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}&application_name=${app}`;
const appName = () => `wg-deploy-${randomBytes(4).toString("hex")}`;

let admin: pg.Client;
beforeAll(async () => {
  admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
});
afterAll(async () => {
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
});

const backends = async (app: string) =>
  Number((await admin.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1`, [app])).rows[0]!.n);

const stores: PostgresStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
});
async function open(app: string, settings: Parameters<typeof openPostgresStore>[1]): Promise<PostgresStore> {
  const store = await openPostgresStore(urlFor(app), settings);
  stores.push(store);
  return store;
}

describe("PostgreSQL pool settings", () => {
  it("PG_POOL_MAX bounds the backends: 6 concurrent statements on a pool of 2 use 2 connections, 4 wait", async () => {
    const app = appName();
    const store = await open(app, { poolMax: 2 });
    const sleeps = Array.from({ length: 6 }, () => store.pool.query("SELECT pg_sleep(0.4)"));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await backends(app)).toBe(2);
    expect(store.poolStats!()).toMatchObject({ max: 2, total: 2, waiting: 4 });
    await Promise.all(sleeps);
    expect(store.poolStats!()).toMatchObject({ max: 2, total: 2, idle: 2, waiting: 0 });
  });

  it("PG_STATEMENT_TIMEOUT_MS cancels a longer statement (57014) and the connection stays usable", async () => {
    const store = await open(appName(), { poolMax: 1, statementTimeoutMs: 200 });
    expect((await store.pool.query<{ statement_timeout: string }>("SHOW statement_timeout")).rows[0]!.statement_timeout).toBe("200ms");
    const started = Date.now();
    await expect(store.pool.query("SELECT pg_sleep(5)")).rejects.toMatchObject({ code: "57014" });
    expect(Date.now() - started).toBeLessThan(3_000);
    await store.ping();
  });

  it("the statement timeout defaults to 30 s; 0 turns it off", async () => {
    const byDefault = await open(appName(), {});
    expect((await byDefault.pool.query<{ statement_timeout: string }>("SHOW statement_timeout")).rows[0]!.statement_timeout).toBe("30s");
    const none = await open(appName(), { statementTimeoutMs: 0 });
    expect((await none.pool.query<{ statement_timeout: string }>("SHOW statement_timeout")).rows[0]!.statement_timeout).toBe("0");
  });

  it("PG_PGBOUNCER: no statement_timeout startup parameter, and no session state after the store's work", async () => {
    const store = await open(appName(), { poolMax: 1, statementTimeoutMs: 200, pgbouncer: true });
    // The server's default (0 here), not ours: PgBouncer refuses an unknown startup parameter.
    expect((await store.pool.query<{ statement_timeout: string }>("SHOW statement_timeout")).rows[0]!.statement_timeout).toBe("0");
    const id = `key_${randomBytes(6).toString("hex")}`;
    const now = new Date().toISOString();
    await store.insertApiKey({
      id,
      userId: "u",
      tenant: null,
      scopes: ["docs:read"],
      hash: `h-${id}`,
      prefix: "wgk_x",
      createdAt: now,
      expiresAt: null,
      revokedAt: null,
    });
    expect(await store.findApiKeyByHash(`h-${id}`)).toMatchObject({ id });
    expect(await store.revokeApiKey(id, now)).toBe(true);
    await store.documents.list({ ownerId: "u", limit: 5 });
    // One connection did all of that: it holds no named prepared statement and no advisory lock.
    expect((await store.pool.query<{ n: string }>("SELECT count(*) AS n FROM pg_prepared_statements")).rows[0]!.n).toBe("0");
    expect(
      (await store.pool.query<{ n: string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"))
        .rows[0]!.n,
    ).toBe("0");
  });

  it("without PgBouncer the hot reads are named prepared statements, prepared once per connection", async () => {
    const store = await open(appName(), { poolMax: 1 });
    for (let i = 0; i < 3; i++) {
      await store.findApiKeyByHash("nope");
      await store.documents.readText("u", "doc_nope");
      await store.documents.list({ ownerId: "u", limit: 5 });
      await store.documents.list({ ownerId: "u", limit: 5, beforeId: "doc_z", nameContains: "x" });
    }
    const { rows } = await store.pool.query<{ name: string }>("SELECT name FROM pg_prepared_statements ORDER BY name");
    // The list's statements are named per kind (src/store/lifecycle.ts: one lifecycle for every kind and both databases).
    expect(rows.map((row) => row.name)).toEqual(["wg_documents_list_", "wg_documents_list_cq", "wg_find_api_key", "wg_read_text"]);
  });

  it("through the gateway: PG_POOL_MAX=2 holds under 40 concurrent requests, and /readyz shows the pool", async () => {
    const app = appName();
    const tg = await startTestGateway({ DATABASE_URL: urlFor(app), PG_POOL_MAX: "2" });
    try {
      const key = await tg.key({ user: `pool-${app}` });
      let most = 0;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          most = Math.max(most, await backends(app));
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const statuses = await Promise.all(
        Array.from({ length: 40 }, async () => {
          const response = await fetch(`${tg.url}/api/v1/documents?limit=5`, { headers: { authorization: `Bearer ${key}` } });
          await response.arrayBuffer();
          return response.status;
        }),
      );
      sampling = false;
      await sampler;
      expect(new Set(statuses)).toEqual(new Set([200]));
      expect(most).toBeGreaterThanOrEqual(1);
      expect(most).toBeLessThanOrEqual(2);
      const ready = (await (await fetch(`${tg.url}/readyz`)).json()) as { status: string; pool: Record<string, number> };
      expect(ready.status).toBe("ready");
      expect(ready.pool).toMatchObject({ max: 2, waiting: 0 });
      expect(ready.pool["total"]).toBeLessThanOrEqual(2);
      expect(ready.pool["idle"]).toBeLessThanOrEqual(ready.pool["total"]!);
    } finally {
      await tg.close();
    }
  });
});
