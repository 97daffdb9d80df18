// npm run bench:app — the owner's application's list at 10,000 items (issue 40: answered in
// ≤ 50 ms server time). A real gateway (SQLite in a temp dir, or PostgreSQL with
// BENCH_DATABASE_URL) holds 9,000 documents (written straight to the store: the list reads
// records, not content) and 1,000 spreadsheets (made through the operations), all one owner's.
// A signed-in session then asks, over loopback HTTP with keep-alive, for the first page, a deep
// page (a cursor 150 pages in), a search that matches a few names and one that matches none
// (every name looked at); each ROUNDS times after a warm-up. The figures are the whole response
// as the client waits for it: loopback costs a fraction of a millisecond of it.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monotonicFactory } from "ulid";
import { createApiKey } from "../src/auth/api-keys.ts";
import { loadConfig } from "../src/core/config.ts";
import { createGateway } from "../src/gateway.ts";
import { listen } from "../src/server.ts";
import { AppClient } from "../test/helpers/app.ts";

const DOCUMENTS = Number(process.env["DOCUMENTS"] ?? 9_000);
const SPREADSHEETS = Number(process.env["SPREADSHEETS"] ?? 1_000);
const ROUNDS = Number(process.env["ROUNDS"] ?? 200);
const ulid = monotonicFactory();

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function time(client: AppClient, path: string): Promise<number[]> {
  for (let i = 0; i < 20; i++) await client.get(path);
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    const response = await client.get(path);
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status}`);
  }
  return times.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "wg-bench-app-"));
  const env = process.env["BENCH_DATABASE_URL"] ? { DATABASE_URL: process.env["BENCH_DATABASE_URL"] } : {};
  const gateway = await createGateway(
    loadConfig({ LOG_LEVEL: "silent", RATE_LIMIT_PER_MINUTE: "0", STORAGE_QUOTA_MB: "0", ...env, DATA_DIR: dataDir, PORT: "0" }),
  );
  const running = await listen(gateway, { port: 0, host: "127.0.0.1", shutdownTimeoutMs: 2_000 });
  try {
    const owner = `bench-${randomBytes(4).toString("hex")}`;
    const { key } = await createApiKey(gateway.store, { userId: owner });
    const seeding = performance.now();
    for (let i = 0; i < DOCUMENTS; i++) {
      const text = `Document ${i}`;
      await gateway.store.documents.create({
        id: `doc_${ulid()}`,
        ownerId: owner,
        name: i % 100 === 7 ? `Quarterly report ${i}` : `Document ${i}`,
        createdAt: new Date().toISOString(),
        createdBy: owner,
        docx: randomBytes(64),
        text,
        markdown: text,
      });
    }
    const ctx = await gateway.createContext({
      requestId: "bench",
      authorization: `Bearer ${key}`,
      signal: new AbortController().signal,
      clientAddress: "127.0.0.1",
    });
    for (let i = 0; i < SPREADSHEETS; i++) {
      await gateway.services.operations.run("sheets.create", ctx, {
        name: `Sheet ${i}`,
        sheets: [{ name: "Data", values: [[i, `=A1*2`]] }],
      });
    }
    process.stdout.write(
      `seeded ${DOCUMENTS} documents and ${SPREADSHEETS} spreadsheets in ${((performance.now() - seeding) / 1000).toFixed(1)} s (${gateway.store.kind})\n`,
    );

    const client = new AppClient(running.url);
    await client.signInWithKey(key);
    let deep = "/app";
    for (let page = 0; page < 150; page++) {
      const next = /href="(\/app\?cursor=[^"]+)">Next page/.exec((await client.get(deep)).text)?.[1];
      if (!next) break;
      deep = next.replace(/&amp;/g, "&");
    }
    const scenarios: [string, string][] = [
      ["first page", "/app"],
      ["page 151 (a cursor 7,500 items in)", deep],
      ['search "quarterly" (90 matches)', "/app?q=quarterly"],
      ['search "nothing" (no match: every name looked at)', "/app?q=nothing"],
    ];
    process.stdout.write(`${ROUNDS} requests each, milliseconds (p50 / p95 / max):\n`);
    for (const [label, path] of scenarios) {
      const times = await time(client, path);
      process.stdout.write(
        `  ${label.padEnd(52)} ${percentile(times, 50).toFixed(2)} / ${percentile(times, 95).toFixed(2)} / ${times.at(-1)!.toFixed(2)}\n`,
      );
    }
  } finally {
    await running.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
