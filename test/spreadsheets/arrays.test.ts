// Arrays in cells as Excel has them: dynamic arrays that spill (and #SPILL! when blocked), the
// spill reference A1#, implicit intersection for formulas saved before dynamic arrays and the @
// operator, array (CSE) formulas from files, 3-D references; kept through the store and .xlsx.
import { describe, expect, it } from "vitest";
import { Workbook } from "../../src/spreadsheets/workbook/workbook.ts";
import { loadTiles, saveTiles } from "../../src/spreadsheets/tiles/tiles.ts";
import { readTiles } from "../../src/spreadsheets/tiles/tile-read.ts";
import { readXlsx } from "../../src/spreadsheets/io/xlsx/read.ts";
import { writeXlsx } from "../../src/spreadsheets/io/xlsx/write.ts";
import { buildXlsx } from "./xlsx-fixtures.ts";
import { readWritten } from "./xlsx-written.ts";

const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

function sheet(values: (string | number | null)[][] = []) {
  return Workbook.create(
    [
      { name: "S", values },
      { name: "T", values: [[10]] },
      { name: "U", values: [[100]] },
    ],
    "raw",
  ).workbook;
}

describe("dynamic arrays", () => {
  it("spill into empty cells, are #SPILL! when a cell is in the way, and spill again once it is cleared", () => {
    const wb = sheet();
    wb.write("S!A1", [["=SEQUENCE(3,2)"]]);
    expect(wb.read("S!A1:C4").values).toEqual([
      [1, 2, null],
      [3, 4, null],
      [5, 6, null],
      [null, null, null],
    ]);
    expect(wb.read("S!A1:B2", { render: "both" }).values[0]).toEqual([{ value: 1, formula: "=SEQUENCE(3,2)" }, 2]);
    wb.write("S!B3", [["x"]]);
    expect(wb.read("S!A1:B3").values).toEqual([
      [{ error: "#SPILL!" }, null],
      [null, null],
      [null, "x"],
    ]);
    // Clearing a spilled cell changes nothing; clearing the cell in the way lets the array spill.
    wb.write("S!B3", [[null]]);
    expect(wb.read("S!A1:B3").values).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    wb.write("S!A2", [[null]]);
    expect(wb.read("S!A2").values).toEqual([[3]]);
    // Off the sheet's edge.
    wb.write("S!D1048575", [["=SEQUENCE(3)"]]);
    expect(wb.read("S!D1048575").values).toEqual([[{ error: "#SPILL!" }]]);
  });

  it("are read through A1#, and what reads a spill (or a cell of it) follows its changes", () => {
    const wb = sheet([[3]]);
    wb.write("S!B1:E1", [["=SEQUENCE(A1)", "=SUM(B1#)", "=ROWS(B1#)", "=B3"]]);
    expect(wb.read("S!B1:E1").values).toEqual([[1, 6, 3, 3]]);
    wb.write("S!A1", [[5]]);
    expect(wb.read("S!B1:E1").values).toEqual([[1, 15, 5, 3]]);
    expect(wb.read("S!B5").values).toEqual([[5]]);
    wb.write("S!A1", [[2]]);
    expect(wb.read("S!B1:E3").values).toEqual([
      [1, 3, 2, 0],
      [2, null, null, null],
      [null, null, null, null],
    ]);
    wb.write("S!F1", [["=A1#"]]);
    expect(wb.read("S!F1").values).toEqual([[{ error: "#REF!" }]]);
    wb.write("S!G1", [["=C1#"]]);
    expect(wb.read("S!G1").values).toEqual([[3]]);
  });

  it("a range or an operation on ranges spills; empty cells spill as 0", () => {
    const wb = sheet([
      [1, 2],
      [3, null],
    ]);
    wb.write("S!D1", [["=A1:B2*10"]]);
    wb.write("S!F1", [["=LEN(A1:A2)"]]);
    expect(wb.read("S!D1:F2").values).toEqual([
      [10, 20, 1],
      [30, 0, 1],
    ]);
    wb.write("S!D5", [["=A1:B2"]]);
    expect(wb.read("S!D5:E6").values).toEqual([
      [1, 2],
      [3, 0],
    ]);
  });

  it("are kept by the store: spilled cells read from tiles without a model, and a loaded model spills them again", () => {
    const wb = sheet();
    wb.write("S!A1", [["=SEQUENCE(200)"]]);
    wb.write("S!C1:D1", [["=SEQUENCE(1,2)", "x"]]);
    const saved = saveTiles(wb);
    const get = (hash: string) => saved.tiles.get(hash)!;
    expect(readTiles(saved.manifest, "S!A199:A200", get).values).toEqual([[199], [200]]);
    expect(readTiles(saved.manifest, "S!C1:D1", get, { render: "both" }).values).toEqual([
      [{ value: { error: "#SPILL!" }, formula: "=SEQUENCE(1,2)" }, "x"],
    ]);
    const loaded = loadTiles(saved.manifest, get);
    expect(loaded.result.recalculatedCells).toBe(0);
    expect(loaded.workbook.read("S!A150:A151").values).toEqual([[150], [151]]);
    loaded.workbook.write("S!D1", [[null]]);
    expect(loaded.workbook.read("S!C1:D1").values).toEqual([[1, 2]]);
    loaded.workbook.write("S!A1", [["=SEQUENCE(2)"]]);
    expect(loaded.workbook.read("S!A1:A4").values).toEqual([[1], [2], [null], [null]]);
  });
});

