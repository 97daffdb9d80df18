import { describe, expect, it } from "vitest";
import { clipRange, formatRange, parseRange, quoteSheetName, sheetNameProblem } from "../../src/spreadsheets/cells/a1.ts";
import { SheetsError } from "../../src/spreadsheets/cells/errors.ts";

const box = (text: string) => {
  const r = parseRange(text);
  return [r.sheet, r.top, r.left, r.bottom, r.right, r.openRows, r.openColumns];
};

describe("A1 ranges", () => {
  it("parses cells, ranges, sheets, whole columns and rows, and open-ended ranges", () => {
    expect(box("A1")).toEqual([null, 0, 0, 0, 0, false, false]);
    expect(box("B2:D10")).toEqual([null, 1, 1, 9, 3, false, false]);
    expect(box("D10:B2")).toEqual([null, 1, 1, 9, 3, false, false]);
    expect(box("Sheet2!A1:C3")).toEqual(["Sheet2", 0, 0, 2, 2, false, false]);
    expect(box("'Q1 Sales'!B2")).toEqual(["Q1 Sales", 1, 1, 1, 1, false, false]);
    expect(box("'It''s'!$A$1")).toEqual(["It's", 0, 0, 0, 0, false, false]);
    expect(box("A:C")).toEqual([null, 0, 0, 1_048_575, 2, true, false]);
    expect(box("2:5")).toEqual([null, 1, 0, 4, 16_383, false, true]);
    expect(box("A5:C")).toEqual([null, 4, 0, 1_048_575, 2, true, false]);
    expect(box("xfd1048576")).toEqual([null, 1_048_575, 16_383, 1_048_575, 16_383, false, false]);
    expect(box("Data!A:A")).toEqual(["Data", 0, 0, 1_048_575, 0, true, false]);
  });

  it("refuses what is not a range, naming it and the forms a range takes", () => {
    for (const bad of ["", "A0", "A1048577", "XFE1", "A1:B2:C3", "1A", "'Q1!A1", "'Q1'A1", "!A1", "A:1", "A1:", "$"]) {
      let error: unknown;
      try {
        parseRange(bad);
      } catch (e) {
        error = e;
      }
      expect(error, bad).toBeInstanceOf(SheetsError);
      expect((error as SheetsError).code).toBe("BAD_RANGE");
      expect((error as SheetsError).message).toContain(`"${bad.trim()}"`);
      expect((error as SheetsError).message).toContain("whole columns (A:C)");
    }
  });

  it("clips open ranges to the used range and leaves closed ones alone", () => {
    const used = { top: 0, left: 0, bottom: 19, right: 3 };
    expect(clipRange(parseRange("A:C"), used)).toEqual({ top: 0, left: 0, bottom: 19, right: 2 });
    expect(clipRange(parseRange("2:5"), used)).toEqual({ top: 1, left: 0, bottom: 4, right: 3 });
    expect(clipRange(parseRange("A30:C"), used)).toBeNull();
    expect(clipRange(parseRange("A:C"), null)).toBeNull();
    expect(clipRange(parseRange("B2:Z99"), used)).toEqual({ top: 1, left: 1, bottom: 98, right: 25 });
  });

  it("quotes sheet names only when they need it", () => {
    expect(quoteSheetName("Sheet1")).toBe("Sheet1");
    expect(quoteSheetName("Q1 Sales")).toBe("'Q1 Sales'");
    expect(quoteSheetName("It's")).toBe("'It''s'");
    expect(quoteSheetName("A1")).toBe("'A1'");
    expect(quoteSheetName("2024")).toBe("'2024'");
    expect(formatRange("Q1 Sales", { top: 1, left: 1, bottom: 3, right: 2 })).toBe("'Q1 Sales'!B2:C4");
    expect(formatRange("S", { top: 0, left: 0, bottom: 0, right: 0 })).toBe("S!A1");
  });

  it("checks sheet names as Excel does", () => {
    expect(sheetNameProblem("Budget 2026")).toBeNull();
    expect(sheetNameProblem("")).toMatch(/empty/);
    expect(sheetNameProblem("x".repeat(32))).toMatch(/31/);
    for (const ch of "[]:*?/\\") expect(sheetNameProblem(`a${ch}b`)).toMatch(/contains/);
    expect(sheetNameProblem("'quoted")).toMatch(/apostrophe/);
  });
});
