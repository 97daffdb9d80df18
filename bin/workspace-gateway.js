#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=32
// The package's command (`keys`, `serve`, `mcp`). With an up-to-date build beside it
// (`npm run build`: dist/), it runs the compiled CLI with plain node, as `npm start` runs the
// server: faster to start, and no TypeScript loader in production. An installed package has only
// dist/. From a checkout without a build, or when a source changed since the build
// (scripts/build.mjs decides, as for `npm start`), it runs the sources through tsx's loader (a
// devDependency) instead and says so, so the command never runs older code than the checkout's.
// The V8 flag is npm start's (see docs/architecture.md "Design notes"), so `serve` runs the same.
import { existsSync } from "node:fs";

const built = new URL("../dist/src/cli/index.js", import.meta.url);
const buildScript = new URL("../scripts/build.mjs", import.meta.url);

/** Why not to run dist/ (missing, or older than the sources), or undefined to run it. */
async function whyNotBuilt() {
  if (!existsSync(buildScript)) {
    // A tree without the build script (an installed package, a deployment of dist/) has no sources to prefer.
    return existsSync(built) ? undefined : "dist/ is missing";
  }
  const { staleReason } = await import(buildScript.href);
  return staleReason();
}

const reason = await whyNotBuilt();
if (reason === undefined) {
  await import(built.href);
} else {
  const sources = new URL("../src/cli/index.ts", import.meta.url);
  const tsx = existsSync(sources) ? await import("tsx/esm/api").catch(() => undefined) : undefined;
  if (!tsx) {
    process.stderr.write(
      `workspace-gateway: ${reason} and the sources cannot run here (tsx, a devDependency, and src/ are needed): run \`npm run build\`, or reinstall the package\n`,
    );
    process.exit(1);
  }
  // stderr only: stdout may be an MCP stdio channel or --json output.
  process.stderr.write(`workspace-gateway: running the sources through tsx (${reason}; \`npm run build\` makes this command run dist/)\n`);
  tsx.register();
  await import(sources.href);
}
