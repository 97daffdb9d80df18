// The dependency graph and the recalculation: what a change recomputes, in which order, at scale.
import { describe, expect, it } from "vitest";
import { Workbook } from "../../src/spreadsheets/workbook/workbook.ts";

describe("recalculation", () => {
  it("computes a 20,000-long chain written against its order without recursing", () => {
    const n = 20_000;
    const values = Array.from({ length: n }, (_, i) => [i === n - 1 ? 1 : `=A${i + 2}+1`]);
    const { workbook, result } = Workbook.create([{ name: "S", values }]);
    expect(result.recalculatedCells).toBe(n - 1);
    expect(workbook.read("A1").values).toEqual([[n]]);
    expect(workbook.write(`A${n}`, [[10]]).recalculatedCells).toBe(n - 1);
    expect(workbook.read("A1").values).toEqual([[n + 9]]);
  });

  it("follows ranges wider than the per-column index and whole columns", () => {
    const row = Array.from({ length: 60 }, (_, i) => i + 1);
    const { workbook } = Workbook.create([{ name: "S", values: [row, ["=SUM(A1:BH1)", "=SUM(1:1)", "=COUNT(A:A)", "=B2*2"]] }]);
    expect(workbook.read("A2:D2").values).toEqual([[1830, 1830, 2, 3660]]);
    expect(workbook.write("AZ1", [[0]]).recalculatedCells).toBe(4); // A2, B2, D2, and C2 through A2
    expect(workbook.read("A2:D2").values).toEqual([[1778, 1778, 2, 3556]]);
    expect(workbook.write("A9", [[5]]).recalculatedCells).toBe(1);
    expect(workbook.read("C2").values).toEqual([[3]]);
  });

  it("recomputes dependents on other sheets, and only those", () => {
    const { workbook } = Workbook.create([
      { name: "In", values: [[1, 2]] },
      { name: "Out", values: [["=In!A1*2", "=In!B1*2", "=A1+B1"]] },
    ]);
    expect(workbook.write("In!A1", [[10]]).recalculatedCells).toBe(2);
    expect(workbook.read("Out!A1:C1").values).toEqual([[20, 4, 24]]);
  });

  it("keeps computing after a formula is replaced by a constant and back", () => {
    const { workbook } = Workbook.create([{ name: "S", values: [[1, "=A1+1", "=B1+1"]] }]);
    workbook.write("B1", [[100]]);
    expect(workbook.read("C1").values).toEqual([[101]]);
    expect(workbook.write("A1", [[5]]).recalculatedCells).toBe(0);
    workbook.write("B1", [["=A1*3"]]);
    expect(workbook.read("B1:C1").values).toEqual([[15, 16]]);
    workbook.write("B1", [[null]]);
    expect(workbook.read("C1").values).toEqual([[1]]);
  });

  it("keeps one range for the formulas that read it, and forgets each reader as it goes", () => {
    // A column of lookups into one table (the same range, some twice in one formula), a relative range, and wide ranges.
    const values = Array.from({ length: 6 }, (_, i) => [
      i + 1,
      `=SUMIF($A$1:$A$6,">"&A${i + 1},$A$1:$A$6)`,
      `=SUM(A${i + 1}:A6)`,
      "=SUM($A$1:$A$6,$F$1:$AM$1)",
    ]);
    const { workbook } = Workbook.create([{ name: "S", values }]);
    expect(workbook.read("B1:D1").values).toEqual([[20, 21, 21]]);
    expect(workbook.write("A6", [[7]]).recalculatedCells).toBe(18);
    expect(workbook.write("G1", [[0]]).recalculatedCells).toBe(6);
    // B2:B6 and the D column no longer formulas: a change to the range recomputes B1 alone of them.
    workbook.write("B2:B6", [[0], [0], [0], [0], [0]]);
    workbook.write("D1:D6", [[0], [0], [0], [0], [0], [0]]);
    expect(workbook.write("A5", [[6]]).recalculatedCells).toBe(1 + 5);
    expect(workbook.read("B1:C1").values).toEqual([[22, 23]]);
    expect(workbook.write("G1", [[1]]).recalculatedCells).toBe(0);
    // The last reader gone, the range is gone: a change recomputes the relative SUMs only.
    workbook.write("B1", [[0]]);
    expect(workbook.write("A1", [[2]]).recalculatedCells).toBe(1);
    expect(workbook.read("C1").values).toEqual([[24]]);
    // Read again by a new formula, the range is registered anew.
    workbook.write("E1", [['=SUMIF($A$1:$A$6,">0",$A$1:$A$6)']]);
    expect(workbook.write("A2", [[3]]).recalculatedCells).toBe(3);
    expect(workbook.read("E1").values).toEqual([[25]]);
  });
});
