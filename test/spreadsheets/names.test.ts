// Defined names as Excel has them: workbook- and sheet-scoped, referring to ranges, constants,
// formulas and LAMBDAs; dependencies through them (a change to a name's target or to its definition
// recomputes what uses it); kept through structure edits, the store's tiles and .xlsx.
import { describe, expect, it } from "vitest";
import { SheetsError } from "../../src/spreadsheets/cells/errors.ts";
import { Workbook } from "../../src/spreadsheets/workbook/workbook.ts";
import { decodeRoot, loadManifest, storeManifest } from "../../src/spreadsheets/tiles/stored-manifest.ts";
import { loadTiles, saveTiles } from "../../src/spreadsheets/tiles/tiles.ts";
import { readXlsx } from "../../src/spreadsheets/io/xlsx/read.ts";
import { writeXlsx } from "../../src/spreadsheets/io/xlsx/write.ts";
import { buildXlsx } from "./xlsx-fixtures.ts";

function book() {
  const { workbook } = Workbook.create(
    [
      {
        name: "Rates",
        values: [
          ["Tax", 0.2],
          ["Fee", 5],
        ],
      },
      { name: "Sales", values: [["Amount"], [100], [200], [300]] },
      { name: "Other", values: [[1]] },
    ],
    "raw",
  );
  return workbook;
}

const value = (wb: Workbook, range: string) => wb.read(range).values[0]?.[0];

