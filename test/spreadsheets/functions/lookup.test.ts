// Lookup & Reference: the results Microsoft's function pages give, then edge and error cases.
import { describe, expect, it } from "vitest";
import { result, workbook } from "./results.ts";

const NA = { error: "#N/A" };
const REF = { error: "#REF!" };
const VALUE = { error: "#VALUE!" };

describe("LOOKUP", () => {
  // Microsoft's example: frequencies in A2:A6 (sorted), colours in B2:B6.
  const wb = workbook([
    ["Frequency", "Color"],
    [4.14, "red"],
    [4.19, "orange"],
    [5.17, "yellow"],
    [5.77, "green"],
    [6.39, "blue"],
    [null, null],
    ["x", 1],
    [null, 2],
    ["x", 3],
    [null, 4],
  ]);
  it.each([
    ["=LOOKUP(4.19,A2:A6,B2:B6)", "orange"],
    ["=LOOKUP(5.75,A2:A6,B2:B6)", "yellow"],
    ["=LOOKUP(7.66,A2:A6,B2:B6)", "blue"],
    ["=LOOKUP(0,A2:A6,B2:B6)", NA],
    ['=LOOKUP("C",{"a","b","c","d";1,2,3,4})', 3],
    ['=LOOKUP("bump",{"a",1;"b",2;"c",3})', 2],
    ["=LOOKUP(5,A2:A6)", 4.19],
    // The last match: errors in the vector are skipped by the binary search.
    ['=LOOKUP(2,1/(A8:A11="x"),B8:B11)', 3],
    // A shorter result vector is read on past its end, in its own direction.
    ["=LOOKUP(6.39,A2:A6,C2:C3)", null],
  ])("%s is %j", (formula, expected) => expect(result(wb, formula)).toEqual(expected === null ? 0 : expected));
});

describe("MATCH, XMATCH", () => {
  const wb = workbook([
    ["Product", "Count"],
    ["Bananas", 25],
    ["Oranges", 38],
    ["Apples", 40],
    ["Pears", 41],
  ]);
  it.each([
    ["=MATCH(39,B2:B5,1)", 2],
    ["=MATCH(41,B2:B5,0)", 4],
    ["=MATCH(40,B2:B5,-1)", NA],
    ['=MATCH("app*",A2:A5,0)', 3],
    ['=MATCH("?ears",A2:A5,0)', 4],
    ['=MATCH("Pears",A2:B5,0)', NA],
    ["=MATCH(4,{5,4,3,2,1},-1)", 2],
    ["=XMATCH(4,{5,4,3,2,1})", 2],
    ["=XMATCH(4.5,{5,4,3,2,1},1)", 1],
    ["=XMATCH(4.5,{5,4,3,2,1},-1)", 2],
    ['=XMATCH("gra",{"Apple","Grape","Pear","Banana","Cherry"},1)', 2],
    ['=XMATCH("*an*",A2:A5,2)', 1],
    ['=XMATCH("*an*",A2:A5,2,-1)', 2],
    ["=XMATCH(40,B2:B5,0,2)", 3],
    ["=XMATCH(39,B2:B5,1,2)", 3],
    ["=XMATCH(39,B2:B5,-1,2)", 2],
    ["=XMATCH(39,{41,40,38,25},1,-2)", 2],
    ["=XMATCH(39,{41,40,38,25},-1,-2)", 3],
    ["=XMATCH(1,B2:B5,3)", VALUE],
    ["=XMATCH(1,A2:B5)", VALUE],
  ])("%s is %j", (formula, expected) => expect(result(wb, formula)).toEqual(expected));

  it("lift over an array of values, as Excel 365 does", () => {
    expect(result(wb, "=MATCH({38,41,7},B2:B5,0)")).toEqual([[2, 4, NA]]);
  });
});

