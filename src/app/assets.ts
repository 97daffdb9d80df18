// The application's static files, served by the gateway itself (no CDN: it works offline): the
// client bundles (./bundle.ts) and the stylesheet (./styles.ts), each under a name that carries
// its content's hash, so browsers keep them for a year and a new release is fetched at once.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { bundleClient, bundlesDir, clientEntries, type ClientEntry } from "./bundle.ts";
import { stylesheet } from "./styles.ts";

export interface AppAsset {
  /** The file name in /app/assets/, e.g. "page-3f2a9c1d.js". */
  file: string;
  type: string;
  body: string;
  /** Its size gzipped, for the budgets (docs/app.md). */
  gzipBytes: number;
}

export interface AppAssets {
  /** The asset of an entry: a script, or "styles". */
  of(entry: ClientEntry | "styles"): AppAsset;
  /** By file name, for GET /app/assets/:file. */
  byFile(file: string): AppAsset | undefined;
}

const assetOf = (name: string, extension: "js" | "css", body: string): AppAsset => ({
  file: `${name}-${createHash("sha256").update(body).digest("hex").slice(0, 12)}.${extension}`,
  type: extension === "js" ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8",
  body,
  gzipBytes: gzipSync(body, { level: 9 }).byteLength,
});

async function scripts(): Promise<Map<ClientEntry, string>> {
  if (!existsSync(new URL("page.js", bundlesDir))) return bundleClient();
  const read = async (entry: ClientEntry) => [entry, await readFile(new URL(`${entry}.js`, bundlesDir), "utf8")] as const;
  return new Map(await Promise.all(clientEntries.map(read)));
}

let loaded: Promise<AppAssets> | undefined;

/** The assets, made once per process (bundling from the sources takes esbuild a fraction of a second). */
export function loadAppAssets(): Promise<AppAssets> {
  return (loaded ??= (async (): Promise<AppAssets> => {
    const bundles = await scripts();
    const byEntry = new Map<ClientEntry | "styles", AppAsset>([["styles", assetOf("app", "css", stylesheet)]]);
    for (const [entry, text] of bundles) byEntry.set(entry, assetOf(entry, "js", text));
    const byFile = new Map([...byEntry.values()].map((asset) => [asset.file, asset]));
    return {
      of(entry) {
        const asset = byEntry.get(entry);
        if (!asset) throw new Error(`No client bundle "${entry}"`);
        return asset;
      },
      byFile: (file) => byFile.get(file),
    };
  })().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  }));
}
