// A manifest as the store keeps it: a small root and pages of tile hashes. A version of a
// 100,000-row sheet names ~1,600 tiles; written whole, its manifest (~90 KB of incompressible
// hashes) would cost more per write than the tiles the write changed. A page covers a band of
// tile rows, so a one-cell write stores the one or few pages whose tiles changed and a new root;
// every other page is shared with the version before (content-addressed, like the tiles). Defined
// names and tables are one more page (the "book page", named by the root's `book`), shared between
// versions that do not change them; roots stored before they were kept have none.
import { createHash } from "node:crypto";
import { z } from "zod";
import { SheetsError } from "../cells/errors.ts";
import { TILE_COLS, TILE_ROWS } from "../cells/grid.ts";
import { definedNameSchema, tableSchema, type Manifest, type ManifestSheet } from "./manifest.ts";

/** Tile rows per page: 32 × 128 = 4,096 rows of a sheet. */
export const PAGE_TILE_ROWS = 32;

/** A tile as a page names it: its hash and its size in bytes. */
type Entry = [hash: string, bytes: number];
interface Page {
  input: Record<string, Entry>;
  values: Record<string, Entry>;
}

const entry = z.tuple([z.string().min(1), z.number().int().min(0)]);
const pageSchema = z.object({ input: z.record(z.string(), entry), values: z.record(z.string(), entry) });
/** The book page: a page naming no tiles, with the workbook's names and tables. */
const bookPageSchema = pageSchema.extend({
  names: z.array(definedNameSchema).optional(),
  tables: z.array(tableSchema).optional(),
});
const box = z.object({ top: z.number().int(), left: z.number().int(), bottom: z.number().int(), right: z.number().int() });
const rootSchema = z.object({
  format: z.literal(2),
  tileRows: z.literal(TILE_ROWS),
  tileCols: z.literal(TILE_COLS),
  sheets: z
    .array(
      z.object({
        name: z.string(),
        used: box.nullable(),
        cells: z.number().int().min(0),
        /** Page index → [hash of the page, bytes of the tiles it names]. */
        pages: z.record(z.string(), entry),
      }),
    )
    .min(1),
  /** The book page (names and tables), when the workbook has any. */
  book: entry.optional(),
  /** The hash of the version's report blob (report/codec.ts), when it has warnings. */
  report: z.string().min(1).optional(),
});
export type StoredRoot = z.infer<typeof rootSchema>;

export const blobHash = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("base64url");

const json = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));
const sortedEntries = <T>(record: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true })));

const pageOf = (tileKey: string): number => Math.floor(Number(tileKey.slice(0, tileKey.indexOf("."))) / PAGE_TILE_ROWS);

/** What a manifest is stored as: its root, and every page (the store keeps the ones it lacks). */
export interface StoredManifest {
  root: Uint8Array;
  rootHash: string;
  /** Pages by hash. */
  pages: Map<string, Uint8Array>;
  /** Bytes of every tile the manifest names (its size on disk, shared tiles included). */
  bytes: number;
}

/** Splits a manifest into pages; `sizeOf` gives a tile's size by hash; `report` the hash of the version's report blob. */
export function storeManifest(manifest: Manifest, sizeOf: (hash: string) => number, report?: string): StoredManifest {
  const pages = new Map<string, Uint8Array>();
  let total = 0;
  const sheets = manifest.sheets.map((sheet) => {
    const byPage = new Map<number, Page>();
    const add = (kind: keyof Page, key: string, hash: string) => {
      const index = pageOf(key);
      let page = byPage.get(index);
      if (!page) byPage.set(index, (page = { input: {}, values: {} }));
      page[kind][key] = [hash, sizeOf(hash)];
    };
    for (const [key, hash] of Object.entries(sheet.input)) add("input", key, hash);
    for (const [key, hash] of Object.entries(sheet.values)) add("values", key, hash);
    const refs: Record<string, Entry> = {};
    for (const [index, page] of [...byPage].sort(([a], [b]) => a - b)) {
      const bytes = json({ input: sortedEntries(page.input), values: sortedEntries(page.values) });
      const hash = blobHash(bytes);
      const size = [...Object.values(page.input), ...Object.values(page.values)].reduce((sum, [, n]) => sum + n, 0);
      pages.set(hash, bytes);
      refs[String(index)] = [hash, size];
      total += size;
    }
    return { name: sheet.name, used: sheet.used, cells: sheet.cells, pages: refs };
  });
  let book: Entry | undefined;
  if (manifest.names?.length || manifest.tables?.length) {
    const bytes = json({ input: {}, values: {}, names: manifest.names ?? [], tables: manifest.tables ?? [] });
    const hash = blobHash(bytes);
    pages.set(hash, bytes);
    book = [hash, 0];
  }
  // A version without names or a report has the root it had before they were kept.
  const root = json({
    format: 2,
    tileRows: TILE_ROWS,
    tileCols: TILE_COLS,
    sheets,
    ...(book ? { book } : {}),
    ...(report === undefined ? {} : { report }),
  });
  return { root, rootHash: blobHash(root), pages, bytes: total };
}

