// `npm run docs:functions`: writes docs/spreadsheets-functions.md from the engine's function table
// (scripts/functions-table.ts). `--check` only reports whether it is current (exit 1 when stale).
import { readFileSync, writeFileSync } from "node:fs";
import { renderFunctionTable } from "./functions-table.ts";

const file = new URL("../docs/spreadsheets-functions.md", import.meta.url);
let current = "";
try {
  current = readFileSync(file, "utf8");
} catch {
  // Not written yet.
}
const next = renderFunctionTable();
if (process.argv.includes("--check")) {
  if (next !== current) {
    console.error("docs/spreadsheets-functions.md is stale; run `npm run docs:functions`");
    process.exit(1);
  }
} else if (next !== current) {
  writeFileSync(file, next);
  console.log("docs/spreadsheets-functions.md rewritten");
} else console.log("docs/spreadsheets-functions.md already current");
