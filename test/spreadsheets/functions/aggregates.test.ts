// SUBTOTAL, AGGREGATE and the matrix functions: Microsoft's examples, nested subtotals skipped,
// AGGREGATE's error-skipping options, and what the model lacks (hidden rows: 1xx codes compute as
// the plain ones, since nothing can be hidden).
import { describe, expect, it } from "vitest";
import { Workbook } from "../../../src/spreadsheets/workbook/workbook.ts";
import { near } from "./book.ts";

const { workbook } = Workbook.create(
  [
    {
      name: "S",
      values: [
        [120, "#DIV/0!", 82, 1, 3],
        [10, 72, 65, 2, 4],
        [150, 30, 95, null, null],
        [23, "=SUBTOTAL(9,A1:A4)", 63, 3, 1],
        ["=SUBTOTAL(9,A1:A4)", 65, 40, "x", 2],
        ["=AGGREGATE(9,0,A1:A5)", null, 35, null, null],
      ],
    },
  ],
  "parse",
);
const R = (f: string) => workbook.evaluate(`=${f}`, { sheet: "S" });

describe("SUBTOTAL", () => {
  it.each<[string, number | string]>([
    ["SUBTOTAL(9,A1:A4)", 303],
    ["SUBTOTAL(1,A1:A4)", 75.75],
    ["SUBTOTAL(9,A1:A6)", 303],
    ["SUBTOTAL(109,A1:A6)", 303],
    ["SUBTOTAL(2,A1:A6)", 4],
    ["SUBTOTAL(3,A1:A6)", 4],
    ["SUBTOTAL(4,A1:A6)", 150],
    ["SUBTOTAL(5,A1:A6)", 10],
    ["SUBTOTAL(6,D1:D4)", 6],
    ["SUBTOTAL(7,D1:D4)", 1],
    ["SUBTOTAL(8,D1:D4)", 0.816496581],
    ["SUBTOTAL(10,D1:D4)", 1],
    ["SUBTOTAL(11,D1:D4)", 0.666666667],
    ["SUBTOTAL(9,A1:A2,D1:D2)", 133],
    ["SUBTOTAL(9,B1:B3)", "#DIV/0!"],
    ["SUBTOTAL(2,B1:B3)", 2],
    ["SUBTOTAL(3,B1:B3)", 3],
    ["SUBTOTAL(12,A1:A4)", "#VALUE!"],
    ["SUBTOTAL(9,{1,2})", "#VALUE!"],
    ["SUBTOTAL(4,D3)", 0],
    ["SUBTOTAL(1,D3)", "#DIV/0!"],
  ])("=%s is %s", (f, e) => near(R(f), e));
});

describe("AGGREGATE", () => {
  it.each<[string, number | string]>([
    // Microsoft's page: its column A holds #DIV/0! and the others numbers; these are the same rules.
    ["AGGREGATE(4,3,B1:B5)", 72],
    ["AGGREGATE(4,6,B1:B5)", 303],
    ["AGGREGATE(14,3,B1:B5,3)", 30],
    ["AGGREGATE(14,6,B1:B5,3)", 65],
    ["AGGREGATE(15,6,B1:B5)", "#VALUE!"],
    ["AGGREGATE(12,6,B1:B5,C1:C5)", 65],
    ["AGGREGATE(12,6,B1:B5)", 68.5],
    ["AGGREGATE(9,4,B1:B5)", "#DIV/0!"],
    ["AGGREGATE(9,0,A1:A6)", 303],
    ["AGGREGATE(9,4,A1:A6)", 909],
    ["AGGREGATE(9,6,A1:A6)", 909],
    ["AGGREGATE(9,3,A1:A6)", 303],
    ["AGGREGATE(14,6,A1:A4/(A1:A4>20),2)", 120],
    ["AGGREGATE(15,6,A1:A4/(A1:A4>20),1)", 23],
    ["AGGREGATE(16,0,C1:C6,0.5)", 64],
    ["AGGREGATE(17,0,C1:C6,1)", 45.75],
    ["AGGREGATE(19,0,C1:C6,1)", 38.75],
    ["AGGREGATE(13,0,{1,2,2,3})", 2],
    ["AGGREGATE(20,0,A1:A4)", "#VALUE!"],
    ["AGGREGATE(9,8,A1:A4)", "#VALUE!"],
    ["AGGREGATE(14,6,B1:B2,5)", "#NUM!"],
  ])("=%s is %s", (f, e) => near(R(f), e));
});

describe("matrix functions: Microsoft's examples", () => {
  it.each<[string, number | string]>([
    ["INDEX(MMULT({1,3;7,2},{2,0;0,2}),1,1)", 2],
    ["INDEX(MMULT({1,3;7,2},{2,0;0,2}),2,2)", 4],
    ["INDEX(MMULT({1,3;7,2},{2,0;0,2}),2,1)", 14],
    ["MMULT({1,2},{1,2})", "#VALUE!"],
    ["MMULT(A1:A2,D1:D2)", "#VALUE!"],
    ["MDETERM({1,3,8,5;1,3,6,1;1,1,1,0;7,3,10,2})", 88],
    ["MDETERM({3,6,1;1,1,0;3,10,2})", 1],
    ["MDETERM({3,6;1,1})", -3],
    ["MDETERM({1,3,8,5;1,3,6,1})", "#VALUE!"],
    ["MDETERM({1,2;2,4})", 0],
    ["INDEX(MINVERSE({4,-1;2,0}),1,2)", 0.5],
    ["INDEX(MINVERSE({4,-1;2,0}),2,1)", -1],
    ["INDEX(MINVERSE({4,-1;2,0}),2,2)", 2],
    ["INDEX(MINVERSE({1,2,1;3,4,-1;0,2,0}),1,1)", 0.25],
    ["INDEX(MINVERSE({1,2,1;3,4,-1;0,2,0}),2,3)", 0.5],
    ["INDEX(MINVERSE({1,2,1;3,4,-1;0,2,0}),3,1)", 0.75],
    ["MINVERSE({1,2;2,4})", "#NUM!"],
    ["MINVERSE(D1:E3)", "#VALUE!"],
    ["INDEX(MUNIT(3),2,2)", 1],
    ["INDEX(MUNIT(3),2,3)", 0],
    ["MUNIT(0)", "#VALUE!"],
  ])("=%s is %s", (f, e) => near(R(f), e));

  it("gives whole arrays", () => {
    expect(R("SUM(MUNIT(4))")).toBe(4);
    expect(R("ROWS(MINVERSE({4,-1;2,0}))")).toBe(2);
  });
});
