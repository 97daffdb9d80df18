// The D-functions on Microsoft's orchard example (criteria rows OR'd, cells of a row AND'd, text
// criteria matching the start of a cell), and MAXIFS/MINIFS.
import { describe, it } from "vitest";
import { near, sheet } from "./book.ts";

const R = sheet([
  ["Tree", "Height", "Age", "Yield", "Profit", "Height"],
  ["=Apple", ">10", null, null, null, "<16"],
  ["=Pear", null, null, null, null, null],
  ["Tree", "Height", "Age", "Yield", "Profit", null],
  ["Apple", 18, 20, 14, 105, null],
  ["Pear", 12, 12, 10, 96, null],
  ["Cherry", 13, 14, 9, 105, null],
  ["Apple", 14, 15, 10, 75, null],
  ["Pear", 9, 8, 8, 76.8, null],
  ["Apple", 8, 9, 6, 45, null],
  ["Tree", null, null, null, null, null],
  ["App", null, null, null, null, null],
]);
const F = (f: string) => R(`=${f}`);

describe("database functions", () => {
  it.each<[string, number | string]>([
    ['DCOUNT(A4:E10,"Age",A1:F2)', 1],
    ['DCOUNTA(A4:E10,"Profit",A1:F2)', 1],
    ['DMAX(A4:E10,"Profit",A1:A3)', 105],
    ['DMIN(A4:E10,"Profit",A1:B2)', 75],
    ['DSUM(A4:E10,"Profit",A1:A2)', 225],
    ['DSUM(A4:E10,"Profit",A1:F2)', 75],
    ['DPRODUCT(A4:E10,"Yield",A1:F2)', 10],
    ['DAVERAGE(A4:E10,"Yield",A1:B2)', 12],
    ["DAVERAGE(A4:E10,3,A4:E10)", 13],
    ['DSTDEV(A4:E10,"Yield",A1:A3)', 2.966479395],
    ['DSTDEVP(A4:E10,"Yield",A1:A3)', 2.6532998],
    ['DVAR(A4:E10,"Yield",A1:A3)', 8.8],
    ['DVARP(A4:E10,"Yield",A1:A3)', 7.04],
    ['DGET(A4:E10,"Yield",A1:A3)', "#NUM!"],
    ['DGET(A4:E10,"Yield",A1:F2)', 10],
    ['DSUM(A4:E10,"Profit",A11:A12)', 225],
    ['DSUM(A4:E10,"Nothing",A1:A2)', "#VALUE!"],
    ["DCOUNT(A4:E10,,A1:A3)", 5],
  ])("=%s is %s", (f, e) => near(F(f), e));
});

describe("MAXIFS and MINIFS", () => {
  it.each<[string, number | string]>([
    ['MAXIFS(E5:E10,A5:A10,"Apple")', 105],
    ['MINIFS(E5:E10,A5:A10,"Apple",B5:B10,">10")', 75],
    ['MAXIFS(E5:E10,A5:A10,"Plum")', 0],
    ['MINIFS(E5:E10,A5:A9,"Apple")', "#VALUE!"],
  ])("=%s is %s", (f, e) => near(F(f), e));
});