/** A legacy sheet: a value per column in row 7 (G7:J7), a row of numbers (M9:O9) and texts (G10:J10). */
function legacyXlsx(formulas: Record<string, string>): Uint8Array {
  const cells = Object.entries(formulas)
    .map(([ref, f]) => `<c r="${ref}"><f>${f}</f><v>0</v></c>`)
    .join("");
  return buildXlsx({
    sheets: [
      {
        name: "Old",
        data:
          `<row r="7"><c r="C7"><v>1</v></c><c r="G7"><v>10</v></c><c r="H7"><v>20</v></c><c r="I7"><v>30</v></c><c r="J7"><v>40</v></c></row>` +
          `<row r="9"><c r="M9"><v>1.26</v></c><c r="N9"><v>2.51</v></c><c r="O9"><v>3.75</v></c></row>` +
          `<row r="10"><c r="G10" t="inlineStr"><is><t>a</t></is></c><c r="H10" t="inlineStr"><is><t>b</t></is></c><c r="I10" t="inlineStr"><is><t>c</t></is></c><c r="J10" t="inlineStr"><is><t>d</t></is></c></row>` +
          `<row r="20">${cells}</row>`,
      },
    ],
  });
}

describe("formulas saved before dynamic arrays", () => {
  it("intersect implicitly where Excel did, shown with @ as Excel 365 shows them", () => {
    const { workbook } = Workbook.fromData(
      readXlsx(
        legacyXlsx({
          H20: "C7+G7:J7",
          N20: "ROUND(M9:O9,1)",
          I20: "CONCATENATE(G10:J10,&quot;!&quot;)",
          A20: "C7+G7:J7",
          B20: "SUM(G7:J7*2)",
          C20: "SUMPRODUCT(G7:J7*2)",
          D20: "INDEX(G7:J7,0)",
        }),
      ),
    );
    // Column H intersects G7:J7 in H7; column A is outside it: #VALUE!.
    expect(workbook.read("Old!H20", { render: "both" }).values).toEqual([[{ value: 21, formula: "=C7+@G7:J7" }]]);
    expect(workbook.read("Old!N20", { render: "both" }).values).toEqual([[{ value: 2.5, formula: "=ROUND(@M9:O9,1)" }]]);
    expect(workbook.read("Old!I20").values).toEqual([["c!"]]);
    expect(workbook.read("Old!A20").values).toEqual([[{ error: "#VALUE!" }]]);
    // SUM's reference taken whole, but the product inside it intersects; SUMPRODUCT's arrays do not.
    expect(workbook.read("Old!B20:D20", { render: "both" }).values).toEqual([
      [
        { value: { error: "#VALUE!" }, formula: "=SUM(@G7:J7*2)" },
        { value: 200, formula: "=SUMPRODUCT(G7:J7*2)" },
        { value: { error: "#VALUE!" }, formula: "=@INDEX(G7:J7,0)" },
      ],
    ]);
  });

  it("a formula flagged as a dynamic array (cm, XLDAPR) computes as one and spills", () => {
    const metadata =
      `<?xml version="1.0" encoding="UTF-8"?><metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000"/></metadataTypes>` +
      `<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>`;
    const xlsx = buildXlsx({
      sheets: [
        {
          name: "New",
          data:
            `<row r="1"><c r="A1"><v>1</v></c><c r="B1"><v>2</v></c><c r="D1" cm="1"><f t="array" ref="D1:E1">A1:B1*10</f><v>10</v></c><c r="E1"><v>20</v></c></row>` +
            `<row r="2"><c r="D2"><f>A1:B1*10</f><v>10</v></c></row>`,
        },
      ],
      workbookRelationships: [`<Relationship Id="rIdM" Type="${REL}/sheetMetadata" Target="metadata.xml"/>`],
      extra: { "xl/metadata.xml": metadata },
    });
    const data = readXlsx(xlsx);
    const { workbook } = Workbook.fromData(data);
    expect(workbook.read("New!D1:E2", { render: "both" }).values).toEqual([
      [{ value: 10, formula: "=A1:B1*10" }, 20],
      [{ value: { error: "#VALUE!" }, formula: "=@A1:B1*10" }, null],
    ]);
  });

  it("the @ operator intersects, and a formula with it is written to .xlsx as Excel writes it", async () => {
    const wb = sheet([[1], [2], [3]]);
    wb.write("S!B2:D2", [["=@A1:A3*10", "=SUM(@A1:A3)", "=A1:A3*10"]]);
    expect(wb.read("S!B2:D3").values).toEqual([
      [20, 2, 10],
      [null, null, 20],
    ]);
    const written = await readWritten(await writeXlsx(wb.toData({ xlsx: true }), { title: "at" }));
    const xml = written.parts.get("xl/worksheets/sheet1.xml")!;
    expect(xml).toContain('<c r="B2"><f>A1:A3*10</f>');
    expect(xml).toContain('<c r="C2"><f>SUM(_xlfn.SINGLE(A1:A3))</f>');
    expect(xml).toContain('<c r="D2" cm="1"><f t="array" ref="D2:D4">A1:A3*10</f>');
    expect(written.parts.get("xl/metadata.xml")).toContain('name="XLDAPR"');
    // Read back: the same formulas, the same values.
    const back = Workbook.fromData(readXlsx(await writeXlsx(wb.toData({ xlsx: true }), { title: "at" }))).workbook;
    expect(back.read("S!B2:D4", { render: "formula" }).values).toEqual([
      // _xlfn.SINGLE(…) reads as @, as Excel shows it.
      ["=@A1:A3*10", "=SUM(@A1:A3)", "=A1:A3*10"],
      [null, null, 20],
      [null, null, 30],
    ]);
  });
});

