import { describe, expect, it } from "vitest";
import { Workbook } from "../../src/spreadsheets/workbook/workbook.ts";
import { childrenOfPage, decodeRoot, loadManifest, pagesOf, storeManifest } from "../../src/spreadsheets/tiles/stored-manifest.ts";
import { saveTiles } from "../../src/spreadsheets/tiles/tiles.ts";

/** A one-column sheet of `rows` numbers and a column of formulas over them. */
function book(rows: number) {
  const values = Array.from({ length: rows }, (_, i) => [i + 1, `=A${i + 1}*$C$1`]);
  values[0]!.push(2);
  return Workbook.create([{ name: "Data", values }]).workbook;
}

describe("a manifest as the store keeps it: a root and pages of tile hashes", () => {
  it("round-trips: the pages give back every tile of the manifest, with the tiles' sizes", () => {
    const workbook = book(20_000);
    const saved = saveTiles(workbook);
    const sizes = new Map([...saved.tiles].map(([hash, bytes]) => [hash, bytes.byteLength]));
    const stored = storeManifest(saved.manifest, (hash) => sizes.get(hash)!);
    const root = decodeRoot(stored.root);
    expect(pagesOf(root).sort()).toEqual([...stored.pages.keys()].sort());
    const { manifest, sizes: read } = loadManifest(root, (hash) => stored.pages.get(hash));
    expect(manifest).toEqual(saved.manifest);
    expect(stored.bytes).toBe([...sizes.values()].reduce((a, b) => a + b, 0));
    for (const [hash, size] of read) expect(size).toBe(sizes.get(hash));
    const children = [...stored.pages.values()].flatMap(childrenOfPage);
    expect(new Set(children)).toEqual(new Set(sizes.keys()));
  });

  it("a one-cell write changes one page of a long sheet; the others are shared with the version before", () => {
    const workbook = book(40_000);
    const first = saveTiles(workbook);
    const sizes = new Map([...first.tiles].map(([hash, bytes]) => [hash, bytes.byteLength]));
    const before = storeManifest(first.manifest, (hash) => sizes.get(hash)!);
    workbook.write("Data!A39000", [[5]]);
    const second = saveTiles(workbook);
    for (const [hash, bytes] of second.tiles) sizes.set(hash, bytes.byteLength);
    const after = storeManifest(second.manifest, (hash) => sizes.get(hash)!);
    const added = [...after.pages.keys()].filter((hash) => !before.pages.has(hash));
    expect(before.pages.size).toBeGreaterThan(5);
    expect(added).toHaveLength(1);
    expect(after.rootHash).not.toBe(before.rootHash);
  });

  it("a read can load only the pages of the rows it needs", () => {
    const workbook = book(20_000);
    const saved = saveTiles(workbook);
    const stored = storeManifest(saved.manifest, () => 1);
    const root = decodeRoot(stored.root);
    const first = pagesOf(root, { sheet: 0, top: 0, bottom: 99 });
    expect(first).toHaveLength(1);
    const { manifest } = loadManifest(root, (hash) => (first.includes(hash) ? stored.pages.get(hash) : undefined));
    expect(Object.keys(manifest.sheets[0]!.input).every((key) => Number(key.split(".")[0]) < 32)).toBe(true);
  });
});
