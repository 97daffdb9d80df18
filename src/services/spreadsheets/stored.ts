// A workbook version's stored blobs, as the spreadsheets service needs them: all of them for a
// worker that must load the model, or the manifest and the few tiles a range read covers.
// Decoded manifests are kept by root hash (content-addressed: a root never changes), so repeated
// reads of a version fetch only their tiles.
import type { Manifest } from "../../spreadsheets/tiles/manifest.ts";
import type { Base } from "../../spreadsheets/pool/index.ts";
import { childrenOfPage, decodeRoot, loadManifest, pagesOf } from "../../spreadsheets/tiles/stored-manifest.ts";
import { GatewayError } from "../../core/errors.ts";
import type { Store } from "../../store/types.ts";

type Blobs = { workbooks: Pick<Store["workbooks"], "getBlobs"> };

async function fetchAll(store: Blobs, ownerId: string, hashes: readonly string[], what: string): Promise<Map<string, Uint8Array>> {
  const found = await store.workbooks.getBlobs(ownerId, hashes);
  const missing = hashes.filter((hash) => !found.has(hash));
  if (missing.length > 0) throw new GatewayError("INTERNAL", `A stored workbook's ${what} is missing (${missing.length} blobs)`);
  return found;
}

/** Every blob of a version: root, pages, tiles and its report (for a worker that loads the model). */
export async function allBlobs(store: Blobs, ownerId: string, base: Base): Promise<[string, Uint8Array][]> {
  const rootBytes = (await fetchAll(store, ownerId, [base.rootHash], "manifest")).get(base.rootHash)!;
  const root = decodeRoot(rootBytes);
  const pages = await fetchAll(store, ownerId, pagesOf(root), "pages");
  const tiles = await fetchAll(store, ownerId, [...new Set([...pages.values()].flatMap(childrenOfPage))], "tiles");
  const report = root.report === undefined ? [] : await fetchAll(store, ownerId, [root.report], "report");
  return [[base.rootHash, rootBytes], ...pages, ...tiles, ...report];
}

/** Decoded manifests by root hash, least recently used first out. */
export class ManifestCache {
  private readonly entries = new Map<string, Manifest>();
  constructor(private readonly max = 256) {}

  async get(store: Blobs, ownerId: string, rootHash: string): Promise<Manifest> {
    const cached = this.entries.get(rootHash);
    if (cached) {
      this.entries.delete(rootHash);
      this.entries.set(rootHash, cached);
      return cached;
    }
    const rootBytes = (await fetchAll(store, ownerId, [rootHash], "manifest")).get(rootHash)!;
    const root = decodeRoot(rootBytes);
    const pages = await fetchAll(store, ownerId, pagesOf(root), "pages");
    const { manifest } = loadManifest(root, (hash) => pages.get(hash));
    this.entries.set(rootHash, manifest);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
    return manifest;
  }
}

/** Bytes of rendered downloads (.xlsx, CSV) by workbook version and format, bounded in bytes. */
export class RenderedCache {
  private readonly entries = new Map<string, Uint8Array>();
  private bytes = 0;
  constructor(private readonly maxBytes: number) {}

  get(key: string): Uint8Array | undefined {
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
    }
    return found;
  }

  set(key: string, value: Uint8Array): void {
    if (value.byteLength > this.maxBytes) return;
    this.entries.set(key, value);
    this.bytes += value.byteLength;
    for (const [oldest, bytes] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= bytes.byteLength;
    }
  }
}
