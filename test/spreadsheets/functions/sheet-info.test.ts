// ISFORMULA, FORMULATEXT, SHEET, SHEETS and CELL: what they read from the workbook rather than
// from values (Microsoft's examples, with the model's two sheets).
import { describe, it } from "vitest";
import { Workbook } from "../../../src/spreadsheets/workbook/workbook.ts";
import { near } from "./book.ts";

const { workbook } = Workbook.create(
  [
    { name: "S", values: [[1, "=A1*2", "text", null]] },
    { name: "Other", values: [[5]] },
  ],
  "parse",
);
const F = (f: string) => workbook.evaluate(`=${f}`, { sheet: "S" });

describe("sheet and cell information", () => {
  it.each<[string, number | string | boolean]>([
    ["ISFORMULA(B1)", true],
    ["ISFORMULA(A1)", false],
    ["ISFORMULA(1)", "#VALUE!"],
    ["FORMULATEXT(B1)", "=A1*2"],
    ["FORMULATEXT(A1)", "#N/A"],
    ["SHEET()", 1],
    ["SHEET(Other!A1)", 2],
    ['SHEET("Other")', 2],
    ['SHEET("Nope")', "#N/A"],
    ["SHEETS()", 2],
    ["SHEETS(S:Other!A1)", 2],
    ["SHEETS(A1)", 1],
    ['CELL("address",B1)', "$B$1"],
    ['CELL("row",C1)', 1],
    ['CELL("col",C1)', 3],
    ['CELL("contents",B1)', 2],
    ['CELL("type",C1)', "l"],
    ['CELL("type",D1)', "b"],
    ['CELL("type",A1)', "v"],
    ['CELL("prefix",C1)', "'"],
    ['CELL("width",A1)', "#N/A"],
    ['CELL("nonsense",A1)', "#VALUE!"],
  ])("=%s is %s", (f, e) => near(F(f), e));
});