describe("array (CSE) formulas from files", () => {
  const xlsx = () =>
    buildXlsx({
      sheets: [
        {
          name: "A",
          data:
            `<row r="1"><c r="A1"><v>1</v></c><c r="B1"><v>2</v></c><c r="C1"><v>3</v></c></row>` +
            `<row r="2"><c r="A2"><f t="array" ref="A2:D3">A1:C1*2</f><v>2</v></c><c r="B2"><v>4</v></c><c r="C2"><v>6</v></c><c r="D2"><v>0</v></c></row>` +
            `<row r="3"><c r="A3"><v>2</v></c><c r="B3"><v>4</v></c><c r="C3"><v>6</v></c><c r="D3"><v>0</v></c></row>` +
            `<row r="5"><c r="A5"><f t="array" ref="A5">SUM(A1:C1*A1:C1)</f><v>14</v></c></row>`,
        },
      ],
    });

  it("fill their range: a one-row result repeats down, cells past it are #N/A", () => {
    const { workbook } = Workbook.fromData(readXlsx(xlsx()));
    expect(workbook.read("A!A2:D3").values).toEqual([
      [2, 4, 6, { error: "#N/A" }],
      [2, 4, 6, { error: "#N/A" }],
    ]);
    expect(workbook.read("A!A5").values).toEqual([[14]]);
    workbook.write("A!A1", [[5]]);
    expect(workbook.read("A!A3").values).toEqual([[10]]);
    expect(() => workbook.write("A!B3", [[1]])).toThrow(/part of the array formula at A!A2/);
  });

  it("are kept by the store and written back with their range", async () => {
    const { workbook } = Workbook.fromData(readXlsx(xlsx()));
    const saved = saveTiles(workbook);
    const loaded = loadTiles(saved.manifest, (hash) => saved.tiles.get(hash)!).workbook;
    loaded.write("A!C1", [[4]]);
    expect(loaded.read("A!C2:C3").values).toEqual([[8], [8]]);
    const xml = (await readWritten(await writeXlsx(loaded.toData({ xlsx: true }), { title: "cse" }))).parts.get(
      "xl/worksheets/sheet1.xml",
    )!;
    expect(xml).toContain('<c r="A2"><f t="array" ref="A2:D3">A1:C1*2</f><v>2</v></c>');
    expect(xml).toContain('<f t="array" ref="A5">SUM(A1:C1*A1:C1)</f>');
    expect(xml).not.toContain("cm=");
  });
});

describe("3-D references", () => {
  it("reach the same cells of every sheet from the first to the last, in SUM, COUNT, AVERAGE, MAX, MIN and kin", () => {
    const wb = sheet([[1, 2]]);
    wb.write("S!D1:I1", [["=SUM(S:U!A1)", "=COUNT(S:U!A1:B1)", "=AVERAGE(S:U!A1)", "=MAX(S:U!A1)", "=MIN(S:U!A1,5)", "=S:U!A1"]]);
    expect(wb.read("S!D1:I1").values).toEqual([[111, 4, 37, 100, 1, { error: "#VALUE!" }]]);
    wb.write("T!A1", [[1000]]);
    expect(wb.read("S!D1").values).toEqual([[1101]]);
    // The same text from another cell: its relative reference is relative to that cell.
    expect(wb.evaluate("=SUM(S:U!A1)")).toBe(1101);
    // A sheet added between them joins the span; renaming an end renames it in the formula.
    wb.edit([{ addSheet: { name: "Mid", index: 1 } }, { write: { range: "Mid!A1", values: [[5]] } }]);
    expect(wb.read("S!D1").values).toEqual([[1106]]);
    wb.edit([{ renameSheet: { sheet: "U", name: "Last" } }]);
    expect(wb.read("S!D1", { render: "formula" }).values).toEqual([["=SUM(S:Last!A1)"]]);
    wb.edit([{ deleteSheet: { sheet: "Last" } }]);
    expect(wb.read("S!D1:D1", { render: "both" }).values).toEqual([[{ value: 1006, formula: "=SUM(S:T!A1)" }]]);
  });
});
