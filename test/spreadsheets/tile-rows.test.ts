import { describe, expect, it } from "vitest";
import { writeXlsx } from "../../src/spreadsheets/io/xlsx/write.ts";
import { constantsData, NotConstants } from "../../src/spreadsheets/tiles/tile-rows.ts";
import { loadTiles, saveTiles } from "../../src/spreadsheets/tiles/tiles.ts";
import { Workbook } from "../../src/spreadsheets/workbook/workbook.ts";
import type { Manifest } from "../../src/spreadsheets/tiles/manifest.ts";

const options = { title: "Orders", modified: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)) };

function stored(workbook: Workbook) {
  const { manifest, tiles } = saveTiles(workbook);
  const get = (hash: string) => {
    const bytes = tiles.get(hash);
    if (!bytes) throw new Error(`no tile ${hash}`);
    return bytes;
  };
  return { manifest, get };
}

/** The .xlsx a download wrote before: through the model loaded from the same tiles. */
async function throughModel(manifest: Manifest, get: (hash: string) => Uint8Array): Promise<Uint8Array> {
  return writeXlsx(loadTiles(manifest, get).workbook.toData({ xlsx: true }), options);
}

describe("a workbook of constants written from its tiles", () => {
  it("gives the model's .xlsx byte for byte: every kind of value, formats, sparse rows and columns, several sheets and bands", async () => {
    const rows: unknown[][] = [["Id", "Name", "Date", "Share", "Paid", "Error", "", "Far"]];
    for (let r = 1; r < 400; r++) {
      if (r % 7 === 3) {
        rows.push([]);
        continue;
      }
      rows.push([
        r,
        `name ${r % 13} ✓`,
        "2026-01-31",
        `${r % 100}%`,
        r % 2 === 0,
        r % 50 === 0 ? "#N/A" : -r / 8,
        "",
        r % 3 === 0 ? "x" : null,
      ]);
    }
    // A cell far to the right and far down (other tile columns and bands).
    rows[5]![70] = "wide";
    const { workbook } = Workbook.create([
      { name: "Orders", values: rows as never },
      { name: "Empty" },
      { name: "Other", values: [[1, "b"], [], [true, 0.1 + 0.2]] },
    ]);
    workbook.write("Other!C2000:D2000", [["down", 1e300]]);
    const { manifest, get } = stored(workbook);
    const data = constantsData(manifest, get);
    expect(data).not.toBeNull();
    const fromTiles = await writeXlsx(data!, options);
    expect(Buffer.from(fromTiles).equals(Buffer.from(await throughModel(manifest, get)))).toBe(true);
  });

  it("is left to the model when the workbook has formulas, names or tables", () => {
    const formulas = Workbook.create([{ name: "S", values: [[1, "=A1*2"]] }]).workbook;
    expect(constantsData(stored(formulas).manifest, stored(formulas).get)).toBeNull();
    const named = Workbook.create([{ name: "S", values: [[1, 2]] }]).workbook;
    named.defineName({ name: "Rate", formula: "=S!$A$1" });
    const n = stored(named);
    expect(constantsData(n.manifest, n.get)).toBeNull();
  });

  it("refuses (for the model to compute) a formula stored without its value", async () => {
    const formulas = Workbook.create([{ name: "S", values: [[1, "=A1*2"]] }]).workbook;
    const { manifest, get } = stored(formulas);
    const withoutValues: Manifest = { ...manifest, sheets: manifest.sheets.map((sheet) => ({ ...sheet, values: {} })) };
    await expect(writeXlsx(constantsData(withoutValues, get)!, options)).rejects.toBeInstanceOf(NotConstants);
  });
});
