#!/usr/bin/env node
// The package's command: runs the TypeScript CLI through tsx's loader (no build step to forget).
import { register } from "tsx/esm/api";

register();
await import("../src/cli/index.ts");
