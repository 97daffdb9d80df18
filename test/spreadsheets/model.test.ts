import { describe, expect, it } from "vitest";
import { Workbook } from "../../src/spreadsheets/workbook/workbook.ts";
import type { SheetData, WorkbookData } from "../../src/spreadsheets/cells/types.ts";

const create = (values: (string | number | boolean | null)[][], name = "Sheet1") => Workbook.create([{ name, values }]).workbook;

describe("creating and reading", () => {
  it("creates sheets from values parsed as typed, and reads them back", () => {
    const { workbook, result } = Workbook.create([
      {
        name: "Sales",
        values: [
          ["Item", "Qty", "Price", "Total"],
          ["Pen", "2", "1.5", "=B2*C2"],
          ["Ink", 3, 4, "=B3*C3"],
        ],
      },
      { name: "Empty" },
    ]);
    expect(result).toEqual({ updatedRange: null, updatedCells: 12, recalculatedCells: 2, warnings: [] });
    expect(workbook.read("Sales!A1:D3").values).toEqual([
      ["Item", "Qty", "Price", "Total"],
      ["Pen", 2, 1.5, 3],
      ["Ink", 3, 4, 12],
    ]);
    expect(workbook.read("D2:D3", { render: "both" }).values).toEqual([
      [{ value: 3, formula: "=B2*C2" }],
      [{ value: 12, formula: "=B3*C3" }],
    ]);
    expect(workbook.read("Sales!A1:B2").range).toBe("Sales!A1:B2");
    expect(workbook.cells).toBe(12);
    expect(Workbook.create().workbook.describe()).toEqual([
      { name: "Sheet1", index: 0, rows: 0, columns: 0, usedRange: null, header: null },
    ]);
  });

  it("describes sheets: used range, size and a header row when the first row looks like one", () => {
    const { workbook } = Workbook.create([
      { name: "Table", values: [[null], [null, "Name", "Age"], [null, "Ann", 31]] },
      {
        name: "Numbers",
        values: [
          [1, 2],
          [3, 4],
        ],
      },
      { name: "One row", values: [["a", "b"]] },
    ]);
    expect(workbook.describe()).toEqual([
      { name: "Table", index: 0, rows: 3, columns: 3, usedRange: "B2:C3", header: ["Name", "Age"] },
      { name: "Numbers", index: 1, rows: 2, columns: 2, usedRange: "A1:B2", header: null },
      { name: "One row", index: 2, rows: 1, columns: 2, usedRange: "A1:B1", header: null },
    ]);
  });

  it("clips whole columns, rows and open ranges to the used range, and pages by maxCells", () => {
    const rows = Array.from({ length: 25 }, (_, i) => [i + 1, `r${i + 1}`]);
    const workbook = create(rows);
    expect(workbook.read("A:B").range).toBe("Sheet1!A1:B25");
    expect(workbook.read("3:4").values).toEqual([
      [3, "r3"],
      [4, "r4"],
    ]);
    expect(workbook.read("A20:B").values.length).toBe(6);
    expect(workbook.read("A30:B").values).toEqual([]);
    const first = workbook.read("A:B", { maxCells: 20 });
    // The offset counts cells (a page may end inside a row).
    expect(first).toMatchObject({ range: "Sheet1!A1:B10", truncated: true, nextOffset: 20 });
    const second = workbook.read("A:B", { maxCells: 20, offset: 20 });
    expect(second.values[0]).toEqual([11, "r11"]);
    const last = workbook.read("A:B", { maxCells: 20, offset: 40 });
    expect(last).toMatchObject({ range: "Sheet1!A21:B25", truncated: false, nextOffset: null });
    expect(workbook.read("C1:D2").values).toEqual([
      [null, null],
      [null, null],
    ]);
    expect(() => workbook.read("A1", { maxCells: 0 })).toThrow(expect.objectContaining({ code: "BAD_INPUT" }));
    expect(() => workbook.read("Nope!A1")).toThrow(expect.objectContaining({ code: "UNKNOWN_SHEET" }));
  });
});

