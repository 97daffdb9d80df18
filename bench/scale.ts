// `npm run bench:scale`: the read mix (90 % read a document's text, 10 % list) through REST with
// autocannon, in one run: one replica on SQLite, one on PostgreSQL, two on PostgreSQL behind a
// round-robin split (two autocannon instances, half the connections each, one per replica).
// Reported per scenario: requests/s, p99, and CPU milliseconds per request in the gateway
// process(es) (/proc/<pid>/stat, worker threads included) and in the PostgreSQL backends serving
// them (found by an application_name of the bench's own), plus the load generator's own CPU share.
// On a 2-core machine a second replica cannot add CPU: the CPU per request is what predicts how
// replicas scale on more cores. BENCH_SECONDS (10), BENCH_CONNECTIONS (20), BENCH_ROUNDS (1, below).
import autocannon from "autocannon";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createApiKey } from "../src/auth/api-keys.ts";
import { openStore } from "../src/store/index.ts";
import { startGatewayProcess, type GatewayProcess } from "../test/helpers/process.ts";

const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 10);
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 20);
const baseUrl = process.env["TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";
const TICK_MS = 10; // USER_HZ = 100 on Linux

/** utime + stime of a process, in ms (0 when it is gone). */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

interface Scenario {
  label: string;
  replicas: number;
  postgres: boolean;
}

async function runScenario({ label, replicas, postgres }: Scenario) {
  const app = `wg-scale-${randomBytes(4).toString("hex")}`;
  const schema = `gw_scale_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  const env: Record<string, string> = { LOG_LEVEL: "info" };
  let dataDir: string | undefined;
  if (postgres) {
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    env["DATABASE_URL"] = `${baseUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}&application_name=${app}`;
  } else {
    dataDir = await mkdtemp(join(tmpdir(), "wg-scale-"));
    env["DATA_DIR"] = dataDir;
  }
  const store = await openStore({ DATABASE_URL: env["DATABASE_URL"], DATA_DIR: dataDir ?? "./unused" });
  const { key } = await createApiKey(store, { userId: "scale" });
  await store.close();
  const gateways: GatewayProcess[] = [];
  try {
    for (let i = 0; i < replicas; i++) gateways.push(await startGatewayProcess(env));
    const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const response = await fetch(`${gateways[0]!.url}/api/v1/documents`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ name: `doc ${i}`, markdown: `# Document ${i}\n\n${"Some **text** to read back. ".repeat(80)}` }),
      });
      ids.push(((await response.json()) as { id: string }).id);
    }
    const requests = Array.from({ length: 100 }, (_, i) => ({
      method: "GET" as const,
      path: i % 10 === 9 ? "/api/v1/documents?limit=20" : `/api/v1/documents/${ids[i % ids.length]}?maxChars=2000`,
    }));
    const load = (seconds: number) =>
      Promise.all(
        gateways.map(
          (gw) =>
            new Promise<autocannon.Result>((resolve, reject) =>
              autocannon(
                {
                  url: gw.url,
                  connections: Math.max(1, Math.round(CONNECTIONS / replicas)),
                  duration: seconds,
                  headers: { authorization: `Bearer ${key}` },
                  requests,
                },
                (error, result) => (error ? reject(error) : resolve(result)),
              ),
            ),
        ),
      );
    await load(3); // warm-up: JIT, pool connections
    const backends = async () =>
      postgres
        ? (await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = $1`, [app])).rows.map((r) => r.pid)
        : [];
    const pgPidsBefore = await backends();
    const gwBefore = gateways.map((gw) => cpuMs(gw.child.pid!));
    const pgBefore = new Map(pgPidsBefore.map((pid) => [pid, cpuMs(pid)]));
    const selfBefore = process.cpuUsage();
    const started = performance.now();
    const results = await load(SECONDS);
    const wallMs = performance.now() - started;
    const self = process.cpuUsage(selfBefore);
    const gwMs = gateways.reduce((sum, gw, i) => sum + cpuMs(gw.child.pid!) - gwBefore[i]!, 0);
    const pgMs = (await backends()).reduce((sum, pid) => sum + cpuMs(pid) - (pgBefore.get(pid) ?? 0), 0);
    const total = results.reduce((sum, r) => sum + r.requests.total, 0);
    const errors = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
    return {
      label,
      rps: total / (wallMs / 1000),
      p99: Math.max(...results.map((r) => r.latency.p99)),
      errors,
      gatewayCpuMsPerRequest: gwMs / total,
      postgresCpuMsPerRequest: postgres ? pgMs / total : undefined,
      generatorShare: (self.user + self.system) / 1000 / (wallMs * cpus().length),
    };
  } finally {
    for (const gw of gateways) await gw.stop();
    if (postgres) {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

const scenarios: Scenario[] = [
  { label: "1 replica, SQLite", replicas: 1, postgres: false },
  { label: "1 replica, PostgreSQL", replicas: 1, postgres: true },
  { label: "2 replicas, PostgreSQL, round-robin split", replicas: 2, postgres: true },
];
// BENCH_ROUNDS (1): the three scenarios run in turn that many times, so that the machine's drift
// (it is shared) falls on all of them alike; each figure is then the median over the rounds.
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 1);
const runs: Awaited<ReturnType<typeof runScenario>>[][] = scenarios.map(() => []);
const ratios: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, scenario] of scenarios.entries()) runs[i]!.push(await runScenario(scenario));
  ratios.push(runs[1]![round]!.rps / runs[0]![round]!.rps);
  if (ROUNDS > 1)
    console.log(
      `  round ${round + 1}: ${runs.map((r) => r[round]!.rps.toFixed(0)).join(" / ")} req/s, PostgreSQL / SQLite ×${ratios[round]!.toFixed(2)}`,
    );
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const rows = runs.map((results) => ({
  label: results[0]!.label,
  rps: median(results.map((r) => r.rps)),
  p99: median(results.map((r) => r.p99)),
  errors: results.reduce((sum, r) => sum + r.errors, 0),
  gatewayCpuMsPerRequest: median(results.map((r) => r.gatewayCpuMsPerRequest)),
  postgresCpuMsPerRequest:
    results[0]!.postgresCpuMsPerRequest === undefined ? undefined : median(results.map((r) => r.postgresCpuMsPerRequest!)),
  generatorShare: median(results.map((r) => r.generatorShare)),
}));
console.log(
  `read mix (90 % text, 10 % list) through REST, ${CONNECTIONS} connections, ${SECONDS} s, ${cpus().length} cores` +
    (ROUNDS > 1 ? `, medians of ${ROUNDS} rounds:` : ":"),
);
for (const r of rows) {
  console.log(
    `  ${r.label.padEnd(44)} ${r.rps.toFixed(0).padStart(6)} req/s  p99 ${String(r.p99).padStart(4)} ms  ` +
      `gateway ${r.gatewayCpuMsPerRequest.toFixed(3)} CPU ms/req` +
      (r.postgresCpuMsPerRequest === undefined ? "" : `  PostgreSQL ${r.postgresCpuMsPerRequest.toFixed(3)} CPU ms/req`) +
      `  load generator ${(r.generatorShare * 100).toFixed(0)} % of the machine` +
      (r.errors ? `  ${r.errors} errors` : ""),
  );
}
const [, one, two] = rows;
console.log(
  `  PostgreSQL / SQLite, one replica: ×${median(ratios).toFixed(2)}${ROUNDS > 1 ? " (median of the rounds' ratios)" : ""}; ` +
    `two / one replica on PostgreSQL: ×${(two!.rps / one!.rps).toFixed(2)}`,
);
