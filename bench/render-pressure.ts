// npx tsx bench/render-pressure.ts [CREATES] [doc|table] — the render limits under an attacker's
// burst (docs/rendering-limits.md): CREATES concurrent 400k creates from three users at once
// against a gateway process (RENDER_WORKERS and the other RENDER_* from the environment, default
// one worker), while /healthz is probed every 20 ms (from its own process) and a fourth user
// makes one tiny create once the burst is queued. Prints the outcomes, how long the last success
// waited, /healthz latency, the tiny create's latency, and the gateway's RSS (peak, and 5 s after
// the burst). The machine is shared: compare runs made back to back, not across days.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey } from "../src/auth/api-keys.ts";
import { warmupMarkdown } from "../src/documents/pool/warmup.ts";
import { openSqliteStore } from "../src/store/sqlite.ts";
import { fmt, peakRssMb, quantile, startGatewayProcess } from "./lib.ts";

const creates = Number(process.argv[2] ?? 60);
const kind = process.argv[3] ?? "doc";
const dir = await mkdtemp(join(tmpdir(), "wg-bench-pressure-"));
const markdown =
  kind === "table"
    ? (() => {
        const row = `|${"a|".repeat(200)}\n`;
        return `${row}|${"-|".repeat(200)}\n${row.repeat(990)}`;
      })()
    : warmupMarkdown(385); // ~397,000 characters of every construct the renderer handles

const PROBER = `
  const url = process.argv[1];
  const latencies = [];
  let probing = true;
  process.stdin.on("end", () => (probing = false)).resume();
  while (probing) {
    const started = performance.now();
    await fetch(url + "/healthz").then((r) => r.arrayBuffer());
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  process.stdout.write(JSON.stringify(latencies));
`;

const store = openSqliteStore(dir);
const keys = await Promise.all(["u1", "u2", "u3", "tiny"].map(async (userId) => (await createApiKey(store, { userId })).key));
await store.close();

const gateway = await startGatewayProcess({ DATA_DIR: dir, RENDER_WORKERS: process.env["RENDER_WORKERS"] ?? "1" });
const pid = gateway.child.pid!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const create = async (key: string, name: string, body: string) => {
  const started = performance.now();
  const response = await fetch(`${gateway.url}/api/v1/documents`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ name, markdown: body }),
  });
  const text = await response.text();
  const code = response.ok ? "201" : `${response.status} ${(JSON.parse(text) as { error: { code: string } }).error.code}`;
  return { code, ms: performance.now() - started, retryAfter: response.headers.get("retry-after") };
};
const metric = async (name: string) => {
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  return text.split("\n").filter((l) => l.startsWith(name));
};

try {
  await create(keys[0]!, "warm-up", "# warm");
  // prom-client resets its event-loop delay histogram on each scrape: this one drops start-up.
  await metric("nodejs_eventloop_lag_max_seconds");
  // /healthz is probed from a process of its own: this one is busy sending the burst's bodies, and
  // its own stalls would be counted as the gateway's.
  const prober = spawn(process.execPath, ["--input-type=module", "-e", PROBER, gateway.url], { stdio: ["pipe", "pipe", "inherit"] });
  let proberOut = "";
  prober.stdout.on("data", (chunk: Buffer) => (proberOut += chunk.toString()));
  const proberDone = new Promise((resolve) => prober.once("exit", resolve));
  const burstStarted = performance.now();
  const burst = Array.from({ length: creates }, (_, i) => create(keys[i % 3]!, `burst ${i}`, markdown));
  await sleep(500);
  const tiny = create(keys[3]!, "tiny", "# tiny");
  const results = await Promise.all(burst);
  const tinyResult = await tiny;
  const burstMs = performance.now() - burstStarted;
  prober.stdin.end();
  await proberDone;
  const health = JSON.parse(proberOut) as number[];
  const peak = peakRssMb(pid);
  await sleep(5_000);
  const settled = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;

  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.code, (counts.get(r.code) ?? 0) + 1);
  const successes = results.filter((r) => r.code === "201").map((r) => r.ms);
  console.log(
    `${creates} concurrent ${markdown.length}-character creates (${kind}), RENDER_WORKERS=${process.env["RENDER_WORKERS"] ?? "1"}:`,
  );
  console.log(`  outcomes              ${[...counts].map(([c, n]) => `${n} × ${c}`).join(", ")}`);
  console.log(
    `  Retry-After on 503s   ${[...new Set(results.filter((r) => r.code.startsWith("503")).map((r) => r.retryAfter))].join(", ") || "-"}`,
  );
  console.log(`  last success waited   ${successes.length ? fmt(Math.max(...successes)) : "-"}; the burst took ${fmt(burstMs)}`);
  console.log(`  tiny create (4th user) ${tinyResult.code} in ${fmt(tinyResult.ms)}`);
  console.log(
    `  /healthz              ${health.length} probes, p50 ${fmt(quantile(health, 0.5))}, p99 ${fmt(quantile(health, 0.99))}, max ${fmt(Math.max(...health))}`,
  );
  console.log(`  event-loop delay      ${(await metric("nodejs_eventloop_lag_max_seconds")).join("; ")} (during the burst)`);
  console.log(`  gateway RSS           peak ${peak.toFixed(0)} MB, 5 s after the burst ${settled.toFixed(0)} MB`);
  console.log(`  render events         ${(await metric("gateway_render_events_total{")).join("; ") || "-"}`);
} finally {
  await gateway.stop();
  await rm(dir, { recursive: true, force: true });
}
