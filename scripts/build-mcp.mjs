#!/usr/bin/env node
// `npm run build:mcp`: bundles packages/mcp/src/cli.ts (the MCP SDK and everything it imports)
// into one ESM file, packages/mcp/dist/cli.js, so that the published workspace-gateway-mcp has no
// runtime dependency: `npx -y workspace-gateway-mcp` installs one package, no native module.
// It also builds `workspace-gateway-mcp/client`, the typed tRPC client of src/client/index.ts:
// dist/client.js leaves @trpc/client to the user (an optional peer: the bin alone needs none), and
// dist/client.d.ts is self-contained (scripts/mcp-client-dts.mjs), so no server type ships.
// `--pack <dir>` then runs `npm pack` into <dir> and prints the tarball's path (npm run pack:mcp).
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { bundleClientDeclarations, typeCheckDeclarations } from "./mcp-client-dts.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const pkgDir = join(root, "packages/mcp");
const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));

rmSync(join(pkgDir, "dist"), { recursive: true, force: true });
await build({
  entryPoints: [join(pkgDir, "src/cli.ts")],
  outfile: join(pkgDir, "dist/cli.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  minify: false,
  legalComments: "eof",
  logLevel: "warning",
  define: { PACKAGE_VERSION: JSON.stringify(pkg.version) },
  // Some bundled CommonJS (ajv, used by the SDK) calls require(); ESM output has none of its own.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __wgCreateRequire } from 'node:module';\nconst require = __wgCreateRequire(import.meta.url);",
  },
});

const client = await build({
  entryPoints: [join(root, "src/client/index.ts")],
  outfile: join(pkgDir, "dist/client.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
  // The user's copy, deduped with theirs: one TRPCClientError class.
  external: ["@trpc/client"],
  metafile: true,
});
// The client's other imports are types only: a runtime import of the server would be bundled here.
const bundled = Object.keys(client.metafile.inputs);
if (bundled.join() !== "src/client/index.ts") throw new Error(`dist/client.js bundles more than the client: ${bundled.join(", ")}`);
writeFileSync(join(pkgDir, "dist/client.d.ts"), bundleClientDeclarations(root));
typeCheckDeclarations(join(pkgDir, "dist/client.d.ts"));

const packAt = process.argv.indexOf("--pack");
if (packAt !== -1) {
  const dest = resolve(process.argv[packAt + 1] ?? join(pkgDir, "dist-pack"));
  mkdirSync(dest, { recursive: true });
  const run = spawnSync("npm", ["pack", "--json", "--pack-destination", dest], { cwd: pkgDir, encoding: "utf8" });
  if (run.status !== 0) {
    process.stderr.write(run.stderr);
    process.exit(run.status ?? 1);
  }
  const [{ filename }] = JSON.parse(run.stdout);
  process.stdout.write(`${join(dest, filename)}\n`);
}
