// `npm run bench:mcp-package`: what an agent's `npx -y workspace-gateway-mcp` costs. Packs the
// package (npm run pack:mcp), installs the tarball into BENCH_RUNS fresh empty projects and times
// each `npm install` (offline: it has no dependency), counts the packages installed, then times
// the installed bin's cold start to the first tools/list answer against a gateway on an
// ephemeral port (spawn → initialize → tools/list, through the real MCP SDK stdio client).
// Medians of BENCH_RUNS (5) are printed.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startTestGateway } from "../test/helpers/gateway.ts";
import { median, root } from "./lib.ts";

const run = promisify(execFile);
const RUNS = Number(process.env["BENCH_RUNS"] ?? 5);

const work = await mkdtemp(join(tmpdir(), "wg-bench-mcp-"));
const tg = await startTestGateway();
try {
  const packed = await run("npm", ["run", "-s", "pack:mcp", "--", work], { cwd: root });
  const tarball = packed.stdout.trim().split("\n").at(-1)!;
  const installs: number[] = [];
  const starts: number[] = [];
  let packages = 0;
  let bin = "";
  for (let i = 0; i < RUNS; i++) {
    const project = join(work, `project-${i}`);
    await run("mkdir", ["-p", project]);
    await writeFile(join(project, "package.json"), JSON.stringify({ name: "agent", version: "1.0.0", private: true }));
    const t0 = performance.now();
    await run("npm", ["install", tarball, "--offline", "--no-audit", "--no-fund"], { cwd: project });
    installs.push(performance.now() - t0);
    packages = (await readdir(join(project, "node_modules"))).filter((name) => !name.startsWith(".")).length;
    bin = join(project, "node_modules/.bin/workspace-gateway-mcp");
  }
  const key = await tg.key({ user: "bench" });
  let tools = 0;
  for (let i = 0; i < RUNS; i++) {
    const env = { PATH: `${dirname(process.execPath)}:${process.env["PATH"] ?? ""}`, GATEWAY_URL: tg.url, GATEWAY_TOKEN: key };
    const t0 = performance.now();
    const client = new Client({ name: "bench", version: "1" });
    await client.connect(new StdioClientTransport({ command: bin, args: ["mcp"], env, stderr: "ignore" }));
    tools = (await client.listTools()).tools.length;
    starts.push(performance.now() - t0);
    await client.close();
  }
  const size = (await stat(tarball)).size;
  console.log(`tarball ${(size / 1024).toFixed(0)} KiB; packages installed: ${packages}`);
  console.log(`npm install of the tarball (offline), median of ${RUNS}: ${median(installs).toFixed(0)} ms`);
  console.log(`cold start to first tools/list (${tools} tools), median of ${RUNS}: ${median(starts).toFixed(0)} ms`);
} finally {
  await tg.close();
  await rm(work, { recursive: true, force: true });
}
