#!/usr/bin/env -S node --max-semi-space-size=64
// The package's command: runs the TypeScript CLI through tsx's loader (no build step to forget).
// The V8 flag is npm start's (see the README's "How it is built"), so `serve` runs the same.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/index.ts");
