// npm run bench:tracing — what OpenTelemetry tracing costs (docs/observability.md). autocannon
// (50 connections, BENCH_SECONDS per run after a 2 s warm-up) on a GraphQL product read that
// makes one upstream call, against gateways running side by side on the same sandbox:
//   (a) tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT): no SDK loaded, no middleware
//   (b) tracing on: server + client spans, batch-exported over OTLP/HTTP protobuf to a local sink
//   (c) optional, BENCH_BASELINE_DIR: the same gateway from another checkout (e.g. the commit
//       before tracing, with node_modules linked), to compare (a) with the code before it existed
// in BENCH_ROUNDS rounds of (a), (b)[, (c)]; ratios are taken within a round (this VM's speed
// drifts), and the median round's ratio is reported with every round's. BENCH_SKIP_ON=1 leaves
// (b) out, for more rounds of (a) against (c) in the same time.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignJWT } from "jose";
import { startArgs } from "../test/helpers/process.ts";
import { check, measure, startSandboxProcess, type Child, type Measured, type Target } from "./gateway.ts";

const ROUNDS = Math.max(1, Number(process.env["BENCH_ROUNDS"] ?? 3));
const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 8);
const root = new URL("../", import.meta.url).pathname;

/** `npm start`'s command in `cwd`, on a port of its own; ready when /healthz answers. */
async function startGatewayIn(cwd: string, env: Record<string, string>): Promise<Child> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const child = spawn(process.execPath, startArgs(), {
    cwd,
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "0", ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    if (child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
  };
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    if (child.exitCode !== null) throw new Error(`gateway in ${cwd} exited (${child.exitCode})`);
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, pid: child.pid!, url, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`gateway in ${cwd} did not become healthy in 60 s`);
}

/** An OTLP/HTTP traces endpoint that accepts and drops everything, counting the exports. */
async function startSink(): Promise<{ url: string; exports: () => number; close(): Promise<void> }> {
  let exports = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      exports++;
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, exports: () => exports, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] as number;

async function main(): Promise<void> {
  const secret = "bench-secret-bench-secret-bench-secret-42";
  const token = await new SignJWT({ scope: "docs:read" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject("bench")
    .setExpirationTime("2h")
    .sign(new TextEncoder().encode(secret));
  const sink = await startSink();
  const sandbox = await startSandboxProcess({ SANDBOX_TOKENS: token });
  const dirs: string[] = [];
  const gateways: Child[] = [];
  try {
    const start = async (cwd: string, extra: Record<string, string>) => {
      const dataDir = await mkdtemp(join(tmpdir(), "wg-bench-trace-"));
      dirs.push(dataDir);
      const gateway = await startGatewayIn(cwd, {
        API_URL: sandbox.url,
        JWT_SECRET: secret,
        DATA_DIR: dataDir,
        RENDER_WORKERS: "1",
        OTEL_EXPORTER_OTLP_ENDPOINT: "",
        ...extra,
      });
      gateways.push(gateway);
      return gateway;
    };
    const off = await start(root, {});
    const skipOn = process.env["BENCH_SKIP_ON"] === "1";
    const on = skipOn ? undefined : await start(root, { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_SERVICE_NAME: "bench" });
    const baselineDir = process.env["BENCH_BASELINE_DIR"];
    const baseline = baselineDir ? await start(baselineDir, {}) : undefined;

    const auth = { authorization: `Bearer ${token}` };
    const query = JSON.stringify({ query: "{ messages(first: 20) { edges { node { id subject from { email } receivedAt } } } }" });
    const target = (name: string, gateway: Child): Target => ({
      name,
      url: `${gateway.url}/graphql`,
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: query,
    });
    const targets = [
      target("(a) tracing off", off),
      ...(on ? [target("(b) tracing on", on)] : []),
      ...(baseline ? [target("(c) baseline", baseline)] : []),
    ];
    for (const t of targets)
      await check(t, (b) => (b as { data?: { messages?: { edges?: unknown[] } } }).data?.messages?.edges?.length === 20);

    const pids = [off.pid, ...(on ? [on.pid] : []), ...(baseline ? [baseline.pid] : [])];
    const rounds: Measured[][] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const round: Measured[] = [];
      for (const [j, t] of targets.entries()) {
        await measure(t, { connections: 50, seconds: 2 }); // warm-up, not reported
        round.push(await measure(t, { connections: 50, seconds: SECONDS, watch: { gateway: pids[j] as number } }));
      }
      rounds.push(round);
      console.log(
        `round ${i + 1}: ${round.map((m) => `${m.name} ${Math.round(m.rps)} req/s, p99 ${m.p99} ms, ${m.cpuPer1k["gateway"]?.toFixed(2)} CPU-s/1k, non-2xx ${m.non2xx}`).join(" | ")}`,
      );
    }
    const ratio = (k: number, of: (m: Measured) => number) => rounds.map((r) => of(r[k] as Measured) / of(r[0] as Measured));
    const rps = (m: Measured) => m.rps;
    const cpu = (m: Measured) => m.cpuPer1k["gateway"] ?? NaN;
    const fmt = (xs: number[]) => `${median(xs).toFixed(3)} (rounds: ${xs.map((x) => x.toFixed(3)).join(", ")})`;
    console.log("");
    if (on) {
      console.log(`throughput (b)/(a), tracing on vs off: ${fmt(ratio(1, rps))}`);
      console.log(`gateway CPU per request (b)/(a):      ${fmt(ratio(1, cpu))}`);
    }
    if (baseline) {
      const c = on ? 2 : 1;
      console.log(`throughput (a)/(c), off vs baseline:  ${fmt(ratio(c, rps).map((x) => 1 / x))}`);
      console.log(`gateway CPU per request (a)/(c):      ${fmt(ratio(c, cpu).map((x) => 1 / x))}`);
    }
    console.log(`OTLP exports received by the sink: ${sink.exports()}`);
  } finally {
    for (const gateway of gateways) await gateway.stop();
    await sandbox.stop();
    await sink.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}

await main();