function parse<T>(bytes: Uint8Array, schema: z.ZodType<T>, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new SheetsError("BAD_TILE", `A stored workbook ${what} is not JSON.`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new SheetsError("BAD_TILE", `A stored workbook ${what} is malformed.`);
  return parsed.data;
}

export const decodeRoot = (bytes: Uint8Array): StoredRoot => parse(bytes, rootSchema, "manifest");

/** The page hashes of a root: all of them, or those of one sheet's pages that cover rows top..bottom. */
export function pagesOf(root: StoredRoot, only?: { sheet: number; top: number; bottom: number }): string[] {
  const sheets = only ? [root.sheets[only.sheet]].filter((s) => s !== undefined) : root.sheets;
  const first = only ? Math.floor(only.top / (TILE_ROWS * PAGE_TILE_ROWS)) : 0;
  const last = only ? Math.floor(only.bottom / (TILE_ROWS * PAGE_TILE_ROWS)) : Number.POSITIVE_INFINITY;
  const pages = sheets.flatMap((sheet) =>
    Object.entries(sheet.pages)
      .filter(([index]) => Number(index) >= first && Number(index) <= last)
      .map(([, [hash]]) => hash),
  );
  return !only && root.book ? [...pages, root.book[0]] : pages;
}

/**
 * The engine's manifest from a root and the pages it gets (`page` gives a page's bytes by hash);
 * a page it cannot get leaves its tiles out (a read asks only for the pages its rows need).
 */
export function loadManifest(
  root: StoredRoot,
  page: (hash: string) => Uint8Array | undefined,
): { manifest: Manifest; sizes: Map<string, number> } {
  const sizes = new Map<string, number>();
  const sheets: ManifestSheet[] = root.sheets.map((sheet) => {
    const input: Record<string, string> = {};
    const values: Record<string, string> = {};
    for (const [hash] of Object.values(sheet.pages)) {
      const bytes = page(hash);
      if (!bytes) continue;
      const decoded = parse(bytes, pageSchema, "page");
      for (const [key, [tile, size]] of Object.entries(decoded.input)) {
        input[key] = tile;
        sizes.set(tile, size);
      }
      for (const [key, [tile, size]] of Object.entries(decoded.values)) {
        values[key] = tile;
        sizes.set(tile, size);
      }
    }
    return { name: sheet.name, used: sheet.used, cells: sheet.cells, input, values };
  });
  const manifest: Manifest = { format: 1, tileRows: TILE_ROWS, tileCols: TILE_COLS, sheets };
  const bookBytes = root.book ? page(root.book[0]) : undefined;
  if (bookBytes) {
    const parts = parse(bookBytes, bookPageSchema, "page");
    if (parts.names?.length) manifest.names = parts.names;
    if (parts.tables?.length) manifest.tables = parts.tables;
  }
  return { manifest, sizes };
}

/** Every blob a stored manifest names (its pages, and their tiles), for the store's garbage collection. */
export function childrenOfPage(bytes: Uint8Array): string[] {
  const page = parse(bytes, pageSchema, "page");
  return [...Object.values(page.input), ...Object.values(page.values)].map(([hash]) => hash);
}