describe("writes", () => {
  it("write from the range's top-left and refuse a range smaller than the values", () => {
    const workbook = create([[1]]);
    expect(workbook.write("B2:D5", [[1, 2], [3]])).toEqual({
      updatedRange: "Sheet1!B2:C3",
      updatedCells: 3,
      recalculatedCells: 0,
      warnings: [],
    });
    expect(() => workbook.write("A1:B1", [[1, 2, 3]])).toThrow(expect.objectContaining({ code: "BAD_INPUT" }));
    expect(() => workbook.write("A1", [[1], [2]])).toThrow(/do not fit in A1/);
    expect(() => workbook.write("A1", [])).toThrow(expect.objectContaining({ code: "BAD_INPUT" }));
    workbook.write("A1", [[null]]);
    expect(workbook.read("A1:C3").values).toEqual([
      [null, null, null],
      [null, 1, 2],
      [null, 3, null],
    ]);
    workbook.write("A1:A2", [["00123"], ["=1+1"]], { input: "raw" });
    expect(workbook.read("A1:A2").values).toEqual([["00123"], ["=1+1"]]);
  });

  it("recalculate only the cells that depend on a change, and say how many", () => {
    const workbook = create([
      [1, 2],
      ["=A1*10", "=B1*10"],
      ["=A2+1", "=SUM(B1:B2)"],
      ["=A3+A2", null],
    ]);
    expect(workbook.write("A1", [[5]]).recalculatedCells).toBe(3);
    expect(workbook.read("A2:A4").values).toEqual([[50], [51], [101]]);
    expect(workbook.write("B1", [[3]]).recalculatedCells).toBe(2);
    expect(workbook.write("C9", [[3]]).recalculatedCells).toBe(0);
    expect(workbook.read("B3").values).toEqual([[33]]);
  });

  it("recompute TODAY and NOW on every write", () => {
    let now = Date.UTC(2026, 0, 31, 12);
    const { workbook } = Workbook.create([{ name: "S", values: [["=TODAY()", "=A1+1", 0]] }], "parse", { now: () => now });
    expect(workbook.read("A1:B1").values).toEqual([["2026-01-31", "2026-02-01"]]);
    now = Date.UTC(2026, 1, 2, 12);
    expect(workbook.write("C1", [[1]]).recalculatedCells).toBe(2);
    expect(workbook.read("A1:B1").values).toEqual([["2026-02-02", "2026-02-03"]]);
  });

  it("stop a runaway computation with a typed budget error", () => {
    const values = Array.from({ length: 2000 }, (_, i) => [i, `=SUM(A$1:A${i + 1})`]);
    const workbook = create([[0]]);
    expect(() => workbook.write("A1:B2000", values, { budget: { maxSteps: 10_000 } })).toThrow(expect.objectContaining({ code: "BUDGET" }));
  });

  it("count non-empty cells against SHEETS_MAX_CELLS and refuse past it", () => {
    const { workbook } = Workbook.create([{ name: "S", values: [[1, 2, 3]] }], "parse", { maxCells: 5 });
    workbook.write("A2:B2", [[4, 5]]);
    expect(workbook.cells).toBe(5);
    expect(() => workbook.write("C2", [[6]])).toThrow(expect.objectContaining({ code: "LIMIT", details: { limit: "SHEETS_MAX_CELLS" } }));
    expect(() => Workbook.create([{ name: "S", values: [["x".repeat(32_768)]] }])).toThrow(
      expect.objectContaining({ details: { limit: "MAX_CELL_TEXT" } }),
    );
  });

  it("append rows under the last non-empty row, records by header name", () => {
    const workbook = create([
      ["Name", "Age", "City"],
      ["Ann", 31, "Oslo"],
    ]);
    expect(workbook.append({ values: [["Bo", 25, "Rome"]] }).updatedRange).toBe("Sheet1!A3:C3");
    expect(workbook.append({ records: [{ city: "Lima", Name: "Cy" }, { Age: "40" }] }).updatedRange).toBe("Sheet1!A4:C5");
    expect(workbook.read("A:C").values).toEqual([
      ["Name", "Age", "City"],
      ["Ann", 31, "Oslo"],
      ["Bo", 25, "Rome"],
      ["Cy", null, "Lima"],
      [null, 40, null],
    ]);
    expect(() => workbook.append({ records: [{ Salary: 1 }] })).toThrow(/"Salary" is not a column of the header row/);
    const empty = Workbook.create().workbook;
    empty.append({ records: [{ a: 1, b: 2 }] });
    expect(empty.read("A:B").values).toEqual([
      ["a", "b"],
      [1, 2],
    ]);
  });

  it("give formulas that add to a date the date's format", () => {
    const workbook = create([["2026-01-31", "=A1+7", "=A1-1", "=B1*1"]]);
    expect(workbook.read("A1:D1").values).toEqual([["2026-01-31", "2026-02-07", "2026-01-30", 46060]]);
  });
});

