// The .xlsx reader on hand-built packages (./xlsx-fixtures.ts): every construct writers use, in the
// zip orders they use, read into WorkbookData with rows in ascending order.
import { describe, expect, it } from "vitest";
import { readXlsx } from "../../src/spreadsheets/io/xlsx/read.ts";
import { buildXlsx, cellsOf } from "./xlsx-fixtures.ts";

const STYLES = `<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm"/><numFmt numFmtId="165" formatCode="0.000"/></numFmts>
<cellStyleXfs count="1"><xf numFmtId="22"/></cellStyleXfs>
<cellXfs count="5"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="10"/></cellXfs>`;

describe("readXlsx", () => {
  it("strings: shared (after the sheets in the zip), inline, rich text runs concatenated, phonetic runs left out, _xHHHH_ escapes", () => {
    const xlsx = buildXlsx({
      sheets: [
        {
          name: "Text",
          data: `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>
<row r="2"><c r="A2" t="inlineStr"><is><t>inline</t></is></c><c r="B2" t="inlineStr"><is><r><rPr><b/></rPr><t>bold</t></r><r><t xml:space="preserve"> and plain</t></r></is></c><c r="C2" t="str"><f>"a"&amp;"b"</f><v>ab</v></c></row>`,
        },
      ],
      sharedStrings: [
        "<t>plain &amp; simple</t>",
        `<r><t>Rich</t></r><r><rPr><i/></rPr><t xml:space="preserve"> text</t></r><rPh sb="0" eb="1"><t>ふりがな</t></rPh>`,
        "<t>line_x000D_break and _x005F_x0041_</t>",
      ],
    });
    const cells = cellsOf(readXlsx(xlsx).sheets[0]!);
    expect(cells).toEqual({
      A1: { value: "plain & simple" },
      B1: { value: "Rich text" },
      C1: { value: "line\rbreak and _x0041_" },
      A2: { value: "inline" },
      B2: { value: "bold and plain" },
      C2: { value: "ab", formula: '"a"&"b"', legacy: true },
    });
  });

  it("shared strings before the sheets read the same", () => {
    const spec = { sheets: [{ name: "S", data: `<row r="1"><c r="A1" t="s"><v>0</v></c></row>` }], sharedStrings: ["<t>x</t>"] };
    expect(cellsOf(readXlsx(buildXlsx({ ...spec, stringsFirst: true })).sheets[0]!)).toEqual(cellsOf(readXlsx(buildXlsx(spec)).sheets[0]!));
  });

  it("cached values of every type; a formula without a cached value is null with its formula", () => {
    const xlsx = buildXlsx({
      sheets: [
        {
          name: "Types",
          data: `<row r="1"><c r="A1"><v>42</v></c><c r="B1" t="n"><v>-1.5E-3</v></c><c r="C1" t="b"><v>1</v></c><c r="D1" t="b"><v>0</v></c><c r="E1" t="e"><v>#DIV/0!</v></c><c r="F1" t="e"><f>NA()</f><v>#N/A</v></c></row>
<row r="2"><c r="A2"><f>SUM(A1:B1)</f></c><c r="B2" t="d"><v>2024-02-29</v></c><c r="C2" t="d"><v>1900-02-28T12:00:00</v></c><c r="D2"/><c r="E2" s="1"/></row>`,
        },
      ],
    });
    expect(cellsOf(readXlsx(xlsx).sheets[0]!)).toEqual({
      A1: { value: 42 },
      B1: { value: -0.0015 },
      C1: { value: true },
      D1: { value: false },
      E1: { value: { error: "#DIV/0!" } },
      F1: { value: { error: "#N/A" }, formula: "NA()", legacy: true },
      A2: { value: null, formula: "SUM(A1:B1)", legacy: true },
      B2: { value: 45351, numFmt: "yyyy-mm-dd" },
      C2: { value: 59.5, numFmt: "yyyy-mm-dd hh:mm:ss" },
    });
  });

  it("shared formulas are expanded with relative references moved; absolute ones and strings stay; array formulas keep their text and range, their other cells left out", () => {
    const xlsx = buildXlsx({
      sheets: [
        {
          name: "F",
          data: `<row r="1"><c r="A1"><v>1</v></c><c r="B1"><f t="shared" ref="B1:B3" si="0">A1*2+$A$1+'Other sheet'!C1&amp;"A1"</f><v>4</v></c><c r="C1"><f t="shared" ref="C1:E1" si="1">A1+B$1</f><v>5</v></c><c r="D1"><f t="shared" si="1"/><v>9</v></c><c r="E1"><f t="shared" si="1"/><v>14</v></c></row>
<row r="2"><c r="A2"><v>2</v></c><c r="B2"><f t="shared" si="0"/><v>6</v></c></row>
<row r="3"><c r="A3"><v>3</v></c><c r="B3"><f t="shared" si="0"/><v>8</v></c><c r="C3"><f t="array" ref="C3:C4">A1:A2*10</f><v>10</v></c></row>
<row r="4"><c r="C4"><v>20</v></c></row>`,
        },
      ],
    });
    const cells = cellsOf(readXlsx(xlsx).sheets[0]!);
    expect(cells["B1"]).toEqual({ value: 4, formula: "A1*2+$A$1+'Other sheet'!C1&\"A1\"", legacy: true });
    expect(cells["B2"]).toEqual({ value: 6, formula: "A2*2+$A$1+'Other sheet'!C2&\"A1\"", legacy: true });
    expect(cells["B3"]).toEqual({ value: 8, formula: "A3*2+$A$1+'Other sheet'!C3&\"A1\"", legacy: true });
    expect([cells["C1"]!.formula, cells["D1"]!.formula, cells["E1"]!.formula]).toEqual(["A1+B$1", "B1+C$1", "C1+D$1"]);
    expect(cells["C3"]).toEqual({ value: 10, formula: "A1:A2*10", array: { ref: "C3:C4", dynamic: false } });
    // The array formula's other cell holds its cached result: the engine fills it again.
    expect(cells["C4"]).toBeUndefined();
  });

  it("styles give number formats (built-in ids and custom numFmts, cellXfs only); 1904 dates become 1900 serials, other numbers do not move", () => {
    const data = `<row r="1"><c r="A1" s="1"><v>0</v></c><c r="B1" s="2"><v>45000.5</v></c><c r="C1" s="3"><v>1.25</v></c><c r="D1" s="4"><v>0.5</v></c><c r="E1"><v>7</v></c></row>`;
    const in1900 = cellsOf(readXlsx(buildXlsx({ sheets: [{ name: "D", data }], styles: STYLES })).sheets[0]!);
    expect(in1900).toEqual({
      A1: { value: 0, numFmt: "mm-dd-yy" },
      B1: { value: 45000.5, numFmt: "yyyy-mm-dd hh:mm" },
      C1: { value: 1.25, numFmt: "0.000" },
      D1: { value: 0.5, numFmt: "0.00%" },
      E1: { value: 7 },
    });
    const in1904 = cellsOf(readXlsx(buildXlsx({ sheets: [{ name: "D", data }], styles: STYLES, date1904: true })).sheets[0]!);
    // 1904-01-01 is serial 0 in the 1904 system, 1462 in the 1900 system.
    expect(in1904).toEqual({ ...in1900, A1: { value: 1462, numFmt: "mm-dd-yy" }, B1: { value: 46462.5, numFmt: "yyyy-mm-dd hh:mm" } });
  });

  it("sheets in the workbook's order with their names, hidden ones too; chartsheets skipped", () => {
    const xlsx = buildXlsx({
      sheets: [
        { name: "Zeta", data: `<row r="1"><c r="A1"><v>1</v></c></row>` },
        {
          name: "Chart",
          data: `<?xml version="1.0"?><chartsheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>`,
          kind: "chartsheet",
        },
        { name: "Hidden &amp; secret", data: `<row r="1"><c r="A1"><v>2</v></c></row>`, state: "hidden" },
        { name: "Alpha", data: `<row r="1"><c r="A1"><v>3</v></c></row>`, state: "veryHidden" },
      ],
    });
    const workbook = readXlsx(xlsx);
    expect(workbook.sheets.map((s) => s.name)).toEqual(["Zeta", "Hidden & secret", "Alpha"]);
    expect(workbook.sheets.map((s) => cellsOf(s)["A1"]!.value)).toEqual([1, 2, 3]);
  });

  it("rows and cells without r attributes follow the previous ones; rows out of order come out sorted; empty rows are left out", () => {
    const xlsx = buildXlsx({
      sheets: [
        {
          name: "R",
          data: `<row r="5"><c r="C5"><v>3</v></c></row><row r="2"><c><v>1</v></c><c><v>2</v></c></row><row><c r="B3"><v>5</v></c><c><v>6</v></c></row><row r="4"><c r="A4" s="0"/></row><row r="9"/>`,
        },
      ],
    });
    const rows = [...readXlsx(xlsx).sheets[0]!.rows()];
    expect(rows).toEqual([
      [1, [{ value: 1 }, { value: 2 }]],
      [2, [undefined, { value: 5 }, { value: 6 }]],
      [4, [undefined, undefined, { value: 3 }]],
    ]);
  });

  it("a sheet of 100,000 rows streams: rows() builds cells as it goes", () => {
    const rows: string[] = [];
    for (let r = 1; r <= 100_000; r++)
      rows.push(`<row r="${r}"><c r="A${r}"><v>${r}</v></c><c r="B${r}" t="inlineStr"><is><t>row ${r}</t></is></c></row>`);
    const sheet = readXlsx(buildXlsx({ sheets: [{ name: "Big", data: rows.join("") }] })).sheets[0]!;
    let count = 0;
    let last: unknown;
    for (const [row, cells] of sheet.rows()) {
      count++;
      last = [row, cells];
    }
    expect(count).toBe(100_000);
    expect(last).toEqual([99_999, [{ value: 100_000 }, { value: "row 100000" }]]);
  }, 60_000);
  it("a sheet or shared strings outside the scanner's plain XML (a comment, CDATA) read as their plain twins, counted once", () => {
    const plain = `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><f>1+1</f><v>2</v></c><c r="C1" t="inlineStr"><is><t>a&lt;b</t></is></c></row>`;
    const other = `<row r="1"><!-- a writer's note --><c r="A1" t="s"><v>0</v></c><c r="B1"><f><![CDATA[1+1]]></f><v>2</v></c><c r="C1" t="inlineStr"><is><t><![CDATA[a<b]]></t></is></c></row>`;
    const read = (data: string, shared: string) => {
      const workbook = readXlsx(buildXlsx({ sheets: [{ name: "S", data }], sharedStrings: [shared] }), { limits: { cells: 3 } });
      return { cells: cellsOf(workbook.sheets[0]!), facts: workbook.facts };
    };
    const expected = read(plain, "<t>x &amp; y</t>");
    expect(expected.cells).toEqual({ A1: { value: "x & y" }, B1: { value: 2, formula: "1+1", legacy: true }, C1: { value: "a<b" } });
    expect(read(other, "<!-- note --><t><![CDATA[x & y]]></t>")).toEqual(expected);
    // The cells counted by the pass that gave up are not counted again: three cells, the bound, pass.
    expect(() => read(`${other}<row r="2"><c r="A2"><v>1</v></c></row>`, "<t>x</t>")).toThrow(/more than 3 non-empty cells/);
  });
});
