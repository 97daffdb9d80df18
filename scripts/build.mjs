#!/usr/bin/env node
// `npm run build`: compiles the server to dist/ with tsc (tsconfig.build.json; types are checked
// by `npm run typecheck`, the build only emits) and puts next to it what the compiled code reads
// at run time through import.meta.url:
//   dist/schema/*.graphql            resolvers/sdl.ts reads ../schema/
//   dist/package.json                src/version.ts reads ../package.json (name, version, "type": "module")
//   dist/docs/*.md                   src/http/docs.ts serves ../../docs/ at GET /docs/<name>.md
//   dist/src/documents/pool/worker-bootstrap.mjs   the render worker's entry
//   dist/src/spreadsheets/pool/worker-bootstrap.mjs the spreadsheets worker's entry
//   dist/src/app/bundles/*.js        the owner's application's client scripts, bundled by esbuild
//                                    (src/app/bundle.ts), so that running dist/ needs no bundler
// `--if-stale` (npm's prestart) builds only when dist/ is missing or older than a source, so that
// `npm install && npm start` works on a fresh clone and after a `git pull`.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const dist = join(root, "dist");
const stamp = join(dist, ".build-stamp");
/** Everything the build reads: a change to any of these makes dist/ stale. */
const inputs = [
  "src",
  "resolvers",
  "adapters",
  "schema",
  "docs",
  "package.json",
  "tsconfig.json",
  "tsconfig.build.json",
  "scripts/build.mjs",
];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/** Why dist/ must be (re)built, or undefined when it is up to date. */
export function staleReason() {
  if (!existsSync(stamp)) return "dist/ has not been built";
  const built = statSync(stamp).mtimeMs;
  const changed = inputs.find((input) => newest(join(root, input)) > built);
  return changed ? `${changed} changed since the last build` : undefined;
}

export function build() {
  const started = Date.now();
  // Built aside, then swapped in: a test or `bin` running from dist/ while another test file
  // rebuilds it (npm pack's prepack, build.test.ts) never sees a half-emitted tree.
  const out = join(root, `dist.tmp-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  try {
    emit(out);
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    throw error;
  }
  const old = join(root, `dist.old-${process.pid}`);
  // A concurrent build may swap its own dist/ in between the two renames: move that aside too.
  for (let attempt = 0; ; attempt++) {
    rmSync(old, { recursive: true, force: true });
    if (existsSync(dist)) renameSync(dist, old);
    try {
      renameSync(out, dist);
      break;
    } catch (error) {
      if (attempt >= 3 || !["ENOTEMPTY", "EEXIST"].includes(error?.code)) throw error;
    }
  }
  rmSync(old, { recursive: true, force: true });
  return Date.now() - started;
}

/** Compiles into `out` and puts beside the code what it reads at run time (see the header). */
function emit(out) {
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  if (!existsSync(tsc)) {
    throw new Error("TypeScript is not installed (a devDependency): run `npm install` (not `--omit=dev`) before building");
  }
  const result = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json"), "--noCheck", "--outDir", out], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error(`tsc failed (exit ${result.status ?? result.signal})`);

  mkdirSync(join(out, "schema"), { recursive: true });
  for (const file of readdirSync(join(root, "schema"))) {
    if (file.endsWith(".graphql")) copyFileSync(join(root, "schema", file), join(out, "schema", file));
  }
  mkdirSync(join(out, "docs"), { recursive: true });
  for (const file of readdirSync(join(root, "docs"))) {
    if (file.endsWith(".md")) copyFileSync(join(root, "docs", file), join(out, "docs", file));
  }
  // The worker entries, plain .mjs that tsc does not copy.
  for (const bootstrap of ["src/documents/pool/worker-bootstrap.mjs", "src/spreadsheets/pool/worker-bootstrap.mjs"]) {
    mkdirSync(dirname(join(out, bootstrap)), { recursive: true });
    copyFileSync(join(root, bootstrap), join(out, bootstrap));
  }
  // The application's client bundles, by the compiled bundler module over the compiled client code.
  const bundler = pathToFileURL(join(out, "src", "app", "bundle.js")).href;
  const bundled = spawnSync(
    process.execPath,
    ["--input-type=module", "-e", `await (await import(${JSON.stringify(bundler)})).writeBundles();`],
    {
      cwd: root,
      stdio: "inherit",
    },
  );
  if (bundled.status !== 0) throw new Error(`bundling the application's scripts failed (exit ${bundled.status ?? bundled.signal})`);
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  writeFileSync(
    join(out, "package.json"),
    `${JSON.stringify({ name: pkg.name, version: pkg.version, private: true, type: "module" }, null, 2)}\n`,
  );
  writeFileSync(join(out, ".build-stamp"), `${new Date().toISOString()}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ifStale = process.argv.includes("--if-stale");
  const reason = staleReason();
  if (ifStale && reason === undefined) process.exit(0);
  if (ifStale) {
    process.stderr.write(
      `workspace-gateway: building dist/ before starting (${reason}); this takes about 15 s, longer on a busy machine, ` +
        "and the server listens once it is done. `npm run build` does this ahead of time\n",
    );
  }
  try {
    const ms = build();
    process.stderr.write(`workspace-gateway: built dist/ in ${(ms / 1000).toFixed(1)} s\n`);
  } catch (error) {
    process.stderr.write(`workspace-gateway: build failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
