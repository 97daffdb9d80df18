// The application's client layer (./client/): a few hundred lines of TypeScript, bundled by
// esbuild into one small script per kind of page (docs/app.md "Built light"). `npm run build`
// writes the bundles next to the compiled code (scripts/build.mjs → dist/src/app/bundles/), so a
// production install needs no bundler; a run from the sources (tests, `npm run dev`) bundles them
// once, in memory, when the first gateway starts.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/** The scripts a page may load: every page's, the editor's, the spreadsheet's. */
export const clientEntries = ["page", "editor", "sheet"] as const;
export type ClientEntry = (typeof clientEntries)[number];

export const bundlesDir = new URL("./bundles/", import.meta.url);

/** Each entry's minified bundle, from ./client/*.ts (a source checkout) or its compiled *.js (dist/). */
export async function bundleClient(): Promise<Map<ClientEntry, string>> {
  const esbuild = await import("esbuild");
  const dir = new URL("./client/", import.meta.url);
  const extension = existsSync(new URL("page.ts", dir)) ? "ts" : "js";
  const result = await esbuild.build({
    entryPoints: Object.fromEntries(clientEntries.map((entry) => [entry, fileURLToPath(new URL(`${entry}.${extension}`, dir))])),
    bundle: true,
    minify: true,
    format: "esm",
    target: "es2022",
    platform: "browser",
    write: false,
    outdir: "bundles",
    legalComments: "none",
    logLevel: "silent",
  });
  const out = new Map<ClientEntry, string>();
  for (const file of result.outputFiles) {
    const entry = clientEntries.find((name) => file.path.endsWith(`/${name}.js`));
    if (entry) out.set(entry, file.text);
  }
  return out;
}

/** `npm run build`: the bundles as files beside this module (dist/src/app/bundles/). */
export async function writeBundles(): Promise<void> {
  const bundles = await bundleClient();
  await mkdir(bundlesDir, { recursive: true });
  for (const [entry, text] of bundles) await writeFile(new URL(`${entry}.js`, bundlesDir), text);
}
