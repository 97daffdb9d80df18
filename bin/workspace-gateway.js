#!/usr/bin/env -S node --max-semi-space-size=64
// The package's command (`keys`, `serve`, `mcp`). With an up-to-date build beside it
// (`npm run build`: dist/), it runs the compiled CLI with plain node, as `npm start` runs the
// server: faster to start, and no TypeScript loader in production. Without one, or when a source
// changed since the build (scripts/build.mjs decides, as for `npm start`), it runs the sources
// through tsx's loader instead, so the command never runs older code than the checkout's.
// The V8 flag is npm start's (see the README's "How it is built"), so `serve` runs the same.
import { existsSync } from "node:fs";

const built = new URL("../dist/src/cli/index.js", import.meta.url);
const buildScript = new URL("../scripts/build.mjs", import.meta.url);

async function buildIsCurrent() {
  if (!existsSync(built)) return false;
  // A tree without the build script (a deployment of dist/) has no sources to prefer.
  if (!existsSync(buildScript)) return true;
  const { staleReason } = await import(buildScript.href);
  return staleReason() === undefined;
}

if (await buildIsCurrent()) {
  await import(built.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli/index.ts");
}
