// npm run bench:sheet-attacks — issue 37's spreadsheet attacks (F3, F4, F7), measured against the
// gateway as `npm start` runs it (dist/src/main.js: run `npm run build` first): each hostile upload
// (test/security/sheet-attacks.ts) and each batch of large reads, while /healthz is sampled every
// 50 ms and the gateway's RSS every 20 ms. Prints, per attack, the status, the time to answer, the
// slowest /healthz and the RSS growth.
//   BENCH_ROOT=<checkout>  runs the built gateway of another checkout (with node_modules and dist/)
//                          for a before/after comparison on the same machine, minutes apart.
//   BENCH_ONLY=lie,cells   runs only the attacks whose names start with one of these.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signAccessToken } from "../test/products/harness.ts";
import {
  bigWorkbook,
  graphqlReadArray,
  honestHugeXlsx,
  lyingSheetXlsx,
  manyCellsXlsx,
  manyEntriesXlsx,
  mcpReadBatch,
  sampled,
  trpcReadBatch,
  unterminatedQuoteCsv,
  unusedStringsXlsx,
  upload,
} from "../test/security/sheet-attacks.ts";
import { builtStartArgs, root, startEnv } from "../test/helpers/process.ts";

const secret = "sheet-attacks-bench-secret-of-at-least-32-chars";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

type Outcome = { status: number; bytes?: number; body: string };
/** An attack: what it sends is built first (outside the measurement), then it is sent. */
type Attack = [name: string, prepare: () => (url: string, auth: string, id: string) => Promise<Outcome>];

const file = (bytes: () => Uint8Array, name: string) => () => {
  const built = bytes();
  return (url: string, auth: string) => upload(url, auth, built, name);
};

const attacks: Attack[] = [
  ["lie-300MB-declares-1000", file(() => lyingSheetXlsx(), "lie.xlsx")],
  ["honest-1GB", file(() => honestHugeXlsx(), "huge.xlsx")],
  ["entries-10001", file(() => manyEntriesXlsx(), "entries.xlsx")],
  ["cells-2000001", file(() => manyCellsXlsx(), "cells.xlsx")],
  ["strings-1.5M-unused", file(() => unusedStringsXlsx(), "strings.xlsx")],
  ["csv-unterminated-quote-21MB", file(() => unterminatedQuoteCsv(), "quote.csv")],
  ["trpc-batch-40x100000", () => trpcReadBatch],
  ["mcp-batch-40x100000", () => mcpReadBatch],
  // Within BATCH_MAX_CALLS: the cell budget (REQUEST_READ_BUDGET_CELLS) answers three, refuses the rest.
  ["trpc-batch-20x100000", () => (url, auth, id) => trpcReadBatch(url, auth, id, 20)],
  ["mcp-batch-20x100000", () => (url, auth, id) => mcpReadBatch(url, auth, id, 20)],
  ["graphql-array-40x100000", () => graphqlReadArray],
];

async function main(): Promise<void> {
  const checkout = process.env["BENCH_ROOT"] ?? root;
  const only = (process.env["BENCH_ONLY"] ?? "").split(",").filter(Boolean);
  const dataDir = await mkdtemp(join(tmpdir(), "wg-bench-sheet-attacks-"));
  const port = await freePort();
  const child = spawn(process.execPath, builtStartArgs(), {
    cwd: checkout,
    env: {
      ...process.env,
      ...startEnv(),
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      JWT_SECRET: secret,
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_MINUTE: "0",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  // Never leave the gateway behind, however this process ends.
  process.once("exit", () => child.kill("SIGKILL"));
  try {
    for (let ready = false; !ready;) {
      if (child.exitCode !== null) throw new Error(`gateway exited (${child.exitCode})`);
      ready = await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const auth = `Bearer ${await signAccessToken({ sub: "attacker", scope: "sheets:read sheets:write" }, { secret, exp: "1h" })}`;
    let workbookId: string | undefined;
    console.log(`gateway of ${checkout} (dist/src/main.js)`);
    for (const [name, prepare] of attacks) {
      if (only.length > 0 && !only.some((prefix) => name.startsWith(prefix))) continue;
      if (/batch|array/.test(name)) workbookId ??= await bigWorkbook(url, auth);
      const send = prepare();
      // Settle between attacks: the last one's garbage collected, its worker back.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const s = await sampled(url, child.pid, () =>
        send(url, auth, workbookId ?? "").catch((error: unknown): Outcome => ({
          status: 0,
          body: String((error as Error).cause ?? error),
        })),
      );
      const { status, bytes, body } = s.result;
      const code = status === 0 ? body : (/"(?:code|gatewayCode)":"([A-Z_]+)"/.exec(body)?.[1] ?? "");
      console.log(
        `${name}: ${status} ${code}${bytes === undefined ? "" : ` ${(bytes / 1024 / 1024).toFixed(1)} MB`}; answered in ${s.elapsedMs.toFixed(0)} ms; ` +
          `/healthz max ${s.healthMaxMs.toFixed(0)} ms (${s.healthSamples} samples, ${s.healthFailures} failed); RSS +${s.rssGrowthMb.toFixed(0)} MB`,
      );
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once("exit", resolve)));
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
