// `npm run surface`: writes docs/surface.json, the public surface read off the code
// (./surface.snapshot.ts). `--check` only reports whether the file is current (exit 1 when stale), as CI does.
import { readFileSync, writeFileSync } from "node:fs";
import { publicSurface, SURFACE_FILE, surfaceText } from "./surface.snapshot.ts";

const next = surfaceText(await publicSurface());
let current = "";
try {
  current = readFileSync(SURFACE_FILE, "utf8");
} catch {
  // No file yet: written below (or stale under --check).
}
if (process.argv.includes("--check")) {
  if (next !== current) {
    console.error("docs/surface.json is stale; run `npm run surface` and commit it");
    process.exit(1);
  }
} else if (next !== current) {
  writeFileSync(SURFACE_FILE, next);
  console.log("docs/surface.json rewritten");
} else {
  console.log("docs/surface.json already current");
}
