// The .xlsx writer, read back by JSZip and fast-xml-parser (./xlsx-written.ts): the package's
// parts and relationships, every cell type and its XML, escaping, the characters XML forbids,
// number formats, sheet names, used ranges, and the limits.
import { describe, expect, it } from "vitest";
import type { Cell, SheetData, SheetRow, WorkbookData } from "../../src/spreadsheets/cells/types.ts";
import { MAX_CELL_TEXT } from "../../src/spreadsheets/cells/types.ts";
import { writeXlsx, xlsxStream } from "../../src/spreadsheets/io/xlsx/write.ts";
import { readWritten } from "./xlsx-written.ts";

const at = new Date("2026-02-03T04:05:06.789Z");
const sheet = (name: string, rows: SheetRow[]): SheetData => ({ name, rows: () => rows });
const write = (data: WorkbookData, sharedStrings?: number) => writeXlsx(data, { title: "Q1 & <Plan>", modified: at, sharedStrings });

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return Buffer.concat(chunks);
}

describe("the .xlsx package", () => {
  const data: WorkbookData = {
    sheets: [sheet("Data", [[0, [{ value: "a" }, { value: 1 }]]]), sheet("Empty", []), sheet("Third", [[4, [undefined, { value: true }]]])],
  };

  it("has every part its content types and relationships name, and nothing else", async () => {
    const book = await readWritten(await write(data));
    expect([...book.parts.keys()]).toEqual([
      "[Content_Types].xml",
      "_rels/.rels",
      "docProps/core.xml",
      "docProps/app.xml",
      "xl/workbook.xml",
      "xl/_rels/workbook.xml.rels",
      "xl/worksheets/sheet1.xml",
      "xl/worksheets/sheet2.xml",
      "xl/worksheets/sheet3.xml",
      "xl/sharedStrings.xml",
      "xl/styles.xml",
    ]);
    const overrides = [...book.parts.get("[Content_Types].xml")!.matchAll(/PartName="\/([^"]+)"/g)].map((m) => m[1]);
    expect(overrides.sort()).toEqual([...book.parts.keys()].filter((p) => !p.endsWith(".rels") && p !== "[Content_Types].xml").sort());
    const targets = [...book.parts.get("xl/_rels/workbook.xml.rels")!.matchAll(/Target="([^"]+)"/g)].map((m) => `xl/${m[1]}`);
    expect(targets).toEqual([
      "xl/worksheets/sheet1.xml",
      "xl/worksheets/sheet2.xml",
      "xl/worksheets/sheet3.xml",
      "xl/styles.xml",
      "xl/sharedStrings.xml",
    ]);
    const root = [...book.parts.get("_rels/.rels")!.matchAll(/Target="([^"]+)"/g)].map((m) => m[1]);
    for (const target of root) expect(book.parts.has(target!)).toBe(true);
  });

  it("names the sheets in order, asks for a full recalculation on load, and carries the title", async () => {
    const book = await readWritten(await write(data));
    expect(book.sheets.map((s) => s.name)).toEqual(["Data", "Empty", "Third"]);
    expect(book.calcPr).toEqual({ calcId: "191029", fullCalcOnLoad: "1" });
    expect(book.title).toBe("Q1 & <Plan>");
    expect(book.parts.get("docProps/core.xml")).toContain(
      '<dcterms:modified xsi:type="dcterms:W3CDTF">2026-02-03T04:05:06Z</dcterms:modified>',
    );
    expect(book.parts.get("docProps/app.xml")).toContain("<vt:lpstr>Data</vt:lpstr><vt:lpstr>Empty</vt:lpstr><vt:lpstr>Third</vt:lpstr>");
    expect(book.parts.get("xl/worksheets/sheet1.xml")).toContain('tabSelected="1"');
    expect(book.parts.get("xl/worksheets/sheet2.xml")).not.toContain("tabSelected");
  });

  it("writes the same bytes as a stream and as a buffer, and the same bytes every time", async () => {
    const buffer = Buffer.from(await write(data));
    expect(buffer.equals(Buffer.from(await write(data)))).toBe(true);
    expect((await readAll(xlsxStream(data, { title: "Q1 & <Plan>", modified: at }))).equals(buffer)).toBe(true);
  });

  it("refuses a workbook without sheets, before a stream starts", async () => {
    await expect(write({ sheets: [] })).rejects.toThrow(/at least one sheet/);
    expect(() => xlsxStream({ sheets: [] }, { title: "none" })).toThrow(/at least one sheet/);
  });

  it("errors the stream when a sheet's rows break the model's guarantees", async () => {
    const stream = xlsxStream(
      {
        sheets: [
          sheet("Bad", [
            [3, [{ value: 1 }]],
            [1, [{ value: 2 }]],
          ]),
        ],
      },
      { title: "bad" },
    );
    await expect(readAll(stream)).rejects.toThrow(/row 1 out of order/);
  });

  it("writes 200 sheets, with names that need escaping", async () => {
    const names = Array.from({ length: 200 }, (_, i) =>
      i % 3 === 0 ? `O'Brien "${i}" & <co> _x0041_` : i % 3 === 1 ? `Ventes été ${i} 📈` : `S${i}`,
    );
    const book = await readWritten(await write({ sheets: names.map((name, i) => sheet(name, [[i, [{ value: name }]]])) }));
    expect(book.sheets.map((s) => s.name)).toEqual(names);
    book.sheets.forEach((s, i) => expect(s.cells.get(`A${i + 1}`)?.text).toBe(names[i]));
  });
});