describe("XLOOKUP", () => {
  const wb = workbook([
    ["Country", "Code", "Bracket", "Rate"],
    ["China", 86, 0, 0.1],
    ["India", 91, 9701, 0.22],
    ["Brazil", 55, 39476, 0.24],
    ["Chile", 56, 84201, 0.32],
    ["India", 911, 160726, 0.35],
    [null, null, 204101, 0.37],
  ]);
  it.each([
    ['=XLOOKUP("Brazil",A2:A6,B2:B6)', 55],
    ['=XLOOKUP("Peru",A2:A6,B2:B6)', NA],
    // An omitted if_not_found is #N/A, not an empty value; one given is the answer.
    ['=XLOOKUP("Peru",A2:A6,B2:B6,)', NA],
    ['=XLOOKUP("Peru",A2:A6,B2:B6,"not found")', "not found"],
    ['=XLOOKUP("Peru",A2:A6,B2:B6,,0)', NA],
    ['=XLOOKUP("India",A2:A6,B2:B6,,0,-1)', 911],
    ['=XLOOKUP("ch*",A2:A6,B2:B6,,2)', 86],
    ['=XLOOKUP("ch*",A2:A6,B2:B6,,2,-1)', 56],
    ['=XLOOKUP("ch*",A2:A6,B2:B6)', NA],
    ["=XLOOKUP(46523,C2:C7,D2:D7,0,-1)", 0.24],
    ["=XLOOKUP(46523,C2:C7,D2:D7,0,1)", 0.32],
    ["=XLOOKUP(46523,C2:C7,D2:D7,0,-1,2)", 0.24],
    ["=XLOOKUP(46523,C2:C7,D2:D7,0,1,2)", 0.32],
    ["=XLOOKUP(84201,C2:C7,D2:D7,,0,2)", 0.32],
    ["=XLOOKUP(1,C2:C7,D2:D7,,0,2)", NA],
    ["=XLOOKUP(999999,C2:C7,D2:D7,,1)", NA],
    ["=XLOOKUP(9701,C2:C7,A2:A6)", VALUE],
    ["=XLOOKUP(1,C2:C7,D2:D7,,5)", VALUE],
    ["=XLOOKUP(1,C2:C7,D2:D7,,0,3)", VALUE],
  ])("%s is %j", (formula, expected) => expect(result(wb, formula)).toEqual(expected));

  it("returns a whole row of a wider return array, and lifts over several lookup values", () => {
    expect(result(wb, '=XLOOKUP("Chile",A2:A6,B2:D6)')).toEqual([[56, 84201, 0.32]]);
    expect(result(wb, '=XLOOKUP({"Chile";"Peru";"China"},A2:A6,B2:B6,"-")')).toEqual([[56], ["-"], [86]]);
  });
});

describe("VLOOKUP, HLOOKUP", () => {
  const wb = workbook([
    ["Density", "Viscosity", "Temperature"],
    [0.457, 3.55, 500],
    [0.525, 3.25, 400],
    [0.606, 2.93, 300],
    [0.675, 2.75, 250],
    [0.746, 2.57, 200],
    [0.835, 2.38, 150],
    [0.946, 2.17, 100],
    [1.09, 1.95, 50],
    [1.29, 1.71, 0],
  ]);
  it.each([
    ["=VLOOKUP(1,A2:C10,2)", 2.17],
    ["=VLOOKUP(1,A2:C10,3,TRUE)", 100],
    ["=VLOOKUP(0.7,A2:C10,3,FALSE)", NA],
    ["=VLOOKUP(0.1,A2:C10,2,TRUE)", NA],
    ["=VLOOKUP(2,A2:C10,2,TRUE)", 1.71],
    ["=VLOOKUP(0.746,A2:C10,3,)", 200],
    ["=VLOOKUP(1,A2:C10,0)", VALUE],
    ["=VLOOKUP(1,A2:C10,4)", REF],
    // Headers not in order: an approximate search goes where its binary search lands, as in Excel.
    ['=HLOOKUP("Viscosity",A1:C4,2,FALSE)', 3.55],
    ['=HLOOKUP("Viscosity",A1:C4,2,TRUE)', 500],
  ])("%s is %j", (formula, expected) => expect(result(wb, formula)).toEqual(expected));

  // Microsoft's HLOOKUP example.
  const axles = workbook([
    ["Axles", "Bearings", "Bolts"],
    [4, 4, 9],
    [5, 7, 10],
    [6, 8, 11],
  ]);
  it.each([
    ['=HLOOKUP("Axles",A1:C4,2,TRUE)', 4],
    ['=HLOOKUP("Bearings",A1:C4,3,FALSE)', 7],
    ['=HLOOKUP("B",A1:C4,3,TRUE)', 5],
    ['=HLOOKUP("Bolts",A1:C4,4)', 11],
    ['=HLOOKUP(3,{1,2,3;"a","b","c";"d","e","f"},2,TRUE)', "c"],
    ['=HLOOKUP("B*",A1:C4,2,FALSE)', 4],
  ])("%s is %j", (formula, expected) => expect(result(axles, formula)).toEqual(expected));
});

