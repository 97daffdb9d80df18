// Tables (Excel ListObjects) and structured references, read from .xlsx (the table part related to
// its sheet), computed as Excel computes them, kept through structure edits, the store and .xlsx.
import { describe, expect, it } from "vitest";
import { Workbook } from "../../src/spreadsheets/workbook/workbook.ts";
import { loadTiles, saveTiles } from "../../src/spreadsheets/tiles/tiles.ts";
import { readXlsx } from "../../src/spreadsheets/io/xlsx/read.ts";
import { writeXlsx } from "../../src/spreadsheets/io/xlsx/write.ts";
import { buildXlsx } from "./xlsx-fixtures.ts";

const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

const CITIES = ["Paris", "Lyon", "Nice", "Lille", "Nantes", "Rennes", "Metz", "Dijon", "Brest", "Tours", "Reims", "Caen"];

const str = (v: string) => `<is><t>${v}</t></is>`;
/** BigCity on A1:C14: a header row, 12 cities with populations and a rank, a totals row (SUM: SUBTOTAL is another branch's function). */
function bigCityXlsx(formulas: Record<string, string>): Uint8Array {
  const rows = [
    `<row r="1"><c r="A1" t="inlineStr">${str("City")}</c><c r="B1" t="inlineStr">${str("Pop")}</c><c r="C1" t="inlineStr">${str("Rank")}</c></row>`,
  ];
  CITIES.forEach((city, i) => {
    const r = i + 2;
    rows.push(
      `<row r="${r}"><c r="A${r}" t="inlineStr">${str(city)}</c><c r="B${r}"><v>${(i + 1) * 100}</v></c><c r="C${r}"><f>[@Pop]/100</f><v>0</v></c></row>`,
    );
  });
  rows.push(`<row r="14"><c r="A14" t="inlineStr">${str("Total")}</c><c r="B14"><f>SUM(BigCity[Pop])</f><v>0</v></c></row>`);
  const extra = Object.entries(formulas)
    .map(([ref, f], i) => `<row r="${20 + i}"><c r="${ref.replace(/\d+/, String(20 + i))}"><f>${f}</f><v>0</v></c></row>`)
    .join("");
  const table =
    `<?xml version="1.0" encoding="UTF-8"?><table xmlns="${MAIN}" id="1" name="BigCity" displayName="BigCity" ref="A1:C14" totalsRowCount="1">` +
    `<autoFilter ref="A1:C13"/><tableColumns count="3"><tableColumn id="1" name="City" totalsRowLabel="Total"/><tableColumn id="2" name="Pop" totalsRowFunction="sum"/><tableColumn id="3" name="Rank"/></tableColumns>` +
    `<tableStyleInfo name="TableStyleMedium2" showFirstColumn="0" showLastColumn="0" showRowStripes="1" showColumnStripes="0"/></table>`;
  return buildXlsx({
    sheets: [{ name: "Data", data: rows.join("") + extra }],
    extra: {
      "xl/worksheets/_rels/sheet1.xml.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/table" Target="../tables/table1.xml"/></Relationships>`,
      "xl/tables/table1.xml": table,
    },
  });
}

const FORMULAS: [string, string, unknown][] = [
  ["COUNTA(BigCity[City])", "A", 12],
  ["SUM(BigCity[Pop])", "A", 7800],
  ["COUNTA(BigCity[[#Headers],[City]])", "A", 1],
  ["BigCity[[#Headers],[Pop]]", "A", "Pop"],
  ["ROWS(BigCity[#Data])", "A", 12],
  ["ROWS(BigCity[#All])", "A", 14],
  ["COLUMNS(BigCity[#All])", "A", 3],
  ["BigCity[[#Totals],[Pop]]", "A", 7800],
  ["ROWS(BigCity[[#Headers],[#Data]])", "A", 13],
  ["COLUMNS(BigCity[[City]:[Pop]])", "A", 2],
  ["SUM(BigCity[[Pop]:[Rank]])", "A", 7878],
  ["ROWS(BigCity)", "A", 12],
  ["ROWS(BigCity[])", "A", 12],
  ["INDEX(BigCity[City],3)", "A", "Nice"],
  ['XLOOKUP("Metz",BigCity[City],BigCity[Pop])', "A", 700],
  ["BigCity[Nope]", "A", { error: "#REF!" }],
  ["Other[City]", "A", { error: "#REF!" }],
];

describe("tables and structured references", () => {
  it("read from .xlsx with their parts, and computed as Excel computes them (COUNTA(BigCity[City]) is 12)", () => {
    const data = readXlsx(bigCityXlsx(Object.fromEntries(FORMULAS.map(([f], i) => [`E${i}`, f]))));
    expect(data.sheets[0]!.tables).toEqual([
      {
        name: "BigCity",
        box: { top: 0, left: 0, bottom: 13, right: 2 },
        header: 1,
        totals: 1,
        columns: ["City", "Pop", "Rank"],
        style: { name: "TableStyleMedium2", firstColumn: false, lastColumn: false, rowStripes: true, columnStripes: false },
        autoFilter: true,
        totalsRow: [{ label: "Total" }, { fn: "sum" }, null],
      },
    ]);
    const { workbook } = Workbook.fromData(data);
    const got = FORMULAS.map((_, i) => workbook.read(`Data!E${20 + i}`).values[0]?.[0]);
    expect(got).toEqual(FORMULAS.map(([, , v]) => v));
    // [@Pop] is the table's row of the formula's cell; the legacy file's [@Pop] stays as it is.
    expect(workbook.read("Data!C2:C4", { render: "both" }).values).toEqual([
      [{ value: 1, formula: "=[@Pop]/100" }],
      [{ value: 2, formula: "=[@Pop]/100" }],
      [{ value: 3, formula: "=[@Pop]/100" }],
    ]);
    expect(workbook.read("Data!B14").values).toEqual([[7800]]);
  });

  it("[#This Row] outside the table's data rows is #VALUE!, and a change in a column recomputes what reads it", () => {
    const { workbook } = Workbook.fromData(readXlsx(bigCityXlsx({})));
    workbook.write("Data!G2:G3", [['=BigCity[[#This Row],[City]]&"!"'], ["=SUM(BigCity[Pop])"]]);
    workbook.write("Data!H1", [["=BigCity[@Pop]"]]);
    expect(workbook.read("Data!G2:H2").values).toEqual([["Paris!", null]]);
    expect(workbook.read("Data!H1").values).toEqual([[{ error: "#VALUE!" }]]);
    const done = workbook.write("Data!B2", [[1100]]);
    expect(workbook.read("Data!G3").values).toEqual([[8800]]);
    expect(workbook.read("Data!C2").values).toEqual([[11]]);
    expect(done.recalculatedCells).toBeGreaterThanOrEqual(3);
  });

  it("unqualified references inside the table resolve to it; a table name cannot be a defined name", () => {
    const { workbook } = Workbook.fromData(readXlsx(bigCityXlsx({})));
    workbook.write("Data!C5", [["=[@Pop]*2+COUNT([Pop])"]]);
    expect(workbook.read("Data!C5").values).toEqual([[812]]);
    workbook.write("Data!F1", [["=[Pop]"]]);
    expect(workbook.read("Data!F1").values).toEqual([[{ error: "#REF!" }]]);
    expect(() => workbook.defineName({ name: "bigcity", formula: "1" })).toThrow(/name of a table/);
  });

  it("stretch with rows inserted inside them, and their references follow", () => {
    const { workbook } = Workbook.fromData(readXlsx(bigCityXlsx({})));
    workbook.write("Data!G1", [["=COUNTA(BigCity[City])"]]);
    workbook.edit([{ insertRows: { sheet: "Data", at: 5, count: 2 } }, { write: { range: "Data!A5:B5", values: [["Agen", 50]] } }]);
    expect(workbook.read("Data!G1").values).toEqual([[13]]);
    expect(workbook.read("Data!B16").values).toEqual([[7850]]);
  });

  it("are kept by the store and written back to .xlsx, where they read the same", async () => {
    const { workbook } = Workbook.fromData(readXlsx(bigCityXlsx({ E1: "COUNTA(BigCity[City])" })));
    const saved = saveTiles(workbook);
    expect(saved.manifest.tables?.map((t) => [t.name, t.sheet])).toEqual([["BigCity", "Data"]]);
    const loaded = loadTiles(saved.manifest, (hash) => saved.tiles.get(hash)!).workbook;
    loaded.write("Data!A2", [[null]]);
    expect(loaded.read("Data!E20").values).toEqual([[11]]);
    const data = workbook.toData({ xlsx: true });
    const again = readXlsx(await writeXlsx(data, { title: "tables" }));
    expect(again.sheets[0]!.tables).toEqual(data.sheets[0]!.tables);
    const reopened = Workbook.fromData(again).workbook;
    expect(reopened.read("Data!E20").values).toEqual([[12]]);
    expect(reopened.read("Data!C13", { render: "formula" }).values).toEqual([["=[@Pop]/100"]]);
  });
});
