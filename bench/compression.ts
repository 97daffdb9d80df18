// npm run bench:compression — what response compression costs and saves, on the two bodies it is
// for: GraphiQL's page (GET /graphql, Accept: text/html; ~9 MB, the Node fast path) and a list of
// 100 documents (GET /api/v1/documents?limit=100, JSON through Hono). Each without Accept-Encoding,
// with gzip and with br: the bytes on the wire (one request read raw, undici does not decode) and
// autocannon's requests per second (after a 2 s warm-up per encoding; BENCH_SECONDS each, default 5; 4 connections for GraphiQL, 20
// for the list). The gateway runs as its own process (npm start's flags and default LOG_LEVEL), sharing
// this machine's cores with autocannon.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { request } from "undici";
import { createApiKey } from "../src/auth/api-keys.ts";
import { openSqliteStore } from "../src/store/sqlite.ts";
import { startGatewayProcess } from "./lib.ts";

const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 5);

const dataDir = await mkdtemp(join(tmpdir(), "wg-bench-compression-"));
const store = openSqliteStore(dataDir);
const { key } = await createApiKey(store, { userId: "bench" });
await store.close();
// LOG_LEVEL=info, the default: the helper waits for the listening line (requests are logged too, on every row alike).
const gateway = await startGatewayProcess({ DATA_DIR: dataDir, LOG_LEVEL: "info" });
const auth = { authorization: `Bearer ${key}` };

try {
  // 100 documents with realistic names, so that the list is a real 100-item page.
  for (let i = 0; i < 100; i++) {
    const response = await fetch(`${gateway.url}/api/v1/documents`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ name: `Quarterly review ${i} — revenue, churn and hiring plan`, markdown: `# Review ${i}\n\nShort.` }),
    });
    if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
  }

  const targets: { name: string; path: string; headers: Record<string, string>; connections: number }[] = [
    { name: "GraphiQL page", path: "/graphql", headers: { accept: "text/html" }, connections: 4 },
    { name: "100-document JSON list", path: "/api/v1/documents?limit=100", headers: { ...auth }, connections: 20 },
  ];
  const encodings = [undefined, "gzip", "br"] as const;
  const rows: { target: string; encoding: string; bytes: number; reqPerSec: number }[] = [];
  for (const target of targets) {
    // Warm-up (JIT, SQLite page cache, the compressed-page cache) before any row is measured.
    for (const encoding of encodings) {
      const headers: Record<string, string> = { ...target.headers, ...(encoding ? { "accept-encoding": encoding } : {}) };
      await autocannon({ url: `${gateway.url}${target.path}`, headers, connections: target.connections, duration: 2 });
    }
    for (const encoding of encodings) {
      const headers: Record<string, string> = { ...target.headers, ...(encoding ? { "accept-encoding": encoding } : {}) };
      const raw = await request(`${gateway.url}${target.path}`, { headers });
      const bytes = (await raw.body.arrayBuffer()).byteLength;
      const served = raw.headers["content-encoding"] ?? "identity";
      if ((encoding ?? "identity") !== served) throw new Error(`${target.name}: asked ${encoding ?? "identity"}, got ${String(served)}`);
      const result = await autocannon({ url: `${gateway.url}${target.path}`, headers, connections: target.connections, duration: SECONDS });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${target.name} ${served}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      rows.push({ target: target.name, encoding: served, bytes, reqPerSec: result.requests.average });
    }
  }

  console.log(`\nResponse compression (${SECONDS} s per row; bytes = one response as sent)\n`);
  console.log("| body | encoding | bytes | ratio | req/s | req/s vs identity |");
  console.log("|---|---|---:|---:|---:|---:|");
  for (const row of rows) {
    const identity = rows.find((r) => r.target === row.target && r.encoding === "identity")!;
    console.log(
      `| ${row.target} | ${row.encoding} | ${row.bytes.toLocaleString("en")} | ${(identity.bytes / row.bytes).toFixed(2)}× | ` +
        `${row.reqPerSec.toFixed(1)} | ${(row.reqPerSec / identity.reqPerSec).toFixed(2)}× |`,
    );
  }
} finally {
  await gateway.stop();
  await rm(dataDir, { recursive: true, force: true });
}