describe("cells", () => {
  it("writes numbers as the shortest text that reads back as the same double; -0 as 0; NaN and Infinity as #NUM!", async () => {
    const numbers = [1.5, -0, 1 / 3, 0.1 + 0.2, 1e300, -1.7976931348623157e308, 5e-324, 1e-7, 123456789012345, 2 ** 53, -5];
    const rows: SheetRow[] = numbers.map((value, i) => [i, [{ value }]]);
    rows.push([numbers.length, [{ value: NaN }, { value: Infinity }, { value: -Infinity, formula: "-1/0*1E308" }]]);
    const { cells } = (await readWritten(await write({ sheets: [sheet("N", rows)] }))).sheets[0]!;
    numbers.forEach((n, i) => {
      const cell = cells.get(`A${i + 1}`)!;
      expect(cell.t).toBeUndefined();
      expect(Number(cell.v)).toBe(n === 0 ? 0 : n);
      expect(cell.v).toMatch(/^-?\d+(\.\d+)?(E[+-]\d+)?$/);
    });
    expect(cells.get("A2")!.v).toBe("0");
    expect(cells.get("A4")!.v).toBe("0.30000000000000004");
    expect(cells.get("A5")!.v).toBe("1E+300");
    expect(cells.get("A7")!.v).toBe("5E-324");
    const last = numbers.length + 1;
    expect(cells.get(`A${last}`)).toEqual({ t: "e", v: "#NUM!" });
    expect(cells.get(`B${last}`)).toEqual({ t: "e", v: "#NUM!" });
    expect(cells.get(`C${last}`)).toEqual({ t: "e", v: "#NUM!", f: "-1/0*1E308" });
  });

  it("writes texts once in the shared strings, booleans, errors, and formulas with their computed values typed", async () => {
    const row: Cell[] = [
      { value: "north" },
      { value: "south" },
      { value: "north" },
      { value: true },
      { value: false },
      { value: { error: "#N/A" } },
      { value: 6, formula: "SUM(B1:B3)" },
      { value: "a<b", formula: 'IF(A1<"b","a<b","no")' },
      { value: false, formula: "A1=B1" },
      { value: { error: "#DIV/0!" }, formula: "1/0" },
      { value: null, formula: "FOO()" },
      { value: "", formula: 'A1&""' },
      { value: "" },
    ];
    const book = await readWritten(await write({ sheets: [sheet("T", [[0, row]])] }));
    const { cells } = book.sheets[0]!;
    expect(Object.fromEntries(cells)).toEqual({
      A1: { t: "s", v: "0", text: "north" },
      B1: { t: "s", v: "1", text: "south" },
      C1: { t: "s", v: "0", text: "north" },
      D1: { t: "b", v: "1" },
      E1: { t: "b", v: "0" },
      F1: { t: "e", v: "#N/A" },
      G1: { v: "6", f: "SUM(B1:B3)" },
      H1: { t: "str", v: "a<b", f: 'IF(A1<"b","a<b","no")', text: "a<b" },
      I1: { t: "b", v: "0", f: "A1=B1" },
      J1: { t: "e", v: "#DIV/0!", f: "1/0" },
      K1: { f: "FOO()" },
      L1: { t: "str", v: "", f: 'A1&""', text: "" },
      M1: { t: "s", v: "2", text: "" },
    });
    expect(book.parts.get("xl/sharedStrings.xml")).toContain('count="4" uniqueCount="3"');
    expect(book.parts.get("xl/worksheets/sheet1.xml")).toContain('<f>IF(A1&lt;"b","a&lt;b","no")</f>');
  });

  it("gives each distinct number format one style: built-in ids where Excel has them, custom ones from 164", async () => {
    const rows: SheetRow[] = [
      [
        0,
        [
          { value: 46053, numFmt: "yyyy-mm-dd" },
          { value: 0.25, numFmt: "0.00%" },
          { value: 46053.5, numFmt: "yyyy-mm-dd hh:mm:ss" },
        ],
      ],
      [
        1,
        [
          { value: 59, numFmt: "yyyy-mm-dd" },
          { value: 1, numFmt: "General" },
          { value: null, numFmt: "mm-dd-yy" },
          { value: 3, numFmt: '0.0 "m²"' },
        ],
      ],
    ];
    const book = await readWritten(await write({ sheets: [sheet("D", rows), sheet("E", [[0, [{ value: 60, numFmt: "yyyy-mm-dd" }]]])] }));
    const [d, e] = book.sheets;
    const style = (cell: string, s = d!) => book.xfs[s.cells.get(cell)!.s ?? 0];
    expect(style("A1")).toBe(164);
    expect(style("B1")).toBe(10);
    expect(style("C1")).toBe(165);
    expect(style("A2")).toBe(164);
    expect(d!.cells.get("B2")).toEqual({ v: "1" });
    expect(d!.cells.get("C2")).toEqual({ s: 4 });
    expect(style("C2")).toBe(14);
    expect(style("D2")).toBe(166);
    expect(style("A1", e)).toBe(164);
    expect(d!.cells.get("A2")!.v).toBe("59");
    expect(book.xfs).toEqual([0, 164, 10, 165, 14, 166]);
    expect(Object.fromEntries(book.numFmts)).toEqual({ 164: "yyyy-mm-dd", 165: "yyyy-mm-dd hh:mm:ss", 166: '0.0 "m²"' });
  });

  it("puts each cell at its address, and the used range in <dimension>", async () => {
    const rows: SheetRow[] = [
      [1, [undefined, undefined, { value: "c" }]],
      [3, [undefined, { value: 1 }, undefined, { value: null }, { value: 2 }]],
      [27, [undefined, undefined, undefined, { value: null, formula: "E4" }]],
    ];
    const [used, single, empty, blank] = (
      await readWritten(
        await write({
          sheets: [sheet("U", rows), sheet("One", [[0, [{ value: 1 }]]]), sheet("None", []), sheet("Blank", [[2, [{ value: null }]]])],
        }),
      )
    ).sheets;
    expect([...used!.cells.keys()]).toEqual(["C2", "B4", "E4", "D28"]);
    expect(used!.rowNumbers).toEqual([2, 4, 28]);
    expect(used!.dimension).toBe("B2:E28");
    expect(single!.dimension).toBe("A1");
    expect(empty!.dimension).toBe("A1");
    expect(empty!.cells.size).toBe(0);
    expect(blank!.cells.size).toBe(0);
  });

  it("writes texts inline once the shared-strings table is full, with the same values", async () => {
    const row: Cell[] = [{ value: "a" }, { value: " padded " }, { value: "a" }, { value: "b & c" }, { value: " padded " }];
    const mixed = await readWritten(await write({ sheets: [sheet("I", [[0, row]])] }, 2));
    expect([...mixed.sheets[0]!.cells.values()].map((c) => [c.t, c.text])).toEqual([
      ["s", "a"],
      ["s", " padded "],
      ["s", "a"],
      ["inlineStr", "b & c"],
      ["s", " padded "],
    ]);
    expect(mixed.parts.get("xl/sharedStrings.xml")).toContain('count="4" uniqueCount="2"');
    expect(mixed.parts.get("xl/worksheets/sheet1.xml")).toContain("<is><t>b &amp; c</t></is>");
    const inline = await readWritten(await write({ sheets: [sheet("I", [[0, row]])] }, 0));
    expect([...inline.sheets[0]!.cells.values()].map((c) => [c.t, c.text])).toEqual(row.map((c) => ["inlineStr", c.value]));
    expect(inline.parts.get("xl/worksheets/sheet1.xml")).toContain('<is><t xml:space="preserve"> padded </t></is>');
  });
});