describe("structure edits", () => {
  it("insert and delete rows and columns, moving references as Excel does", () => {
    const workbook = create([
      [1, "=A1*2"],
      [2, "=SUM(A1:A3)"],
      [3, "=A3+B1"],
    ]);
    workbook.edit([{ insertRows: { sheet: "Sheet1", at: 2, count: 2 } }]);
    expect(workbook.read("B:B", { render: "formula" }).values).toEqual([["=A1*2"], [null], [null], ["=SUM(A1:A5)"], ["=A5+B1"]]);
    expect(workbook.read("B:B").values).toEqual([[2], [null], [null], [6], [5]]);
    workbook.edit([{ insertColumns: { sheet: "Sheet1", at: "A", count: 1 } }]);
    expect(workbook.read("C5", { render: "formula" }).values).toEqual([["=B5+C1"]]);
    workbook.edit([{ deleteRows: { sheet: "Sheet1", at: 5, count: 1 } }, { deleteColumns: { sheet: "Sheet1", at: "A", count: 1 } }]);
    expect(workbook.read("B:B", { render: "both" }).values).toEqual([
      [{ value: 2, formula: "=A1*2" }],
      [null],
      [null],
      [{ value: 3, formula: "=SUM(A1:A4)" }],
    ]);
  });

  it("turn references to deleted cells into #REF!", () => {
    const workbook = Workbook.create([
      { name: "A", values: [[1, 2, 3]] },
      { name: "B", values: [["=A!B1", "=SUM(A!A1:C1)", "=A!A1"]] },
    ]).workbook;
    workbook.edit([{ deleteColumns: { sheet: "A", at: "B", count: 1 } }]);
    expect(workbook.read("B!A1:C1", { render: "both" }).values).toEqual([
      [
        { value: { error: "#REF!" }, formula: "=#REF!" },
        { value: 4, formula: "=SUM(A!A1:B1)" },
        { value: 1, formula: "=A!A1" },
      ],
    ]);
    workbook.edit([{ deleteSheet: { sheet: "a" } }]);
    expect(workbook.read("B!B1:C1", { render: "formula" }).values).toEqual([["=SUM(#REF!)", "=#REF!"]]);
    expect(workbook.read("B!C1").values).toEqual([[{ error: "#REF!" }]]);
  });

  it("rename, add and delete sheets, with formulas following a renamed sheet", () => {
    const workbook = create([[5]], "Data");
    workbook.edit([{ addSheet: { name: "Report", index: 0 } }, { write: { range: "Report!A1", values: [["=Data!A1*2"]] } }]);
    const result = workbook.edit([{ renameSheet: { sheet: "data", name: "Q1 Sales" } }]);
    expect(result.recalculatedCells).toBe(1);
    expect(workbook.read("A1", { render: "both" }).values).toEqual([[{ value: 10, formula: "='Q1 Sales'!A1*2" }]]);
    expect(workbook.describe().map((s) => s.name)).toEqual(["Report", "Q1 Sales"]);
    expect(() => workbook.edit([{ addSheet: { name: "report" } }])).toThrow(/already exists/);
    expect(() => workbook.edit([{ addSheet: { name: "a/b" } }])).toThrow(expect.objectContaining({ code: "BAD_INPUT" }));
    expect(() => workbook.edit([{ deleteSheet: { sheet: "Nope" } }])).toThrow(expect.objectContaining({ code: "UNKNOWN_SHEET" }));
    workbook.edit([{ deleteSheet: { sheet: "Report" } }]);
    expect(() => workbook.edit([{ deleteSheet: { sheet: "Q1 Sales" } }])).toThrow(/at least one sheet/);
  });

  it("clear ranges and apply writes in order in one edit", () => {
    const workbook = create([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    const result = workbook.edit([
      { clear: { range: "B:B" } },
      { write: { range: "D1", values: [["=SUM(A1:C2)"]] } },
      { clear: { range: "2:2" } },
    ]);
    expect(result.updatedRange).toBe("Sheet1!D1");
    expect(workbook.read("A1:D2").values).toEqual([
      [1, null, 3, 4],
      [null, null, null, null],
    ]);
    expect(() => workbook.edit([])).toThrow(expect.objectContaining({ code: "BAD_INPUT" }));
    expect(() => workbook.edit([{ bogus: {} } as never])).toThrow(expect.objectContaining({ code: "BAD_INPUT" }));
    expect(() => workbook.edit([{ insertRows: { sheet: "Sheet1", at: 1 } } as never])).toThrow(/is not one of addSheet/);
    expect(() => workbook.edit([{ insertRows: { sheet: "Sheet1", at: 0, count: 1 } }])).toThrow(/row number/);
    expect(() => workbook.edit([{ insertColumns: { sheet: "Sheet1", at: "XFE", count: 1 } }])).toThrow(/column letter/);
  });
});

describe("WorkbookData in and out", () => {
  const sheet = (name: string, rows: [number, ({ value: unknown; formula?: string; numFmt?: string } | undefined)[]][]): SheetData =>
    ({ name, rows: () => rows }) as unknown as SheetData;

  it("imports cells and formulas, recomputing formulas rather than trusting cached values", () => {
    const data: WorkbookData = {
      sheets: [
        sheet("In", [
          [0, [{ value: 2 }, { value: 99, formula: "A1*3" }, { value: 45322, numFmt: "d-mmm-yy" }]],
          [2, [{ value: { error: "#N/A" } }, { value: null, formula: '_xlfn.CONCAT("a",A1)' }, { value: 0, formula: "NOPE(1)" }]],
        ]),
      ],
    };
    const { workbook, result } = Workbook.fromData(data);
    expect(result.recalculatedCells).toBe(3);
    expect(result.warnings.join()).toMatch(/NOPE/);
    expect(workbook.read("A1:C3").values).toEqual([
      [2, 6, "2024-01-31"],
      [null, null, null],
      [{ error: "#N/A" }, "a2", { error: "#NAME?" }],
    ]);
  });

  it("exports rows in order with values, formulas and formats", () => {
    const workbook = create([
      ["2026-01-31", "=A1+1"],
      [null, null],
      [1, "=A3/0"],
    ]);
    const rows = [...workbook.toData().sheets[0]!.rows()];
    expect(rows).toEqual([
      [
        0,
        [
          { value: 46053, formula: undefined, numFmt: "yyyy-mm-dd" },
          { value: 46054, formula: "A1+1", numFmt: "yyyy-mm-dd" },
        ],
      ],
      [
        2,
        [
          { value: 1, formula: undefined, numFmt: undefined },
          { value: { error: "#DIV/0!" }, formula: "A3/0", numFmt: undefined },
        ],
      ],
    ]);
  });
});
