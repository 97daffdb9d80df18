// Worker entry. In dist/ (`npm run build`) the compiled worker.js sits next to this file and is
// loaded by plain Node; from the sources, TypeScript is loaded through tsx's loader, whatever
// started the parent (tsx, vitest, the bin). The parent passes `execArgv: []`, so no inherited
// loader doubles up.
import { existsSync } from "node:fs";

const compiled = new URL("./worker.js", import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("./worker.ts");
}
