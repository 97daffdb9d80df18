// Worker entry: load TypeScript through tsx's loader, whatever started the parent (tsx, vitest,
// the bin). The parent passes `execArgv: []`, so no inherited loader doubles up.
import { register } from "tsx/esm/api";

register();
await import("./render-worker.ts");
