// Dynamic-array functions: the spills Microsoft's function pages show, then edge and error cases.
import { describe, expect, it } from "vitest";
import { result, workbook } from "./results.ts";

const NA = { error: "#N/A" };
const CALC = { error: "#CALC!" };
const VALUE = { error: "#VALUE!" };

// 1..12 in A1:C4 (three a row), a region/sales table in E1:G7.
const wb = workbook([
  [1, 2, 3, null, "Region", "Rep", "Sales"],
  [4, 5, 6, null, "East", "Tom", 200],
  [7, 8, 9, null, "West", "Fred", 150],
  [10, 11, 12, null, "East", "Amy", 300],
  [null, null, null, null, "North", "Sal", 150],
  [null, null, null, null, "west", "Amy", 50],
  [null, null, null, null, "East", "Fred", 120],
]);

describe("SEQUENCE, TRANSPOSE", () => {
  it.each([
    [
      "=SEQUENCE(2,3)",
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
    ],
    ["=SEQUENCE(3,1,10,-5)", [[10], [5], [0]]],
    ["=SEQUENCE(1,3,0.5,0.25)", [[0.5, 0.75, 1]]],
    ["=SEQUENCE(0)", CALC],
    ["=SEQUENCE(-1)", VALUE],
    ["=SEQUENCE(1048577)", VALUE],
    [
      "=TRANSPOSE(A1:C2)",
      [
        [1, 4],
        [2, 5],
        [3, 6],
      ],
    ],
    ["=TRANSPOSE({1,2,3})", [[1], [2], [3]]],
  ])("%s", (formula, expected) => expect(result(wb, formula)).toEqual(expected));
});

describe("FILTER, SORT, SORTBY, UNIQUE", () => {
  it.each([
    ['=FILTER(F2:F7,E2:E7="East")', [["Tom"], ["Amy"], ["Fred"]]],
    [
      '=FILTER(E2:G7,(E2:E7="East")*(G2:G7>150))',
      [
        ["East", "Tom", 200],
        ["East", "Amy", 300],
      ],
    ],
    ['=FILTER(E2:E7,E2:E7="South")', CALC],
    ['=FILTER(E2:E7,E2:E7="South","none")', "none"],
    [
      "=FILTER(A1:C4,{TRUE,FALSE,TRUE})",
      [
        [1, 3],
        [4, 6],
        [7, 9],
        [10, 12],
      ],
    ],
    ["=FILTER(A1:C4,{1;0})", VALUE],
    ["=SORT({3;1;2})", [[1], [2], [3]]],
    [
      "=SORT(E2:G7,3,-1)",
      [
        ["East", "Amy", 300],
        ["East", "Tom", 200],
        ["West", "Fred", 150],
        ["North", "Sal", 150],
        ["East", "Fred", 120],
        ["west", "Amy", 50],
      ],
    ],
    ["=SORT(F2:F7)", [["Amy"], ["Amy"], ["Fred"], ["Fred"], ["Sal"], ["Tom"]]],
    ["=SORT({3,1,2},1,1,TRUE)", [[1, 2, 3]]],
    [
      "=SORT(E2:G7,{1,3},{1,-1})",
      [
        ["East", "Amy", 300],
        ["East", "Tom", 200],
        ["East", "Fred", 120],
        ["North", "Sal", 150],
        ["West", "Fred", 150],
        ["west", "Amy", 50],
      ],
    ],
    ["=SORT(A1:C4,4)", VALUE],
    ["=SORTBY(F2:F7,G2:G7,-1)", [["Amy"], ["Tom"], ["Fred"], ["Sal"], ["Fred"], ["Amy"]]],
    ["=SORTBY(F2:F7,E2:E7,1,G2:G7,1)", [["Fred"], ["Tom"], ["Amy"], ["Sal"], ["Amy"], ["Fred"]]],
    ["=SORTBY(F2:F7,G2:G5)", VALUE],
    ["=UNIQUE(E2:E7)", [["East"], ["West"], ["North"]]],
    ["=UNIQUE(F2:F7,FALSE,TRUE)", [["Tom"], ["Sal"]]],
    ["=UNIQUE({1,1,2},TRUE)", [[1, 2]]],
    ["=ROWS(UNIQUE(E2:F7))", 6],
    ["=UNIQUE({1;1},,TRUE)", CALC],
  ])("%s", (formula, expected) => expect(result(wb, formula)).toEqual(expected));
});

