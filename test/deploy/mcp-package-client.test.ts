// Issue 26: the typed tRPC client in the light package, `workspace-gateway-mcp/client`. The packed
// tarball is installed into an empty project with @trpc/client and @trpc/server (its optional
// peers) and what a type-checking consumer adds (typescript, @types/node): a handful of packages,
// no native module, no database driver, no renderer. The consumer's own tsc checks a script
// against the shipped client.d.ts (strict, NodeNext, skipLibCheck false: the d.ts itself is
// checked), and the script then runs with plain node against a gateway on an ephemeral port.
// A plain-JavaScript project installs the package and the two peers with --omit=peer (else npm
// adds @trpc/*'s own peer, typescript, whose 7.x is a platform binary): three packages, same script.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { root } from "../helpers/process.ts";

const run = promisify(execFile);
const versionOf = (name: string) =>
  (JSON.parse(readFileSync(join(root, `node_modules/${name}/package.json`), "utf8")) as { version: string }).version;
/** The client's peers, then what a type-checking consumer adds (typescript is also a peer of @trpc/*: pinned here). */
const installed = ["@trpc/client", "@trpc/server", "typescript", "@types/node"];
let project: string;
let tg: TestGateway;
let key: string;
let installMs: number;
/** A plain-JavaScript user's project: the package and its two peers only, with --omit=peer. */
let jsProject: string;
let jsInstallMs: number;

const consumer = `import type { inferRouterOutputs } from "@trpc/server";
import { createGatewayClient, gatewayCode, isGatewayError, type AppRouter, type GatewayErrorCode } from "workspace-gateway-mcp/client";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type IsAny<T> = 0 extends 1 & T ? true : false;

const gateway = createGatewayClient({ url: process.env["GATEWAY_URL"] ?? "", token: process.env["GATEWAY_API_KEY"] ?? "" });
const created = await gateway.documents.create.mutate({ name: "From the light client", markdown: "# Light\\n\\nclient" });
const found = await gateway.documents.get.query({ id: created.id });
const sameAsRouter: Equal<typeof found, inferRouterOutputs<AppRouter>["documents"]["get"]> = true;
// documents.get answers null for an unknown id; documents.read is NOT_FOUND (below).
const foundMayBeNull: Equal<null extends typeof found ? true : false, true> = true;
if (!found) throw new Error("the document just created was not found");
const doc = found;
const name: string = doc.name;
const nameIsString: Equal<typeof doc.name, string> = true;
const notAny: IsAny<typeof doc> = false;
// @ts-expect-error: the name is a string, not a number
const wrongType: number = doc.name;
export async function misspelt(): Promise<void> {
  // @ts-expect-error: an unknown field is a type error before it is a 400
  await gateway.documents.create.mutate({ nmae: "x", markdown: "" });
}
const error: unknown = await gateway.documents.read.query({ id: "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A" }).catch((e: unknown) => e);
const code: GatewayErrorCode | undefined = gatewayCode(error);
console.log(JSON.stringify({ id: created.id, name, code, isGatewayError: isGatewayError(error), checks: [nameIsString, sameAsRouter, foundMayBeNull, notAny, typeof wrongType] }));
`;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), "wg-mcp-client-"));
  const [packed, gateway] = await Promise.all([
    run("npm", ["run", "-s", "pack:mcp", "--", project], { cwd: root, timeout: 180_000 }),
    startTestGateway(),
  ]);
  tg = gateway;
  key = await tg.key({ user: "light-client" });
  const tarball = packed.stdout.trim().split("\n").at(-1)!;
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({ name: "light-consumer", version: "1.0.0", type: "module", private: true }),
  );
  const started = Date.now();
  // --prefer-offline: from npm's cache when it has them (as test/firsthour/consumer.test.ts).
  await run(
    "npm",
    [
      "install",
      tarball,
      ...installed.map((name) => `${name}@${versionOf(name)}`),
      "--engine-strict",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
    ],
    { cwd: project, timeout: 240_000 },
  );
  installMs = Date.now() - started;

  // Without a typescript of its own, npm would add @trpc/*'s peer typescript at its latest, whose
  // 7.x ships a platform binary: a JavaScript user passes --omit=peer (packages/mcp/README.md).
  // Its own temporary directory: nothing of the first project's node_modules above it to fall back on.
  jsProject = await mkdtemp(join(tmpdir(), "wg-mcp-client-js-"));
  await writeFile(join(jsProject, "package.json"), JSON.stringify({ name: "js-consumer", version: "1.0.0", private: true }));
  const jsStarted = Date.now();
  await run(
    "npm",
    [
      "install",
      tarball,
      ...["@trpc/client", "@trpc/server"].map((name) => `${name}@${versionOf(name)}`),
      "--omit=peer",
      "--engine-strict",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
    ],
    { cwd: jsProject, timeout: 240_000 },
  );
  jsInstallMs = Date.now() - jsStarted;
}, 420_000);
afterAll(async () => {
  await tg?.close();
  for (const dir of [project, jsProject]) if (dir) await rm(dir, { recursive: true, force: true });
});

