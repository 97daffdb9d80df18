// npm run bench:soak — does the gateway hold steady over a long mixed load? SOAK_REQUESTS
// (default 1,000,000) requests over SOAK_CONNECTIONS (32) keep-alive connections, spread over the
// four surfaces — REST, GraphQL, tRPC, MCP — and over documents (SQLite), products (the sandbox
// upstream, test/sandbox/), writes (renames) and refusals (404, validation, the read budget's
// cost limit): the mix below, in a fixed shuffled order. The gateway and the sandbox each run in
// their own process on 127.0.0.1 (nothing leaves the machine); every request has a bounded answer.
// Every SOAK_REQUESTS/20 requests it samples the gateway's RSS (/proc) and its event-loop delay
// and heap (its /metrics: prom-client's lag histogram, reset at each scrape), then prints RSS
// growth after the warm-up (the first SOAK_WARMUP requests, default a tenth, at least 20,000),
// its trend per 100,000 requests, and the event-loop delay of the first and last intervals.
// Target: RSS growth after warm-up ≤ 50 MB. Run it niced on a shared machine; figures are noisy.
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request } from "undici";
import { createApiKey } from "../src/auth/api-keys.ts";
import { openSqliteStore } from "../src/store/sqlite.ts";
import { signAccessToken } from "../test/products/harness.ts";
import { startGateway, startSandboxProcess, type Child } from "./gateway.ts";
import { soakMix, type SoakRequest } from "./soak-mix.ts";

const TOTAL = Number(process.env["SOAK_REQUESTS"] ?? 1_000_000);
const CONNECTIONS = Number(process.env["SOAK_CONNECTIONS"] ?? 32);
const WARMUP = Number(process.env["SOAK_WARMUP"] ?? Math.max(20_000, Math.round(TOTAL / 10)));
const SAMPLES = 20;
const RSS_TARGET_MB = 50;
const secret = "soak-bench-secret-of-at-least-32-characters";

interface Sample {
  done: number;
  seconds: number;
  rssMb: number;
  heapMb: number;
  lagP99Ms: number;
  lagMaxMs: number;
  rps: number;
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** One gauge of prom-client's text format. */
const gauge = (text: string, name: string): number => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? NaN);

async function sample(gateway: Child, done: number, started: number, last: { done: number; at: number }): Promise<Sample> {
  const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
  const now = performance.now();
  const rps = ((done - last.done) / (now - last.at)) * 1000;
  last.done = done;
  last.at = now;
  return {
    done,
    seconds: (now - started) / 1000,
    rssMb: rssMb(gateway.pid),
    heapMb: gauge(metrics, "nodejs_heap_size_used_bytes") / 2 ** 20,
    lagP99Ms: gauge(metrics, "nodejs_eventloop_lag_p99_seconds") * 1000,
    lagMaxMs: gauge(metrics, "nodejs_eventloop_lag_max_seconds") * 1000,
    rps,
  };
}

/** Least-squares slope of RSS against requests, in MB per 100,000 requests. */
function slope(samples: Sample[]): number {
  const n = samples.length;
  if (n < 2) return NaN;
  const mx = samples.reduce((s, p) => s + p.done, 0) / n;
  const my = samples.reduce((s, p) => s + p.rssMb, 0) / n;
  const num = samples.reduce((s, p) => s + (p.done - mx) * (p.rssMb - my), 0);
  const den = samples.reduce((s, p) => s + (p.done - mx) ** 2, 0);
  return (num / den) * 100_000;
}

