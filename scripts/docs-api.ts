// `npm run docs:api`: rewrites docs/api.md's generated regions (scripts/docs-api.regions.ts) from
// the code. `--check` only reports whether they are current (exit 1 when stale), as CI would.
import { readFileSync, writeFileSync } from "node:fs";
import { regenerate } from "./docs-api.regions.ts";

const file = new URL("../docs/api.md", import.meta.url);
const current = readFileSync(file, "utf8");
const next = regenerate(current);
if (process.argv.includes("--check")) {
  if (next !== current) {
    console.error("docs/api.md: generated regions are stale; run `npm run docs:api`");
    process.exit(1);
  }
} else if (next !== current) {
  writeFileSync(file, next);
  console.log("docs/api.md: generated regions rewritten");
} else {
  console.log("docs/api.md: generated regions already current");
}
