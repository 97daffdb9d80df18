// Issue 14 part 5: the package as a separate project installs it. `npm pack`, then a temporary
// project installs the tarball and @trpc/client (from the npm cache when it can) and calls a real
// gateway through `workspace-gateway/client` with plain node (the package ships compiled dist/),
// and type-checks against the shipped .d.ts files, without the server's sources. One copy of
// @trpc/client (the package depends on it; npm dedupes it with the consumer's), so even `instanceof TRPCClientError` holds; and with two copies
// (a path install, simulated by a symlink to this repository) isGatewayError/gatewayCode still work.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { root } from "../helpers/process.ts";

const run = promisify(execFile);
let tg: TestGateway;
let key: string;
let project: string;
const versionOf = (name: string) =>
  (JSON.parse(readFileSync(join(root, `node_modules/${name}/package.json`), "utf8")) as { version: string }).version;
const trpcVersion = versionOf("@trpc/client");
/** What a type-checking consumer adds (docs/consumers.md): its own compiler and Node's types, nothing of the server's. */
const typeCheckDeps = ["typescript", "@types/node"];

const consumerScript = (from: string) => `
import { TRPCClientError } from "@trpc/client";
import { createGatewayClient, gatewayCode, isGatewayError } from "${from}";
const gateway = createGatewayClient({ url: process.env.GATEWAY_URL, token: process.env.GATEWAY_API_KEY });
const doc = await gateway.documents.create.mutate({ name: "From a consumer", markdown: "# hi" });
const error = await gateway.documents.read.query({ id: "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A" }).catch((e) => e);
console.log(JSON.stringify({ url: doc.url, instanceOf: error instanceof TRPCClientError, isGatewayError: isGatewayError(error), code: gatewayCode(error) }));
`;

/** Runs a consumer script with plain node: no TypeScript loader (the package ships JavaScript). */
async function runConsumer(file: string): Promise<{ url: string; instanceOf: boolean; isGatewayError: boolean; code: string }> {
  const { stdout } = await run(process.execPath, [file], {
    cwd: project,
    env: { ...process.env, GATEWAY_URL: tg.url, GATEWAY_API_KEY: key },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as never;
}

beforeAll(async () => {
  tg = await startTestGateway();
  key = await tg.key({ user: "consumer" });
  project = await mkdtemp(join(tmpdir(), "wg-consumer-"));
  const { stdout } = await run("npm", ["pack", "--pack-destination", project, "--silent"], { cwd: root, timeout: 60_000 });
  const tarball = join(project, stdout.trim().split("\n").at(-1)!);
  await writeFile(join(project, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", type: "module", private: true }));
  // --ignore-scripts: a client needs no native SQLite build. --prefer-offline: the npm cache first.
  const packages = [tarball, `@trpc/client@${trpcVersion}`, ...typeCheckDeps.map((name) => `${name}@${versionOf(name)}`)];
  await run("npm", ["install", ...packages, "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund"], {
    cwd: project,
    timeout: 240_000,
  });
}, 300_000);
afterAll(async () => {
  await tg?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

describe("installed from the packed tarball", () => {
  it("has one copy of @trpc/client: the package's is the consumer's (deduped)", async () => {
    const copies: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        if (!entry.isDirectory()) continue;
        const path = join(dir, entry.name);
        if (path.endsWith(join("@trpc", "client"))) copies.push(path);
        else if (entry.name === "node_modules" || entry.name.startsWith("@") || dir.endsWith("node_modules")) await walk(path);
      }
    };
    await walk(join(project, "node_modules"));
    expect(copies).toEqual([join(project, "node_modules/@trpc/client")]);
    expect(existsSync(join(project, "node_modules/workspace-gateway/dist/src/client/index.js"))).toBe(true);
    expect(existsSync(join(project, "node_modules/workspace-gateway/dist/src/client/index.d.ts"))).toBe(true);
    expect(existsSync(join(project, "node_modules/workspace-gateway/src"))).toBe(false);
    expect(existsSync(join(project, "node_modules/workspace-gateway/test"))).toBe(false);
  });

  it("calls the gateway; errors are told apart with instanceof and with isGatewayError/gatewayCode", async () => {
    await writeFile(join(project, "tarball.mjs"), consumerScript("workspace-gateway/client"));
    expect(await runConsumer("tarball.mjs")).toEqual({
      url: expect.stringMatching(/^\/api\/v1\/documents\/doc_/),
      instanceOf: true,
      isGatewayError: true,
      code: "NOT_FOUND",
    });
  });
});

describe("type-checked by the consumer's own tsc", () => {
  it("the typed client and the type-only AppRouter entry check under strict settings", async () => {
    await writeFile(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
        },
        files: ["typed.ts"],
      }),
    );
    await writeFile(
      join(project, "typed.ts"),
      `import { createTRPCClient, httpBatchLink } from "@trpc/client";
import type { AppRouter } from "workspace-gateway";
import { createGatewayClient, gatewayCode, type GatewayErrorCode } from "workspace-gateway/client";
const raw = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: "http://127.0.0.1:4000/trpc" })] });
const gateway = createGatewayClient({ url: "http://127.0.0.1:4000", token: "wgk_" });
export async function use(): Promise<[string | undefined, string, GatewayErrorCode | undefined]> {
  const list = await raw.documents.list.query({ limit: 1 });
  const read = await gateway.documents.read.query({ id: "doc_x", maxChars: 10 });
  // @ts-expect-error: an unknown field is a type error before it is a 400
  await gateway.documents.create.mutate({ nmae: "x", markdown: "" });
  return [list.documents[0]?.downloadUrl, read.text, gatewayCode(new Error("x"))];
}
`,
    );
    const tsc = join(project, "node_modules/typescript/bin/tsc");
    const result = await run(process.execPath, [tsc, "-p", project], { cwd: project, timeout: 120_000 }).then(
      () => ({ code: 0, stdout: "" }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(result.stdout).toBe("");
    expect(result.code).toBe(0);
  });
});

describe("installed from a path (a symlink to the repository, which keeps its own @trpc/client)", () => {
  it("instanceof fails across the two copies; isGatewayError and gatewayCode do not", async () => {
    await symlink(root, join(project, "node_modules/linked-gateway"), "dir");
    await writeFile(join(project, "linked.mjs"), consumerScript("linked-gateway/client"));
    expect(await runConsumer("linked.mjs")).toMatchObject({ instanceOf: false, isGatewayError: true, code: "NOT_FOUND" });
  });
});
