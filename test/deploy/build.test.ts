// The build (`npm run build`, scripts/build.mjs) and what `npm start` runs: plain node on
// dist/src/main.js, no TypeScript loader. CI builds before `npm test`; a developer's fresh
// `npm test` builds here when dist/ is missing or older than a source.
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import { root } from "../helpers/process.ts";
import { build, staleReason } from "../../scripts/build.mjs";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

beforeAll(() => {
  if (staleReason() !== undefined) build();
}, 300_000);

async function* jsFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* jsFiles(path);
    else if (/\.m?js$/.test(entry.name)) yield path;
  }
}

describe("npm run build", () => {
  it("package.json: start runs node on dist/, prestart builds a stale dist/, dev watches the sources", async () => {
    const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts["start"]).toMatch(/^MALLOC_ARENA_MAX=2 node (--\S+ )*dist\/src\/main\.js$/);
    expect(pkg.scripts["prestart"]).toBe("node scripts/build.mjs --if-stale");
    expect(pkg.scripts["build"]).toBe("node scripts/build.mjs");
    expect(pkg.scripts["dev"]).toMatch(/^tsx watch .*src\/main\.ts$/);
    expect(await readFile(join(root, ".gitignore"), "utf8")).toMatch(/^dist\/$/m);
  });

  it("emits JavaScript that imports no .ts file, with the worker bootstrap, schema, docs and package.json beside it", async () => {
    let files = 0;
    for await (const file of jsFiles(join(root, "dist"))) {
      files++;
      // A bootstrap's tsx branch is taken only from the sources, where no compiled worker exists.
      if (file.endsWith("worker-bootstrap.mjs")) continue;
      const text = await readFile(file, "utf8");
      // A relative import left ending in .ts would need a TypeScript loader at run time.
      expect(text, file).not.toMatch(/(from|import)\s*\(?\s*["']\.{1,2}\/[^"']*\.ts["']/);
    }
    expect(files).toBeGreaterThan(50);
    const dist = await readdir(join(root, "dist", "src", "documents", "pool"));
    expect(dist).toEqual(expect.arrayContaining(["worker-bootstrap.mjs", "render-worker.js", "index.js"]));
    const sheets = await readdir(join(root, "dist", "src", "spreadsheets", "pool"));
    expect(sheets).toEqual(expect.arrayContaining(["worker-bootstrap.mjs", "worker.js", "index.js"]));
    expect((await readdir(join(root, "dist", "schema"))).filter((f) => f.endsWith(".graphql")).length).toBeGreaterThan(3);
    // Served at GET /docs/<name>.md (src/http/docs.ts reads ../../docs/ from dist/src/http/).
    expect((await readdir(join(root, "dist", "docs"))).sort()).toEqual(
      (await readdir(join(root, "docs"))).filter((f) => f.endsWith(".md")).sort(),
    );
    const pkg = JSON.parse(await readFile(join(root, "dist", "package.json"), "utf8")) as { type: string; version: string };
    const source = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { version: string };
    expect(pkg).toMatchObject({ type: "module", version: source.version });
  });

  it("node dist/src/main.js answers /healthz, renders in a worker, serves GraphQL, and exits 0 on SIGTERM", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "wg-dist-"));
    dirs.push(dataDir);
    const store = openSqliteStore(dataDir);
    const { key } = await createApiKey(store, { userId: "dist" });
    await store.close();
    // No --import: nothing but node itself (a .ts file reached at run time would fail to load).
    const child = spawn(process.execPath, ["dist/src/main.js"], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: "", DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "info", RATE_LIMIT_PER_MINUTE: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    try {
      const { url, signInLink } = await new Promise<{ url: string; signInLink?: string }>((resolve, reject) => {
        createInterface({ input: child.stdout }).on("line", (line) => {
          if (line.includes('"workspace-gateway listening"')) resolve(JSON.parse(line) as { url: string; signInLink?: string });
        });
        void exited.then((code) => reject(new Error(`dist/src/main.js exited (${code}): ${stderr}`)));
      });
      expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: "ok" });
      // The quick start's way in (docs/app.md "Your first sign-in"): the printed link opens a session.
      const signedIn = await fetch(signInLink ?? "(no signInLink in the start-up line)", { redirect: "manual" });
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.getSetCookie().join()).toMatch(/^wg_session=wgs_/);
      const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const created = await fetch(`${url}/api/v1/documents`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ name: "from dist", markdown: "# Built\n\nPlain **node**." }),
      });
      expect(created.status).toBe(201);
      const graphql = await fetch(`${url}/graphql`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ query: "{ documents(first: 5) { edges { node { name text { text } } } } }" }),
      });
      expect(await graphql.json()).toEqual({
        data: { documents: { edges: [{ node: { name: "from dist", text: { text: "Built\n\nPlain node." } } }] } },
      });
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});

describe("the workspace-gateway command from dist/", () => {
  const run = promisify(execFile);
  // No --import, no TypeScript loader: what a deployment of dist/ runs.
  const node = (args: string[], env: Record<string, string>) =>
    run(process.execPath, args, { cwd: root, env: { ...process.env, NODE_OPTIONS: "", LOG_LEVEL: "silent", ...env } });

  it("node dist/src/cli/index.js keys create --init makes the store and a key; keys list reads it", async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), "wg-dist-cli-")), "data");
    dirs.push(dirname(dataDir));
    const created = await node(["dist/src/cli/index.js", "keys", "create", "--init", "--user", "dist-cli", "--json"], {
      DATA_DIR: dataDir,
    });
    expect(created.stderr).toContain(`Store: SQLite ${dataDir}/gateway.sqlite`);
    expect(JSON.parse(created.stdout)).toMatchObject({ userId: "dist-cli", key: expect.stringMatching(/^wgk_/) });
    const listed = await node(["dist/src/cli/index.js", "keys", "list", "--json"], { DATA_DIR: dataDir });
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ userId: "dist-cli" })]);
  });

  it("bin/workspace-gateway.js runs the build (no tsx loaded) while it is current", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "wg-dist-bin-"));
    dirs.push(dataDir);
    // tsx's register() turns on source maps; plain node leaves them off. Reported at exit.
    const probe = `data:text/javascript,process.on("exit",()=>process.stderr.write("sourceMaps="+process.sourceMapsEnabled+"\\n"))`;
    const { stdout, stderr } = await node(["--import", probe, "bin/workspace-gateway.js", "keys", "list", "--json", "--init"], {
      DATA_DIR: dataDir,
    });
    expect(JSON.parse(stdout)).toEqual([]);
    // Sources edited since the build (a checkout mid-edit) send the command to tsx, rightly.
    if (staleReason() === undefined) expect(stderr).toContain("sourceMaps=false");
  });

  it("node dist/src/cli/index.js serve starts the gateway and stops on SIGTERM", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "wg-dist-serve-"));
    dirs.push(dataDir);
    const child = spawn(process.execPath, ["dist/src/cli/index.js", "serve"], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: "", DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).on("line", (line) => {
          if (line.includes('"workspace-gateway listening"')) resolve((JSON.parse(line) as { url: string }).url);
        });
        void exited.then((code) => reject(new Error(`serve exited (${code})`)));
      });
      expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: "ok" });
      expect((await fetch(`${url}/docs/deploy.md`)).status).toBe(200);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
