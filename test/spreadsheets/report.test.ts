// A workbook's report (src/spreadsheets/report/): what an .xlsx import says the gateway did not do
// as the file's writer did — formula values against the writer's saved values, functions it does
// not compute, names it does not know, links to other workbooks, refused formulas, data tables,
// parts of the package not kept — saved with each version, loaded back, and updated by later writes.
import { describe, expect, it } from "vitest";
import { applyChange, createWorkbook, importWorkbook, loadWorkbook } from "../../src/spreadsheets/pool/jobs.ts";
import type { Saved } from "../../src/spreadsheets/pool/index.ts";
import type { WorkbookWarning } from "../../src/spreadsheets/report/types.ts";
import { decodeReport } from "../../src/spreadsheets/report/codec.ts";
import { decodeRoot } from "../../src/spreadsheets/tiles/stored-manifest.ts";
import { excelLike } from "./report-fixtures.ts";
import { buildXlsx } from "./xlsx-fixtures.ts";

const options = { maxCells: 2_000_000, budget: { maxSteps: 200_000_000, maxMs: 10_000 } };
const byCode = (warnings: WorkbookWarning[], code: string) => warnings.filter((w) => w.code === code);

/** The model again from what a save stored (every blob of the versions so far). */
function reload(...saves: Saved[]) {
  const blobs = new Map(saves.flatMap((saved) => saved.blobs));
  const last = saves[saves.length - 1]!;
  return loadWorkbook({ workbookId: "wb", version: saves.length, rootHash: last.rootHash, blobs: [...blobs] }, options);
}

