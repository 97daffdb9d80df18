import { describe, expect, it } from "vitest";
import { decodeManifest, encodeManifest, tileHash } from "../../src/spreadsheets/tiles/manifest.ts";
import { Workbook } from "../../src/spreadsheets/workbook/workbook.ts";
import { decodeInputTile, decodeValueTile, encodeInputTile, encodeValueTile } from "../../src/spreadsheets/tiles/tile-codec.ts";
import { tilesForRead, readTiles } from "../../src/spreadsheets/tiles/tile-read.ts";
import { dirtyTiles, loadTiles, saveTiles } from "../../src/spreadsheets/tiles/tiles.ts";
import { errorOf } from "../../src/spreadsheets/formula/values.ts";

function sample() {
  const rows = Array.from({ length: 300 }, (_, r) => [`item ${r}`, r, r * 1.25, r % 2 === 0, "2026-01-31", `=B${r + 1}*C${r + 1}`]);
  rows[0]![6] = "=SUM(F1:F300)";
  return Workbook.create([
    { name: "Data", values: rows },
    { name: "Q1 Sales", values: [["=Data!G1/2", "#N/A", "12%"]] },
  ]).workbook;
}

const storeOf = (...saves: { tiles: Map<string, Uint8Array> }[]) => {
  const store = new Map<string, Uint8Array>();
  for (const s of saves) for (const [h, b] of s.tiles) store.set(h, b);
  return (hash: string) => {
    const bytes = store.get(hash);
    if (!bytes) throw new Error(`no tile ${hash}`);
    return bytes;
  };
};

describe("tile encoding", () => {
  it("round-trips every kind of cell, deterministically", () => {
    const cells = [
      { slot: 0, value: 42 },
      { slot: 1, value: -1.25 },
      { slot: 5, value: 0.1 + 0.2 },
      { slot: 6, value: 1e300 },
      { slot: 7, value: "text ✓" },
      { slot: 8, value: true },
      { slot: 9, value: false },
      { slot: 10, value: errorOf("#DIV/0!") },
      { slot: 11, value: null, formula: "SUM(A1:A9)", numFmt: "0.00" },
      { slot: 4095, value: 46053, numFmt: "yyyy-mm-dd" },
    ];
    const bytes = encodeInputTile(cells);
    expect(encodeInputTile(cells)).toEqual(bytes);
    const decoded = decodeInputTile(bytes);
    expect(decoded.map((c) => [c.slot, c.value, c.formula, c.numFmt])).toEqual(cells.map((c) => [c.slot, c.value, c.formula, c.numFmt]));
    const values = [
      { slot: 3, value: 12.5 },
      { slot: 9, value: "x" },
      { slot: 12, value: errorOf("#N/A") },
    ];
    expect(decodeValueTile(encodeValueTile(values))).toEqual(values);
  });

  it("refuses bytes that are not a tile with a typed error", () => {
    expect(() => decodeInputTile(new Uint8Array([1, 2, 3]))).toThrow(expect.objectContaining({ code: "BAD_TILE" }));
    expect(() => decodeManifest(new TextEncoder().encode('{"format":2}'))).toThrow(expect.objectContaining({ code: "BAD_TILE" }));
  });
});

