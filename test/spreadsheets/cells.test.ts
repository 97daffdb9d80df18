import { describe, expect, it } from "vitest";
import { cellAddress, columnIndex, columnName, parseCellAddress } from "../../src/spreadsheets/cells/cells.ts";

describe("A1 cell addresses", () => {
  it("names columns as Excel does, both ways", () => {
    const pairs: [number, string][] = [
      [0, "A"],
      [25, "Z"],
      [26, "AA"],
      [51, "AZ"],
      [52, "BA"],
      [701, "ZZ"],
      [702, "AAA"],
      [16383, "XFD"],
    ];
    for (const [index, name] of pairs) {
      expect(columnName(index)).toBe(name);
      expect(columnIndex(name)).toBe(index);
      expect(columnIndex(name.toLowerCase())).toBe(index);
    }
    for (let i = 0; i < 16384; i += 97) expect(columnIndex(columnName(i))).toBe(i);
  });

  it("refuses what is not a column within XFD", () => {
    for (const bad of ["", "XFE", "AAAA", "A1", "É", "@"]) expect(columnIndex(bad)).toBe(-1);
  });

  it("parses and prints cell addresses", () => {
    expect(parseCellAddress("B2")).toEqual({ row: 1, column: 1 });
    expect(parseCellAddress("$XFD$1048576")).toEqual({ row: 1048575, column: 16383 });
    expect(cellAddress(1048575, 16383)).toBe("XFD1048576");
    for (const bad of ["A0", "A1048577", "XFE1", "1A", "A", "A01", " A1"]) expect(parseCellAddress(bad)).toBeNull();
  });
});