describe("an .xlsx import's warnings", () => {
  it("compare each formula's value with the writer's and name what is not computed, linked, refused or kept", () => {
    const { saved } = importWorkbook(excelLike(), "xlsx", "Sheet1", "parse", options);
    const warnings = saved.warnings;
    const [differs] = byCode(warnings, "VALUE_DIFFERS");
    // C1 (#NAME? for 42), D1 (0.666… for 0.5) and H1 (D1's dependent); NOW() never differs, E1 has no value saved.
    expect(differs).toMatchObject({ count: 3, checked: 8, cells: ["Data!C1", "Data!D1", "Data!H1"] });
    expect(differs!.differences).toEqual([
      { cell: "Data!C1", formula: "=FOOBAR(A1)", expected: 42, got: { error: "#NAME?" } },
      { cell: "Data!D1", formula: "=A1/3", expected: 0.5, got: 2 / 3 },
      { cell: "Data!H1", formula: "=D1*2", expected: 1, got: 4 / 3 },
    ]);
    expect(byCode(warnings, "UNSUPPORTED_FUNCTION")).toEqual([
      expect.objectContaining({ function: "FOOBAR", count: 1, cells: ["Data!C1"], message: expect.stringContaining("#NAME?") }),
    ]);
    expect(byCode(warnings, "NOT_CHECKED")).toEqual([expect.objectContaining({ count: 1, cells: ["Data!E1"] })]);
    expect(byCode(warnings, "EXTERNAL_LINK")).toEqual([
      expect.objectContaining({ count: 1, cells: ["Data!F1"], links: ["[1] file:///C:/Data/Prices.xlsx"] }),
    ]);
    expect(byCode(warnings, "FORMULA_REFUSED")).toEqual([expect.objectContaining({ count: 1, cells: ["Data!I1"] })]);
    // The array (CSE) formula is computed over its whole range: nothing to say of it (ARRAY_FORMULA is gone).
    expect(warnings.some((w) => (w.code as string) === "ARRAY_FORMULA")).toBe(false);
    expect(byCode(warnings, "DATA_TABLE")).toEqual([expect.objectContaining({ count: 1, cells: ["Data!B2:B3"] })]);
    expect(byCode(warnings, "NOT_KEPT").map((w) => [w.feature, w.count])).toEqual([
      ["charts", 1],
      ["mergedCells", 1],
      ["conditionalFormatting", 1],
    ]);
    // Formulas linking another workbook or refused are not stored: their cells keep the values the file saved.
    const model = reload(saved);
    expect(model.workbook.read("Data!F1:I1", { render: "formula" }).values).toEqual([[10, "=NOW()", "=D1*2", "fetched"]]);
    // A3 is the array formula's second value, not the file's constant: it follows A1.
    expect(model.workbook.read("Data!A2:A3").values).toEqual([[2], [4]]);
    model.workbook.write("Data!A1", [[5]]);
    expect(model.workbook.read("Data!A2:A3").values).toEqual([[5], [10]]);
  });

  it("name only the names the workbook does not define (an .xlsx's defined names are computed)", () => {
    const xlsx = buildXlsx({
      sheets: [
        {
          name: "Data",
          data: `<row r="1"><c r="A1"><v>4</v></c><c r="B1"><f>Rate*2</f><v>8</v></c><c r="C1"><f>Missing*2</f><v>6</v></c></row>`,
        },
      ],
      workbookExtra: `<definedNames><definedName name="Rate">Data!$A$1</definedName></definedNames>`,
    });
    const { saved } = importWorkbook(xlsx, "xlsx", "Sheet1", "parse", options);
    expect(byCode(saved.warnings, "UNKNOWN_NAME")).toEqual([expect.objectContaining({ name: "MISSING", count: 1, cells: ["Data!C1"] })]);
    expect(byCode(saved.warnings, "VALUE_DIFFERS")).toEqual([expect.objectContaining({ count: 1, cells: ["Data!C1"], checked: 2 })]);
  });

  it("stored with a code this build no longer gives are read without it", () => {
    const warning = (code: string) => ({ code, message: code, count: 1, cells: ["Data!A2:A3"] });
    const stored = { format: 1, warnings: [warning("ARRAY_FORMULA"), warning("DATA_TABLE")], facts: [warning("ARRAY_FORMULA")] };
    const report = decodeReport(new TextEncoder().encode(JSON.stringify({ ...stored, checked: 0, untracked: 0, distrusted: [] })));
    expect(report.warnings.map((w) => w.code)).toEqual(["DATA_TABLE"]);
    expect(report.facts).toEqual([]);
  });

  it("are saved with the version, loaded back, and updated by writes that replace the formulas", () => {
    const imported = importWorkbook(excelLike(), "xlsx", "Sheet1", "parse", options).saved;
    const root = decodeRoot(imported.blobs[0]![1]);
    expect(root.report).toEqual(expect.any(String));
    const model = reload(imported);
    // D1 made to compute what the writer saved: D1 and its dependent H1 agree now, and are no longer listed.
    const fixed = applyChange(model, { kind: "write", range: "Data!D1", values: [["=A1/4"]], input: "parse" }, options);
    expect(byCode(fixed.warnings, "VALUE_DIFFERS")[0]).toMatchObject({ count: 1, cells: ["Data!C1"] });
    // C1's unknown function replaced: no UNSUPPORTED_FUNCTION, and C1 is the user's now, not the writer's.
    const again = reload(imported, fixed);
    const replaced = applyChange(again, { kind: "write", range: "Data!C1", values: [["=A1*21"]], input: "parse" }, options);
    expect(byCode(replaced.warnings, "UNSUPPORTED_FUNCTION")).toEqual([]);
    expect(byCode(replaced.warnings, "VALUE_DIFFERS")).toEqual([]);
    // What the file had and the workbook does not keep stays said.
    expect(byCode(replaced.warnings, "NOT_KEPT")).toHaveLength(3);
    expect(byCode(replaced.warnings, "EXTERNAL_LINK")).toHaveLength(1);
  });

  it("follow formulas through structure edits, and a workbook without anything to say stores no report", () => {
    const { saved } = importWorkbook(excelLike(), "xlsx", "Sheet1", "parse", options);
    const moved = applyChange(
      reload(saved),
      { kind: "edit", operations: [{ insertColumns: { sheet: "Data", at: "A", count: 1 } }] },
      options,
    );
    expect(byCode(moved.warnings, "VALUE_DIFFERS")[0]!.cells).toEqual(["Data!D1", "Data!E1", "Data!I1"]);
    expect(byCode(moved.warnings, "UNSUPPORTED_FUNCTION")[0]!.cells).toEqual(["Data!D1"]);
    const plain = createWorkbook([{ name: "S", values: [[1, "=A1*2"]] }], "parse", options).saved;
    expect(plain.warnings).toEqual([]);
    expect(decodeRoot(plain.blobs[0]![1]).report).toBeUndefined();
  });

  it("name the functions a created workbook's formulas call that the gateway does not compute, grouped, largest first", () => {
    const values = [["=NOPE(1)", "=NOPE(2)", "=ZILCH(1)+_xlfn.NOPE(3)", "=Rate*2"]];
    const { saved } = createWorkbook([{ name: "S", values }], "parse", options);
    expect(saved.warnings.map((w) => [w.code, w.function ?? w.name, w.count, w.cells])).toEqual([
      ["UNSUPPORTED_FUNCTION", "NOPE", 3, ["S!A1", "S!B1", "S!C1"]],
      ["UNSUPPORTED_FUNCTION", "ZILCH", 1, ["S!C1"]],
      ["UNKNOWN_NAME", "RATE", 1, ["S!D1"]],
    ]);
  });
});