describe("TAKE, DROP, CHOOSEROWS, CHOOSECOLS, EXPAND", () => {
  it.each([
    [
      "=TAKE(A1:C4,2)",
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
    ],
    [
      "=TAKE(A1:C4,,2)",
      [
        [1, 2],
        [4, 5],
        [7, 8],
        [10, 11],
      ],
    ],
    [
      "=TAKE(A1:C4,-2)",
      [
        [7, 8, 9],
        [10, 11, 12],
      ],
    ],
    ["=TAKE(A1:C4,2,-1)", [[3], [6]]],
    ["=TAKE(A1:C4,0)", CALC],
    [
      "=TAKE(A1:C4,10)",
      [
        [1, 2, 3],
        [4, 5, 6],
        [7, 8, 9],
        [10, 11, 12],
      ],
    ],
    ["=DROP(A1:C3,2)", [[7, 8, 9]]],
    ["=DROP(A1:C3,,2)", [[3], [6], [9]]],
    ["=DROP(A1:C3,-2)", [[1, 2, 3]]],
    ["=DROP(A1:C3,2,2)", 9],
    ["=DROP(A1:C3,3)", CALC],
    [
      "=CHOOSEROWS(A1:C4,1,3,-1)",
      [
        [1, 2, 3],
        [7, 8, 9],
        [10, 11, 12],
      ],
    ],
    [
      "=CHOOSEROWS(A1:C4,{2,1})",
      [
        [4, 5, 6],
        [1, 2, 3],
      ],
    ],
    ["=CHOOSEROWS(A1:C4,5)", VALUE],
    [
      "=CHOOSECOLS(A1:C4,3,1)",
      [
        [3, 1],
        [6, 4],
        [9, 7],
        [12, 10],
      ],
    ],
    ["=CHOOSECOLS(A1:C4,0)", VALUE],
    [
      "=EXPAND({1,2;3,4},3,3)",
      [
        [1, 2, NA],
        [3, 4, NA],
        [NA, NA, NA],
      ],
    ],
    [
      '=EXPAND({1,2;3,4},3,,"-")',
      [
        [1, 2],
        [3, 4],
        ["-", "-"],
      ],
    ],
    ["=EXPAND({1,2;3,4},1)", VALUE],
  ])("%s", (formula, expected) => expect(result(wb, formula)).toEqual(expected));
});

describe("VSTACK, HSTACK, TOCOL, TOROW, WRAPROWS, WRAPCOLS", () => {
  it.each([
    [
      "=VSTACK({1,2},{3,4;5,6})",
      [
        [1, 2],
        [3, 4],
        [5, 6],
      ],
    ],
    [
      "=VSTACK({1,2},{3})",
      [
        [1, 2],
        [3, NA],
      ],
    ],
    [
      "=HSTACK({1;2},{3,4;5,6})",
      [
        [1, 3, 4],
        [2, 5, 6],
      ],
    ],
    [
      "=HSTACK(1,{2;3})",
      [
        [1, 2],
        [NA, 3],
      ],
    ],
    ["=TOCOL({1,2;3,4})", [[1], [2], [3], [4]]],
    ["=TOCOL({1,2;3,4},0,TRUE)", [[1], [3], [2], [4]]],
    ["=TOROW({1,2;3,4})", [[1, 2, 3, 4]]],
    ["=TOCOL(A3:D4,1)", [[7], [8], [9], [10], [11], [12]]],
    ["=TOROW({1,#N/A,3},2)", [[1, 3]]],
    ["=TOCOL({1,2},4)", VALUE],
    [
      "=WRAPROWS({1,2,3,4,5,6,7},3)",
      [
        [1, 2, 3],
        [4, 5, 6],
        [7, NA, NA],
      ],
    ],
    [
      '=WRAPROWS({1,2,3,4,5},2,"x")',
      [
        [1, 2],
        [3, 4],
        [5, "x"],
      ],
    ],
    [
      "=WRAPCOLS({1,2,3,4,5},2)",
      [
        [1, 3, 5],
        [2, 4, NA],
      ],
    ],
    ["=WRAPROWS({1,2;3,4},2)", VALUE],
    ["=WRAPROWS({1,2,3},0)", { error: "#NUM!" }],
  ])("%s", (formula, expected) => expect(result(wb, formula)).toEqual(expected));
});