describe("defined names", () => {
  it("refer to cells, ranges, constants and formulas, in the workbook's scope or a sheet's", () => {
    const wb = book();
    wb.defineName({ name: "TaxRate", formula: "Rates!$B$1" });
    wb.defineName({ name: "Amounts", formula: "=Sales!$A$2:$A$4" });
    wb.defineName({ name: "Discount", formula: "0.1" });
    wb.defineName({ name: "Total", formula: "SUM(Sales!$A$2:$A$4)" });
    wb.defineName({ name: "Local", formula: "Other!$A$1", sheet: "Other" });
    wb.defineName({ name: "Local", formula: "7" });
    wb.write("Sales!B1:B6", [
      ["=SUM(Amounts)*TaxRate"],
      ["=Total*(1-Discount)"],
      ["=COUNT(Amounts)"],
      ["=Local"],
      ["=Other!Local"],
      ["=ROWS(Amounts)"],
    ]);
    wb.write("Other!B1", [["=Local*10"]]);
    expect(wb.read("Sales!B1:B6").values.map((r) => r[0])).toEqual([120, 540, 3, 7, 1, 3]);
    expect(value(wb, "Other!B1")).toBe(10);
    expect(wb.names().map((n) => [n.name, n.sheet])).toEqual([
      ["Amounts", null],
      ["Discount", null],
      ["Local", null],
      ["Local", "Other"],
      ["TaxRate", null],
      ["Total", null],
    ]);
  });

  it("recompute what uses them when a cell they refer to changes, or when they are redefined or deleted", () => {
    const wb = book();
    wb.defineName({ name: "TaxRate", formula: "Rates!$B$1" });
    wb.write("Sales!B2", [["=A2*TaxRate"]]);
    expect(value(wb, "Sales!B2")).toBe(20);
    expect(wb.write("Rates!B1", [[0.5]]).recalculatedCells).toBe(1);
    expect(value(wb, "Sales!B2")).toBe(50);
    expect(wb.defineName({ name: "taxrate", formula: "Rates!$B$2" }).recalculatedCells).toBe(1);
    expect(value(wb, "Sales!B2")).toBe(500);
    wb.write("Rates!B2", [[2]]);
    expect(value(wb, "Sales!B2")).toBe(200);
    const deleted = wb.deleteName({ name: "TaxRate" });
    expect(deleted.warnings.join()).toContain("TaxRate");
    expect(value(wb, "Sales!B2")).toEqual({ error: "#NAME?" });
    // A name defined after the formula that uses it.
    wb.write("Sales!C2", [["=Later+1"]]);
    expect(value(wb, "Sales!C2")).toEqual({ error: "#NAME?" });
    wb.defineName({ name: "Later", formula: "41" });
    expect(value(wb, "Sales!C2")).toBe(42);
  });

  it("hold LAMBDAs, recursive ones included; relative names are relative to the cell using them", () => {
    const wb = book();
    wb.defineName({ name: "AddTax", formula: "LAMBDA(x,x*(1+Rates!$B$1))" });
    wb.defineName({ name: "Fact", formula: "LAMBDA(n,IF(n<=1,1,n*Fact(n-1)))" });
    wb.defineName({ name: "LeftCell", formula: "Sales!XFD1" });
    wb.write("Sales!B2:C3", [
      ["=AddTax(A2)", "=Fact(5)"],
      ["=LeftCell*2", "=Fact(2000)"],
    ]);
    expect(wb.read("Sales!B2:C3").values).toEqual([
      [120, 120],
      [400, { error: "#NUM!" }],
    ]);
  });

  it("refuse invalid names and definitions, and a name a table has", () => {
    const wb = book();
    for (const name of ["A1", "1x", "R1C1", "has space", "", "TRUE"]) {
      expect(() => wb.defineName({ name, formula: "1" }), name).toThrow(SheetsError);
    }
    expect(() => wb.defineName({ name: "Bad", formula: "=1+" })).toThrow(/not valid/);
    expect(() => wb.defineName({ name: "X", formula: "1", sheet: "Nope" })).toThrow(/no sheet/);
    expect(() => wb.deleteName({ name: "Missing" })).toThrow(/no name/);
    const done = wb.defineName({ name: "_xlnm.Print_Area", formula: "Sales!$A$1:$A$4", sheet: "Sales" });
    expect(done.warnings).toEqual([]);
    wb.write("Sales!D1", [["=_xlnm.Print_Area"]]);
    // Excel's built-in names are kept, never computed.
    expect(value(wb, "Sales!D1")).toEqual({ error: "#NAME?" });
  });

  it("follow renamed sheets and moved rows, and go #REF! with a deleted sheet", () => {
    const wb = book();
    wb.defineName({ name: "Amounts", formula: "Sales!$A$2:$A$4" });
    wb.defineName({ name: "Local", formula: "Other!$A$1", sheet: "Other" });
    wb.write("Rates!C1", [["=SUM(Amounts)"]]);
    wb.edit([{ renameSheet: { sheet: "Sales", name: "Revenue" } }, { insertRows: { sheet: "Revenue", at: 3, count: 2 } }]);
    wb.write("Revenue!A3", [[1000]]);
    expect(wb.names().find((n) => n.name === "Amounts")?.formula).toBe("Revenue!$A$2:$A$6");
    expect(value(wb, "Rates!C1")).toBe(1600);
    wb.edit([{ deleteSheet: { sheet: "Revenue" } }]);
    expect(wb.names().find((n) => n.name === "Amounts")?.formula).toBe("#REF!");
    expect(value(wb, "Rates!C1")).toEqual({ error: "#REF!" });
    wb.edit([{ deleteSheet: { sheet: "Other" } }]);
    expect(wb.names().some((n) => n.name === "Local")).toBe(false);
  });

  it("are kept by the store's tiles and book page, and a root without one loads as before", () => {
    const wb = book();
    wb.defineName({ name: "TaxRate", formula: "Rates!$B$1", comment: "VAT" });
    wb.defineName({ name: "Local", formula: "3", sheet: "Other", hidden: true });
    wb.write("Sales!B2", [["=A2*TaxRate+Other!Local"]]);
    const saved = saveTiles(wb);
    const stored = storeManifest(saved.manifest, () => 0);
    const root = decodeRoot(stored.root);
    expect(root.book).toBeDefined();
    const { manifest } = loadManifest(root, (hash) => stored.pages.get(hash));
    const loaded = loadTiles(manifest, (hash) => saved.tiles.get(hash)!).workbook;
    expect(loaded.names()).toEqual(wb.names());
    loaded.write("Rates!B1", [[1]]);
    expect(value(loaded, "Sales!B2")).toBe(103);
    // A workbook without names stores no book page.
    const plain = Workbook.create([{ name: "S", values: [[1]] }]).workbook;
    expect(decodeRoot(storeManifest(saveTiles(plain).manifest, () => 0).root).book).toBeUndefined();
  });

  it("are read from .xlsx with their scopes and written back", async () => {
    const xlsx = buildXlsx({
      sheets: [
        { name: "A", data: `<row r="1"><c r="A1"><v>2</v></c><c r="B1"><f>Rate*A1</f><v>0</v></c><c r="C1"><f>Here</f><v>0</v></c></row>` },
        { name: "B", data: `<row r="1"><c r="A1"><v>5</v></c><c r="B1"><f>Here</f><v>0</v></c></row>` },
      ],
      workbookExtra:
        `<definedNames><definedName name="Rate">A!$A$1*10</definedName><definedName name="Here" localSheetId="1">B!$A$1</definedName>` +
        `<definedName name="Here">100</definedName><definedName name="_xlnm.Print_Area" localSheetId="0">A!$A$1:$C$1</definedName>` +
        `<definedName name="Linked">[1]Sheet1!$A$1</definedName></definedNames>`,
    });
    const data = readXlsx(xlsx);
    expect(data.names).toEqual([
      { name: "Rate", sheet: null, formula: "A!$A$1*10" },
      { name: "Here", sheet: "B", formula: "B!$A$1" },
      { name: "Here", sheet: null, formula: "100" },
      { name: "_xlnm.Print_Area", sheet: "A", formula: "A!$A$1:$C$1" },
    ]);
    const { workbook } = Workbook.fromData(data);
    expect(workbook.read("A!A1:C1").values).toEqual([[2, 40, 100]]);
    expect(value(workbook, "B!B1")).toBe(5);
    const again = readXlsx(await writeXlsx(workbook.toData({ xlsx: true }), { title: "names" }));
    expect(again.names).toEqual(workbook.names());
  });
});