describe("the warnings' bounds", () => {
  it("list the 20 largest groups and the rest as one; follow 5,000 differing cells and count the others", () => {
    const calls = Array.from({ length: 25 }, (_, i) => `=NOPE${String.fromCharCode(65 + i)}(${i})`);
    const created = createWorkbook([{ name: "S", values: [calls, ["=NOPEA(1)"]] }], "parse", options).saved.warnings;
    expect(created).toHaveLength(21);
    expect(created[0]).toMatchObject({ function: "NOPEA", count: 2, cells: ["S!A1", "S!A2"] });
    expect(created[20]).toMatchObject({ code: "UNSUPPORTED_FUNCTION", count: 5, cells: ["S!U1", "S!V1", "S!W1", "S!X1", "S!Y1"] });
    expect(created[20]!.function).toBeUndefined();
    expect(created[20]!.message).toContain("NOPEU, NOPEV, NOPEW, NOPEX, NOPEY");

    let rows = "";
    for (let r = 1; r <= 5_003; r++) rows += `<row r="${r}"><c r="A${r}"><v>${r}</v></c><c r="B${r}"><f>A${r}*2</f><v>${r}</v></c></row>`;
    const { saved } = importWorkbook(buildXlsx({ sheets: [{ name: "Big", data: rows }] }), "xlsx", "Sheet1", "parse", options);
    const [differs] = saved.warnings;
    expect(differs).toMatchObject({ code: "VALUE_DIFFERS", count: 5_003, checked: 5_003 });
    expect(differs!.differences).toHaveLength(10);
    expect(differs!.cells).toEqual(["Big!B1", "Big!B2", "Big!B3", "Big!B4", "Big!B5"]);
    expect(differs!.message).toContain("3 cells past the first 5,000 are counted as at the import");
    const report = decodeReport(saved.blobs.find(([hash]) => hash === decodeRoot(saved.blobs[0]![1]).report)![1]);
    expect(report.distrusted).toHaveLength(5_000);
  });
});

describe("render=raw", () => {
  it("reads the number under a date format, unrounded", () => {
    const { model } = createWorkbook([{ name: "S", values: [["2026-01-31", "2026-01-31", 0.1]] }], "parse", options);
    // A formula written over a date keeps the cell's date format, as in Excel.
    model.workbook.write("S!A1", [["=2/3"]]);
    expect(model.workbook.read("S!A1:C1").values).toEqual([["1899-12-31", "2026-01-31", 0.1]]);
    expect(model.workbook.read("S!A1:C1", { render: "raw" }).values).toEqual([[2 / 3, 46053, 0.1]]);
  });
});