describe("text", () => {
  it("escapes markup, keeps tabs, line breaks, CR and leading spaces, and keeps a literal _xHHHH_ literal", async () => {
    const texts = [
      "<b>&amp; \"quoted\" 'single'</b>",
      "line 1\nline 2\r\nline 3\rend",
      "\tindented",
      "  spaced  ",
      "_x0041_ and _x005F_",
      "]]>",
      "émoji 📈 𝄞",
    ];
    const book = await readWritten(await write({ sheets: [sheet("X", [[0, texts.map((value) => ({ value }))]])] }));
    expect([...book.sheets[0]!.cells.values()].map((c) => c.text)).toEqual(texts);
    const sst = book.parts.get("xl/sharedStrings.xml")!;
    expect(sst).toContain('<t xml:space="preserve">  spaced  </t>');
    expect(sst).toContain("<t>_x005F_x0041_ and _x005F_x005F_</t>");
    expect(sst).toContain("line 2&#13;\nline 3&#13;end");
  });

  it("drops the characters XML 1.0 forbids, from texts, formulas, sheet names and the title", async () => {
    const bad = "a\u0000b\u0007c\u000bd\u001fe\ufffef\uffff g\ud800h\udc00i";
    const rows: SheetRow[] = [[0, [{ value: bad }, { value: bad, formula: `"${bad}"` }]]];
    const xlsx = await writeXlsx({ sheets: [sheet(`N\u0001ame`, rows)] }, { title: `T\u0002itle`, modified: at });
    const book = await readWritten(xlsx);
    const cells = book.sheets[0]!.cells;
    expect(cells.get("A1")!.text).toBe("abcdef ghi");
    expect(cells.get("B1")).toMatchObject({ f: '"abcdef ghi"', text: "abcdef ghi" });
    expect(book.sheets[0]!.name).toBe("Name");
    expect(book.title).toBe("Title");
  });

  it("writes a cell of 32,767 characters, and refuses one longer", async () => {
    const longest = "x".repeat(MAX_CELL_TEXT - 1) + "é";
    const book = await readWritten(await write({ sheets: [sheet("L", [[0, [{ value: longest }]]])] }));
    expect(book.sheets[0]!.cells.get("A1")!.text).toBe(longest);
    await expect(write({ sheets: [sheet("L", [[0, [{ value: longest + "y" }]]])] })).rejects.toThrow(/A1 holds 32768 characters/);
  });

  it("refuses rows out of order, repeated, or past the sheet's limits", async () => {
    const cell = { value: 1 };
    await expect(
      write({
        sheets: [
          sheet("R", [
            [2, [cell]],
            [1, [cell]],
          ]),
        ],
      }),
    ).rejects.toThrow(/row 1 out of order/);
    await expect(
      write({
        sheets: [
          sheet("R", [
            [2, [cell]],
            [2, [cell]],
          ]),
        ],
      }),
    ).rejects.toThrow(/out of order/);
    await expect(write({ sheets: [sheet("R", [[1_048_576, [cell]]])] })).rejects.toThrow(/past 1048576/);
    const wide = Array.from({ length: 16_385 }, () => cell);
    await expect(write({ sheets: [sheet("R", [[0, wide]])] })).rejects.toThrow(/16385 columns/);
  });
});

describe("a large sheet", () => {
  it("streams 30,000 rows through several deflate batches, every cell in place", async () => {
    const rows = function* (): Generator<SheetRow> {
      for (let r = 0; r < 30_000; r++) yield [r, [{ value: r }, { value: `naïve ${r % 500} 𝄞` }, { value: r / 7, numFmt: "0.00" }]];
    };
    const book = await readWritten(await write({ sheets: [{ name: "Big", rows }] }));
    const { cells, dimension } = book.sheets[0]!;
    expect(dimension).toBe("A1:C30000");
    expect(cells.size).toBe(90_000);
    for (const r of [0, 1, 12_345, 29_999]) {
      expect(Number(cells.get(`A${r + 1}`)!.v)).toBe(r);
      expect(cells.get(`B${r + 1}`)!.text).toBe(`naïve ${r % 500} 𝄞`);
      expect(Number(cells.get(`C${r + 1}`)!.v)).toBe(r / 7);
    }
    expect(book.parts.get("xl/sharedStrings.xml")).toContain('count="30000" uniqueCount="500"');
  });
});
