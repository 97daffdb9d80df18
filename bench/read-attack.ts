// npm run bench:read-attack — issue 23 finding 1's attack, measured (test/security/read-attack.ts):
// a 390,000-character document with 111 versions built through the API, then the attacker's query
// (6 aliases of 100 versions' text, maxChars 1) and one alias of it, 1 and 4 at once, while
// /healthz is sampled every 50 ms and the gateway's RSS every 20 ms. Prints, per scenario, the
// answers' statuses and codes, the time to answer, the slowest /healthz and the RSS growth.
//   BENCH_ROOT=<checkout>  runs the gateway of another checkout (with node_modules) for a
//                          before/after comparison on the same machine, minutes apart.
//   BENCH_NODE_ARGS="--trace-gc"  extra node flags for the gateway.
// The gateway is its own process (src/main.ts through tsx, as the tests start it).
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signAccessToken } from "../test/products/harness.ts";
import { attackQuery, buildLivingDocument, underAttack } from "../test/security/read-attack.ts";
import { root } from "./lib.ts";

const secret = "read-attack-bench-secret-of-at-least-32-chars";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function main(): Promise<void> {
  const checkout = process.env["BENCH_ROOT"] ?? root;
  const dataDir = await mkdtemp(join(tmpdir(), "wg-bench-read-attack-"));
  const port = await freePort();
  const nodeArgs = (process.env["BENCH_NODE_ARGS"] ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, ["--max-semi-space-size=32", ...nodeArgs, "--import", "tsx", "src/main.ts"], {
    cwd: checkout,
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dataDir, JWT_SECRET: secret, LOG_LEVEL: "warn" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let ready = false; !ready;) {
      if (child.exitCode !== null) throw new Error(`gateway exited (${child.exitCode})`);
      ready = await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const auth = `Bearer ${await signAccessToken({ sub: "attacker" }, { secret, exp: "1h" })}`;
    const built = await buildLivingDocument(url, auth);
    console.log(`gateway of ${checkout}; document ${built.id}: ${built.characters} characters, ${built.versions} versions`);
    for (const [aliases, concurrent] of [
      [6, 1],
      [6, 4],
      [1, 1],
      [1, 4],
    ] as const) {
      const s = await underAttack(url, child.pid!, auth, attackQuery(built.id, aliases), concurrent);
      const outcomes = s.answers.map(
        (a) => `${a.status} ${[...new Set((a.body.errors ?? []).map((e) => e.extensions?.code))].join(",") || "ok"}`,
      );
      console.log(
        `${aliases} alias(es) x ${concurrent}: ${[...new Set(outcomes)].join(" | ")}; answered in ${s.elapsedMs.toFixed(0)} ms; ` +
          `/healthz max ${s.healthMaxMs.toFixed(0)} ms (${s.healthSamples} samples); RSS ${s.rssBeforeMb.toFixed(0)} → ${s.rssMaxMb.toFixed(0)} MB (+${(s.rssMaxMb - s.rssBeforeMb).toFixed(0)})`,
      );
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once("exit", resolve)));
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
