// npm run bench:graphql — the same documents list through the three surfaces that serve it:
//   GraphQL  documents(first: 20) { edges { node { id name createdAt updatedAt sizeBytes characters downloadUrl } } }
//   tRPC     GET /trpc/documents.list?input={"limit":20}
//   REST     GET /api/v1/documents?limit=20
// 40 small documents created first (one API key), then autocannon, 20 connections, one ~8 s run
// per surface after a 2 s warm-up, against the gateway in its own process (RATE_LIMIT_PER_MINUTE=0,
// LOG_LEVEL=warn). `--profile` also writes a CPU profile of the gateway and prints its hottest functions.
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey } from "../src/auth/api-keys.ts";
import { openSqliteStore } from "../src/store/sqlite.ts";
import {
  check,
  hottest,
  latestProfile,
  measure,
  ms,
  pad,
  peakRssMb,
  startGateway,
  type Child,
  type Measured,
  type Target,
} from "./gateway.ts";

const profile = process.argv.includes("--profile");
const seconds = Number(process.env["BENCH_SECONDS"] ?? 8);
const connections = 20;
const DOCUMENTS = 40;

const dataDir = await mkdtemp(join(tmpdir(), "wg-bench-gql-"));
const profileDir = join(dataDir, "profiles");
const store = openSqliteStore(dataDir);
const { key } = await createApiKey(store, { userId: "bench", scopes: ["docs:read", "docs:write"] });
await store.close();

let gateway: Child | undefined;
try {
  gateway = await startGateway({ DATA_DIR: dataDir }, profile ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []);
  const auth = { authorization: `Bearer ${key}` };
  for (let i = 0; i < DOCUMENTS; i++) {
    const response = await fetch(`${gateway.url}/api/v1/documents`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({
        name: `Bench document ${i}`,
        markdown: `# Document ${i}\n\nSome **bold** text, a [link](https://example.com) and a list:\n\n- one\n- two\n`,
      }),
    });
    if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
  }

  const fields = "id name createdAt updatedAt sizeBytes characters downloadUrl";
  const graphql: Target = {
    name: "GraphQL documents(first: 20)",
    url: `${gateway.url}/graphql`,
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ query: `{ documents(first: 20) { edges { node { ${fields} } } } }` }),
  };
  const trpc: Target = {
    name: "tRPC documents.list",
    url: `${gateway.url}/trpc/documents.list?input=${encodeURIComponent(JSON.stringify({ limit: 20 }))}`,
    headers: auth,
  };
  const rest: Target = { name: "REST /api/v1/documents", url: `${gateway.url}/api/v1/documents?limit=20`, headers: auth };
  await check(graphql, (b) => (b as { data?: { documents?: { edges?: unknown[] } } }).data?.documents?.edges?.length === 20);
  await check(trpc, (b) => (b as { result?: { data?: { documents?: unknown[] } } }).result?.data?.documents?.length === 20);
  await check(rest, (b) => (b as { documents?: unknown[] }).documents?.length === 20);

  const watch = { gateway: gateway.pid };
  const run = async (target: Target) => {
    await measure(target, { connections, seconds: 2 }); // warm-up, not reported
    return measure(target, { connections, seconds, watch });
  };
  const r = await run(rest);
  const g = await run(graphql);
  const t = await run(trpc);
  const rss = peakRssMb(gateway.pid);

  const row = (m: Measured) =>
    `  ${pad(m.name, 30)} ${m.rps.toFixed(0).padStart(7)} req/s   p50 ${pad(ms(m.p50), 9)} p99 ${pad(ms(m.p99), 9)}` +
    ` gateway CPU ${m.cpuPer1k["gateway"]!.toFixed(3)} s/1k` +
    (m.non2xx || m.errors ? `   (${m.non2xx} non-2xx, ${m.errors} errors!)` : "");
  console.log(`
documents list bench — ${DOCUMENTS} documents, the same 20 through each surface; ${connections} connections, ${seconds} s per run
after a 2 s warm-up; ${cpus().length} cores shared by autocannon (this process) and the gateway (own process, LOG_LEVEL=warn)
${row(r)}
${row(g)}
${row(t)}
  ratio GraphQL / REST   ${(g.rps / r.rps).toFixed(2)}   target ≥ 0.6
  ratio tRPC / REST      ${(t.rps / r.rps).toFixed(2)}   target ≥ 0.6
  gateway peak RSS (VmHWM)  ${rss.toFixed(0)} MB
`);
  console.log(
    JSON.stringify({
      documents: DOCUMENTS,
      connections,
      seconds,
      rest: r,
      graphql: g,
      trpc: t,
      graphqlRatio: g.rps / r.rps,
      trpcRatio: t.rps / r.rps,
      gatewayPeakRssMb: rss,
    }),
  );
} finally {
  await gateway?.stop();
  if (profile) {
    const file = await latestProfile(profileDir).catch(() => undefined);
    if (file) console.log(`\ngateway CPU profile (main thread): ${file}\n${hottest(file).join("\n")}`);
  } else {
    await rm(dataDir, { recursive: true, force: true });
  }
}
