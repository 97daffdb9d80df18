// `npm run bench:startup`: start-up time and memory of the gateway run from the sources through tsx
// (what `npm start` did before the build) against plain node on dist/ (`npm start` now). Each run
// spawns the process on a fresh SQLite DATA_DIR, polls /healthz every 5 ms and records the time from
// spawn to the first 200 and the process's RSS then; after one document create (the first render
// starts a worker thread) it records RSS again. Runs alternate tsx/dist so that the machine's drift
// hits both alike; the median of BENCH_RUNS (5) is reported, with the dist/tsx ratio.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey } from "../src/auth/api-keys.ts";
import { openSqliteStore } from "../src/store/sqlite.ts";
import { memoryOf, startArgs } from "../test/helpers/process.ts";
import { median, root } from "./lib.ts";
import { build, staleReason } from "../scripts/build.mjs";

const RUNS = Number(process.env["BENCH_RUNS"] ?? 5);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Sample {
  readyMs: number;
  rssReadyMb: number;
  rssAfterCreateMb: number;
}

async function once(args: string[]): Promise<Sample> {
  const dataDir = await mkdtemp(join(tmpdir(), "wg-startup-"));
  const store = openSqliteStore(dataDir);
  const { key } = await createApiKey(store, { userId: "bench" });
  await store.close();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "0" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`gateway exited (${child.exitCode})`);
      if (performance.now() - started > 60_000) throw new Error("no /healthz within 60 s");
      const ok = await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const readyMs = performance.now() - started;
    const rssReadyMb = memoryOf(child.pid!).rss / 2 ** 20;
    const created = await fetch(`${url}/api/v1/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "startup", markdown: "# Start-up\n\nOne **document**.\n\n- a\n- b" }),
    });
    if (created.status !== 201) throw new Error(`create answered ${created.status}`);
    await created.arrayBuffer();
    const rssAfterCreateMb = memoryOf(child.pid!).rss / 2 ** 20;
    return { readyMs, rssReadyMb, rssAfterCreateMb };
  } finally {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}

const stale = staleReason();
if (stale) {
  console.log(`building dist/ (${stale})…`);
  build();
}
const tsxArgs = startArgs();
const distArgs = [...tsxArgs.slice(0, tsxArgs.indexOf("--import")), "dist/src/main.js"];
const runs: Record<"tsx" | "dist", Sample[]> = { tsx: [], dist: [] };
for (let i = 0; i < RUNS; i++) {
  runs.tsx.push(await once(tsxArgs));
  runs.dist.push(await once(distArgs));
}
const summary = (samples: Sample[]) => ({
  readyMs: median(samples.map((s) => s.readyMs)),
  rssReadyMb: median(samples.map((s) => s.rssReadyMb)),
  rssAfterCreateMb: median(samples.map((s) => s.rssAfterCreateMb)),
});
const tsx = summary(runs.tsx);
const dist = summary(runs.dist);
console.log(`start-up, median of ${RUNS} (spawn → first /healthz 200; RSS at that moment and after the first create):`);
console.log(`  tsx  node ${tsxArgs.join(" ")}`);
console.log(`  dist node ${distArgs.join(" ")}`);
const row = (label: string, s: ReturnType<typeof summary>) =>
  `  ${label}  ${s.readyMs.toFixed(0).padStart(5)} ms   RSS ${s.rssReadyMb.toFixed(0).padStart(4)} MB   after a create ${s.rssAfterCreateMb.toFixed(0).padStart(4)} MB`;
console.log(row("tsx ", tsx));
console.log(row("dist", dist));
console.log(
  `  dist/tsx: start-up ×${(dist.readyMs / tsx.readyMs).toFixed(2)}, RSS ×${(dist.rssReadyMb / tsx.rssReadyMb).toFixed(2)}, after a create ×${(dist.rssAfterCreateMb / tsx.rssAfterCreateMb).toFixed(2)}`,
);
console.log(
  `  every run (ms): tsx ${runs.tsx.map((s) => s.readyMs.toFixed(0)).join(", ")}; dist ${runs.dist.map((s) => s.readyMs.toFixed(0)).join(", ")}`,
);