describe("INDEX, ROW(S), COLUMN(S), AREAS, ADDRESS", () => {
  const wb = workbook([
    ["Data", "Data"],
    ["Apples", "Lemons"],
    ["Bananas", "Pears"],
    [null, null],
    ["Fruit", "Count"],
    ["Apples", 3],
    ["Oranges", 5],
  ]);
  it.each([
    ["=INDEX(A2:B3,2,2)", "Pears"],
    ["=INDEX(A2:B3,2,1)", "Bananas"],
    ["=INDEX({1,2;3,4},2,2)", 4],
    ["=INDEX({1,2,3},2)", 2],
    ["=INDEX((A1:B3,A5:B7),2,2,2)", 3],
    ["=INDEX((A1:B3,A5:B7),1,1,3)", REF],
    ["=INDEX(A2:B3,-1,1)", VALUE],
    ["=INDEX(A2:B3,3,1)", REF],
    ["=INDEX(A2:B3,1,3)", REF],
    ["=SUM(B6:INDEX(B6:B7,2))", 8],
    ["=ROWS(A2:INDEX(A:A,5))", 4],
    ["=ROW()", 1000],
    ["=ROW(C10)", 10],
    ["=COLUMN(D1)", 4],
    ["=COLUMNS({1,2,3;4,5,6})", 3],
    ["=ROWS(C1:E4)", 4],
    ["=AREAS(B2:D4)", 1],
    ["=AREAS((B2:D4,E5,F6:I9))", 3],
    ["=AREAS(B2:D4 B2)", 1],
    ["=ADDRESS(2,3)", "$C$2"],
    ["=ADDRESS(2,3,2)", "C$2"],
    ["=ADDRESS(2,3,2,FALSE)", "R2C[3]"],
    ['=ADDRESS(2,3,1,FALSE,"[Book1]Sheet1")', "'[Book1]Sheet1'!R2C3"],
    ['=ADDRESS(2,3,1,FALSE,"EXCEL SHEET")', "'EXCEL SHEET'!R2C3"],
    ["=ADDRESS(0,1)", VALUE],
    ['=GETPIVOTDATA("Sales",A1)', REF],
  ])("%s is %j", (formula, expected) => expect(result(wb, formula)).toEqual(expected));

  it("spill a row or column of INDEX, and ROW/COLUMN of a range", () => {
    expect(result(wb, "=INDEX({1,2;3,4},0,2)")).toEqual([[2], [4]]);
    expect(result(wb, "=INDEX(A6:B7,2,0)")).toEqual([["Oranges", 5]]);
    expect(result(wb, "=ROW(A3:A5)")).toEqual([[3], [4], [5]]);
    expect(result(wb, "=COLUMN(B1:D1)")).toEqual([[2, 3, 4]]);
    expect(result(wb, "=INDEX(A6:A7,{2,1})")).toEqual([["Oranges", "Apples"]]);
  });
});

describe("INDIRECT, OFFSET", () => {
  // Microsoft's INDIRECT example in A1:B5, its OFFSET example's data in B6:C8.
  const wb = workbook([
    ["Data", "Data"],
    ["B2", 1.333],
    ["B3", 45],
    ["George", 10],
    [5, 62],
    [null, 4, 10],
    [null, 8, 3],
    [null, 3, 6],
  ]);
  wb.defineName({ name: "George", formula: "S!$B$4" });
  it.each([
    ["=INDIRECT(A2)", 1.333],
    ["=INDIRECT(A3)", 45],
    ["=INDIRECT(A4)", 10],
    ['=INDIRECT("B"&A5)', 62],
    ['=INDIRECT("R5C2",FALSE)', 62],
    ['=INDIRECT("R[-995]C[-25]",FALSE)', 62],
    ['=SUM(INDIRECT("B2:B5"))', 118.333],
    ['=INDIRECT("S!B2")', 1.333],
    ['=INDIRECT("[Other.xlsx]Sheet1!A1")', REF],
    ['=INDIRECT("Nowhere!A1")', REF],
    ['=INDIRECT("not a ref")', REF],
    ["=OFFSET(D3,3,-2,1,1)", 4],
    ["=SUM(OFFSET(D3:F5,3,-2,3,3))", 34],
    ["=OFFSET(D3,-3,-3)", REF],
    ["=OFFSET(C8,0,0,-3,1)", [[10], [3], [6]]],
    ["=SUM(OFFSET(C8,0,0,-3,1))", 19],
    ["=ROWS(OFFSET(A1,1,1,5,2))", 5],
    ["=OFFSET(A1,0,0,0,1)", REF],
    ["=OFFSET(1,0,0)", VALUE],
  ])("%s is %j", (formula, expected) => expect(result(wb, formula)).toEqual(expected));

  it("are recomputed on every write, reading what they reach then", () => {
    wb.write("S!D1", [['=INDIRECT("A"&E1)']]);
    expect(wb.read("S!D1").values).toEqual([[{ error: "#REF!" }]]);
    wb.write("S!E1", [[3]]);
    expect(wb.read("S!D1").values).toEqual([["B3"]]);
    wb.write("S!A3", [["changed"]]);
    expect(wb.read("S!D1").values).toEqual([["changed"]]);
    // Unrelated writes recompute them too (volatile, as in Excel).
    expect(wb.write("S!Z1", [[1]]).recalculatedCells).toBeGreaterThanOrEqual(1);
  });
});

describe("CHOOSE, HYPERLINK", () => {
  const wb = workbook([[1, 2, 3]]);
  it.each([
    ['=CHOOSE(2,"1st","2nd","3rd")', "2nd"],
    ["=SUM(CHOOSE(2,A1,A1:B1,A1:C1))", 3],
    ["=CHOOSE(4,1,2,3)", VALUE],
    ['=HYPERLINK("mailto:a@example.com","Write")', "Write"],
    ['=HYPERLINK(A1&"")', VALUE],
    ['=HYPERLINK("https://example.com")', "https://example.com"],
  ])("%s is %j", (formula, expected) => expect(result(wb, formula)).toEqual(expected));

  it("CHOOSE with an array of indexes chooses per element", () => {
    expect(result(wb, '=CHOOSE({1,2,1},"a","b")')).toEqual([["a", "b", "a"]]);
  });
});
