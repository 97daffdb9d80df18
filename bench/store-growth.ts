// npm run bench:store-growth — issue 23 finding 5: what renames cost in storage. A real gateway
// (its render pool, a store of its own) gets one 390,000-character document over REST, then
// RENAMES renames (PATCH {name}, default 110); the store is measured before and after, and every
// version is read back. SQLite: the file (after a WAL checkpoint). PostgreSQL, when
// BENCH_DATABASE_URL is set: the tables of a schema of its own, with indexes and TOAST. Sizes, not
// times: the figures do not depend on how busy the machine is.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { createApiKey } from "../src/auth/api-keys.ts";
import { loadConfig } from "../src/core/config.ts";
import { createGateway } from "../src/gateway.ts";
import { listen } from "../src/server.ts";
import { generateMarkdown } from "../test/fixtures/gen-markdown.ts";

const RENAMES = Number(process.env["RENAMES"] ?? 110);
const MB = 1024 * 1024;

/** Creates, renames, reads back; `sizeOf` measures the store. */
async function measure(label: string, env: Record<string, string>, sizeOf: (dataDir: string) => Promise<number>): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "wg-bench-growth-"));
  const gateway = await createGateway(
    loadConfig({ LOG_LEVEL: "silent", RATE_LIMIT_PER_MINUTE: "0", STORAGE_QUOTA_MB: "0", ...env, DATA_DIR: dataDir, PORT: "0" }),
  );
  const running = await listen(gateway, { port: 0, host: "127.0.0.1", shutdownTimeoutMs: 2_000 });
  try {
    const { key } = await createApiKey(gateway.store, { userId: "bench" });
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const url = `${running.url}/api/v1/documents`;
    const markdown = generateMarkdown(390_000, 5);
    const created = await fetch(url, { method: "POST", headers, body: JSON.stringify({ name: "Big", markdown }) });
    const { id } = (await created.json()) as { id: string };
    const before = await sizeOf(dataDir);
    for (let i = 1; i <= RENAMES; i++) {
      const renamed = await fetch(`${url}/${id}`, { method: "PATCH", headers, body: JSON.stringify({ name: `Big ${i}` }) });
      if (renamed.status !== 200) throw new Error(`rename ${i}: HTTP ${renamed.status}`);
    }
    const after = await sizeOf(dataDir);
    let whole = 0;
    for (let v = 1; v <= RENAMES + 1; v++) {
      const read = await fetch(`${url}/${id}/versions/${v}?format=markdown&maxChars=1000000`, { headers });
      // The service stores the markdown without its final line ending.
      if (((await read.json()) as { text: string }).text === markdown.trimEnd()) whole++;
    }
    console.log(
      `${label}: ${(before / MB).toFixed(1)} MB after the create, ${(after / MB).toFixed(1)} MB after ${RENAMES} renames ` +
        `(+${((after - before) / MB).toFixed(1)} MB, ${((after - before) / RENAMES / 1024).toFixed(1)} kB a rename); ` +
        `${whole} of ${RENAMES + 1} versions read back`,
    );
  } finally {
    await running.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await measure("SQLite", {}, async (dataDir) => {
  const db = new Database(join(dataDir, "gateway.sqlite"));
  try {
    db.pragma("wal_checkpoint(TRUNCATE)");
    return (db.prepare(`SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()`).get() as { n: number }).n;
  } finally {
    db.close();
  }
});

const pgUrl = process.env["BENCH_DATABASE_URL"];
if (pgUrl) {
  const schema = `bench_growth_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
    const url = `${pgUrl}${pgUrl.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    await measure("PostgreSQL", { DATABASE_URL: url }, async () => {
      const { rows } = await admin.query<{ n: string }>(
        `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
         WHERE s.nspname = $1 AND c.relkind = 'r'`,
        [schema],
      );
      return Number(rows[0]!.n);
    });
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}