describe("saving and loading tiles", () => {
  it("saves every tile first, then only what a write changed: one input tile for one cell", () => {
    const workbook = sample();
    const first = saveTiles(workbook);
    expect(first.written.inputTiles).toBe(4); // Data rows 1-128, 129-256, 257-300; Q1 Sales
    expect(first.written.valueTiles).toBe(4);
    for (const [hash, bytes] of first.tiles) expect(tileHash(bytes)).toBe(hash);
    expect(saveTiles(workbook).written).toEqual({ inputTiles: 0, valueTiles: 0, bytes: 0 });

    workbook.write("Data!C200", [[7]]);
    expect(dirtyTiles(workbook)).toEqual({
      input: [["Data", "1.0"]],
      values: [
        ["Data", "1.0"],
        ["Data", "0.0"],
        ["Q1 Sales", "0.0"],
      ],
      sheetsChanged: false,
    });
    const second = saveTiles(workbook);
    expect(second.written.inputTiles).toBe(1);
    expect(second.written.valueTiles).toBe(3);
    expect(second.manifest.sheets[0]!.input["0.0"]).toBe(first.manifest.sheets[0]!.input["0.0"]);
    expect(second.manifest.sheets[0]!.input["1.0"]).not.toBe(first.manifest.sheets[0]!.input["1.0"]);
    expect(decodeManifest(encodeManifest(second.manifest))).toEqual(second.manifest);
  });

  it("loads a model from its manifest with the stored values, and it reads and writes as the original", () => {
    const workbook = sample();
    const saved = saveTiles(workbook);
    const { workbook: loaded, result } = loadTiles(saved.manifest, storeOf(saved));
    expect(result.recalculatedCells).toBe(0);
    expect(loaded.read("Data!A1:G300", { render: "both" })).toEqual(workbook.read("Data!A1:G300", { render: "both" }));
    expect(loaded.describe()).toEqual(workbook.describe());
    expect(loaded.write("Data!B1", [[1000]]).recalculatedCells).toBe(workbook.write("Data!B1", [[1000]]).recalculatedCells);
    expect(loaded.read("'Q1 Sales'!A1").values).toEqual(workbook.read("'Q1 Sales'!A1").values);
    // The next save of the loaded model is incremental.
    expect(saveTiles(loaded).written.inputTiles).toBe(1);
  });

  it("computes formulas whose value tiles are missing when loading", () => {
    const workbook = sample();
    const saved = saveTiles(workbook);
    const manifest = { ...saved.manifest, sheets: saved.manifest.sheets.map((s) => ({ ...s, values: {} })) };
    const { workbook: loaded, result } = loadTiles(manifest, storeOf(saved));
    expect(result.recalculatedCells).toBe(302);
    expect(loaded.read("Data!F1:G3").values).toEqual(workbook.read("Data!F1:G3").values);
    expect(saveTiles(loaded).written.valueTiles).toBe(4);
  });

  it("writes all tiles of a sheet whose rows moved, and the manifest follows renames", () => {
    const workbook = sample();
    saveTiles(workbook);
    workbook.edit([{ insertRows: { sheet: "Data", at: 1, count: 1 } }, { renameSheet: { sheet: "Q1 Sales", name: "Summary" } }]);
    const saved = saveTiles(workbook);
    expect(saved.manifest.sheets.map((s) => s.name)).toEqual(["Data", "Summary"]);
    expect(saved.written.inputTiles).toBe(4); // Data's three tiles again, Summary's formula text changed
    const { workbook: loaded } = loadTiles(saved.manifest, storeOf(saved, saveTiles(sample())));
    expect(loaded.read("Summary!A1", { render: "both" }).values).toEqual([
      [{ value: (workbook.read("Data!G2").values[0]![0] as number) / 2, formula: "=Data!G2/2" }],
    ]);
  });
});

describe("reading from tiles", () => {
  it("reads a range from only the tiles that cover it, as the model reads it", () => {
    const workbook = sample();
    const saved = saveTiles(workbook);
    const tile = storeOf(saved);
    for (const [range, options] of [
      ["Data!A1:G300", { render: "both" as const }],
      ["Data!B120:D140", {}],
      ["Data!A:C", { maxCells: 100, offset: 33 }],
      ["'Q1 Sales'!A1:C1", { render: "formula" as const }],
      ["Data!Z1:Z2", {}],
      ["Data!A400:B", {}],
    ] as const) {
      expect(readTiles(saved.manifest, range, tile, options), range).toEqual(workbook.read(range, options));
    }
    expect(tilesForRead(saved.manifest, "Data!B120:D140")).toEqual([
      saved.manifest.sheets[0]!.input["0.0"],
      saved.manifest.sheets[0]!.values["0.0"],
      saved.manifest.sheets[0]!.input["1.0"],
      saved.manifest.sheets[0]!.values["1.0"],
    ]);
    expect(() => readTiles(saved.manifest, "Nope!A1", tile)).toThrow(expect.objectContaining({ code: "UNKNOWN_SHEET" }));
  });

  it("says when formula values are missing instead of guessing them", () => {
    const workbook = sample();
    const saved = saveTiles(workbook);
    const manifest = { ...saved.manifest, sheets: saved.manifest.sheets.map((s) => ({ ...s, values: {} })) };
    expect(() => readTiles(manifest, "Data!F1", storeOf(saved))).toThrow(expect.objectContaining({ code: "VALUES_MISSING" }));
  });
});

describe("content addressing", () => {
  it("gives two workbooks with the same cells the same tiles", () => {
    const a = saveTiles(sample()).manifest;
    const b = saveTiles(sample()).manifest;
    expect(a).toEqual(b);
    expect(encodeManifest(a)).toEqual(encodeManifest(b));
  });
});