describe("workspace-gateway-mcp/client, packed and installed with its peers", () => {
  it("installs a handful of packages: no native module, no install script, no server dependency", async () => {
    const lock = JSON.parse(await readFile(join(project, "package-lock.json"), "utf8")) as {
      packages: Record<string, { hasInstallScript?: boolean; os?: unknown; cpu?: unknown }>;
    };
    const packages = Object.keys(lock.packages)
      .filter((path) => path !== "")
      .map((path) => path.replace(/^.*node_modules\//, ""))
      .sort();
    // @types/node brings undici-types; nothing else comes with the client.
    expect(packages).toEqual(["@trpc/client", "@trpc/server", "@types/node", "typescript", "undici-types", "workspace-gateway-mcp"]);
    expect(Object.values(lock.packages).filter((entry) => entry.hasInstallScript || entry.os || entry.cpu)).toEqual([]);
    const nativeFiles: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) await walk(join(dir, entry.name));
        else if (entry.name.endsWith(".node") || entry.name === "binding.gyp") nativeFiles.push(join(dir, entry.name));
      }
    };
    await walk(join(project, "node_modules"));
    expect(nativeFiles).toEqual([]);
    const dist = await readdir(join(project, "node_modules/workspace-gateway-mcp/dist"));
    expect(dist.sort()).toEqual(["cli.js", "client.d.ts", "client.js"]);
    expect(existsSync(join(project, "node_modules/workspace-gateway-mcp/src"))).toBe(false);
    console.log(`light client install: ${packages.length} packages in ${installMs} ms`);
  });

  it("type-checks a consumer with its own tsc (strict, NodeNext, skipLibCheck false), which then runs against a gateway", async () => {
    await writeFile(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ["node"],
        },
        files: ["consumer.ts"],
      }),
    );
    await writeFile(join(project, "consumer.ts"), consumer);
    const tsc = join(project, "node_modules/typescript/bin/tsc");
    const checked = await run(process.execPath, [tsc, "-p", project, "--noEmit"], { cwd: project, timeout: 180_000 }).then(
      () => ({ code: 0, stdout: "" }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(checked.stdout).toBe("");
    expect(checked.code).toBe(0);

    // Types stripped only (checked above), then plain node: the package ships JavaScript.
    const { outputText } = ts.transpileModule(consumer, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    });
    // The same script in both projects: the typed one, and the JavaScript one without typescript.
    for (const dir of [project, jsProject]) {
      await writeFile(join(dir, "consumer.mjs"), outputText);
      const { stdout } = await run(process.execPath, ["consumer.mjs"], {
        cwd: dir,
        env: { PATH: process.env["PATH"] ?? "", GATEWAY_URL: tg.url, GATEWAY_API_KEY: key },
        timeout: 60_000,
      });
      expect(JSON.parse(stdout.trim().split("\n").at(-1)!), dir).toEqual({
        id: expect.stringMatching(/^doc_/),
        name: "From the light client",
        code: "NOT_FOUND",
        isGatewayError: true,
        checks: [true, true, true, false, "string"],
      });
    }
  });

  it("a JavaScript project with --omit=peer has three packages on disk", async () => {
    const top = (await readdir(join(jsProject, "node_modules"))).filter((name) => !name.startsWith("."));
    expect(top.sort()).toEqual(["@trpc", "workspace-gateway-mcp"]);
    expect((await readdir(join(jsProject, "node_modules/@trpc"))).sort()).toEqual(["client", "server"]);
    console.log(`light client install, JavaScript (--omit=peer): 3 packages in ${jsInstallMs} ms`);
  });
});