async function send(agent: Agent, base: string, item: SoakRequest): Promise<boolean> {
  try {
    const response = await request(`${base}${item.path}`, {
      dispatcher: agent,
      method: item.method,
      headers: item.headers,
      ...(item.body === undefined ? {} : { body: item.body }),
    });
    const text = await response.body.text();
    return item.expect(response.statusCode, text);
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "wg-bench-soak-"));
  const store = openSqliteStore(dataDir);
  const { key } = await createApiKey(store, { userId: "soak", scopes: ["docs:read", "docs:write"] });
  await store.close();
  const sandbox = await startSandboxProcess({ SANDBOX_TOKENS: "*" });
  let gateway: Child | undefined;
  try {
    gateway = await startGateway({ DATA_DIR: dataDir, API_URL: sandbox.url, JWT_SECRET: secret, RENDER_WORKERS: "1" });
    const token = await signAccessToken({ sub: "soak-user" }, { secret, exp: "12h" });
    const mix = await soakMix(gateway.url, { key, token });
    console.log(
      `soak: ${TOTAL} requests, ${CONNECTIONS} connections, warm-up ${WARMUP}; mix of ${mix.items.length} per round: ` +
        Object.entries(mix.perSurface)
          .map(([surface, n]) => `${surface} ${n}`)
          .join(", "),
    );
    const agent = new Agent({ connections: CONNECTIONS, pipelining: 1 });
    const started = performance.now();
    const last = { done: 0, at: started };
    const samples: Sample[] = [];
    const every = Math.max(1, Math.round(TOTAL / SAMPLES));
    let next = 0;
    let done = 0;
    let failed = 0;
    const failures = new Map<string, number>();
    let sampling: Promise<void> = Promise.resolve();
    const worker = async () => {
      while (next < TOTAL) {
        const item = mix.items[next++ % mix.items.length]!;
        if (!(await send(agent, gateway!.url, item))) {
          failed++;
          failures.set(item.name, (failures.get(item.name) ?? 0) + 1);
        }
        done++;
        if (done % every === 0 || done === WARMUP) {
          const at = done;
          sampling = sampling.then(async () => {
            const s = await sample(gateway!, at, started, last);
            samples.push(s);
            console.log(
              `  ${String(at).padStart(8)} req  ${s.seconds.toFixed(0).padStart(5)} s  ${s.rps.toFixed(0).padStart(5)} req/s  ` +
                `RSS ${s.rssMb.toFixed(1)} MB  heap ${s.heapMb.toFixed(1)} MB  event-loop delay p99 ${s.lagP99Ms.toFixed(1)} ms, max ${s.lagMaxMs.toFixed(1)} ms`,
            );
          });
        }
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
    await sampling;
    await agent.close();
    report(samples, done, failed, failures, (performance.now() - started) / 1000);
  } finally {
    await gateway?.stop();
    await sandbox.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function report(samples: Sample[], done: number, failed: number, failures: Map<string, number>, seconds: number): void {
  const after = samples.filter((s) => s.done >= WARMUP).sort((a, b) => a.done - b.done);
  const base = after[0];
  const end = after.at(-1);
  console.log(`\n${done} requests in ${seconds.toFixed(0)} s (${(done / seconds).toFixed(0)} req/s); unexpected answers: ${failed}`);
  for (const [name, n] of failures) console.log(`  ${name}: ${n}`);
  if (!base || !end || base === end) {
    console.log("too few samples after the warm-up for a drift (raise SOAK_REQUESTS or lower SOAK_WARMUP)");
    return;
  }
  const growth = end.rssMb - base.rssMb;
  const peak = Math.max(...after.map((s) => s.rssMb));
  const mid = after.slice(1, -1);
  console.log(
    `RSS after warm-up (${base.done} req): ${base.rssMb.toFixed(1)} MB; at the end: ${end.rssMb.toFixed(1)} MB; ` +
      `growth ${growth.toFixed(1)} MB (peak ${peak.toFixed(1)} MB); trend ${slope(after).toFixed(1)} MB per 100,000 requests ` +
      `(${slope(after.slice(Math.floor(after.length / 2))).toFixed(1)} over the second half: a heap still settling rises early, a leak keeps rising); ` +
      `target ≤ ${RSS_TARGET_MB} MB: ${growth <= RSS_TARGET_MB ? "met" : "NOT met"}`,
  );
  console.log(`heap used: ${base.heapMb.toFixed(1)} → ${end.heapMb.toFixed(1)} MB`);
  const first = mid[0] ?? end;
  console.log(
    `event-loop delay, first interval after warm-up → last: p99 ${first.lagP99Ms.toFixed(1)} → ${end.lagP99Ms.toFixed(1)} ms, ` +
      `max ${first.lagMaxMs.toFixed(1)} → ${end.lagMaxMs.toFixed(1)} ms; throughput ${first.rps.toFixed(0)} → ${end.rps.toFixed(0)} req/s`,
  );
}

await main();
