import { describe, expect, it } from "vitest";
import { displayText, generalText } from "../../src/spreadsheets/workbook/display.ts";
import { SheetsError } from "../../src/spreadsheets/cells/errors.ts";
import { errorOf } from "../../src/spreadsheets/formula/values.ts";
import { parseInput, renderCell, renderValue } from "../../src/spreadsheets/workbook/values.ts";

describe("values in", () => {
  it("parses as a person types (input=parse)", () => {
    expect(parseInput("42", "parse")).toEqual({ kind: "value", value: 42 });
    expect(parseInput(" -1.5e3 ", "parse")).toEqual({ kind: "value", value: -1500 });
    expect(parseInput("1,234.5", "parse")).toEqual({ kind: "value", value: 1234.5 });
    expect(parseInput("1,23", "parse")).toEqual({ kind: "value", value: "1,23" });
    expect(parseInput("00123", "parse")).toEqual({ kind: "value", value: 123 });
    expect(parseInput("TRUE", "parse")).toEqual({ kind: "value", value: true });
    expect(parseInput("false", "parse")).toEqual({ kind: "value", value: false });
    expect(parseInput("12%", "parse")).toEqual({ kind: "value", value: 0.12, numFmt: "0%" });
    expect(parseInput("12.5%", "parse")).toEqual({ kind: "value", value: 0.125, numFmt: "0.00%" });
    expect(parseInput("2026-01-31", "parse")).toEqual({ kind: "value", value: 46053, numFmt: "yyyy-mm-dd" });
    expect(parseInput("2026-01-31T09:30:00", "parse")).toMatchObject({ kind: "value", numFmt: "yyyy-mm-dd hh:mm:ss" });
    expect(parseInput("09:30", "parse")).toMatchObject({ kind: "value", numFmt: "hh:mm:ss" });
    expect(parseInput("=SUM(A1:A3)", "parse")).toEqual({ kind: "formula", formula: "SUM(A1:A3)" });
    expect(parseInput("=", "parse")).toEqual({ kind: "value", value: "=" });
    expect(parseInput("#N/A", "parse")).toEqual({ kind: "value", value: errorOf("#N/A") });
    expect(parseInput("'00123", "parse")).toEqual({ kind: "value", value: "00123" });
    expect(parseInput("$12", "parse")).toEqual({ kind: "value", value: "$12" });
    expect(parseInput("hello", "parse")).toEqual({ kind: "value", value: "hello" });
  });

  it("reads plain decimals and days without the regexes as it does with them, edges included", () => {
    const value = (text: string) => (parseInput(text, "parse") as { value: unknown }).value;
    expect([".5", "-.5", "+7", "-12", "1.25", "-0"].map(value)).toEqual([0.5, -0.5, 7, -12, 1.25, -0]);
    expect(["5.", ".", "-", "+", "1.2.3", "1-2", "9".repeat(400)].map(value)).toEqual([
      "5.",
      ".",
      "-",
      "+",
      "1.2.3",
      "1-2",
      "9".repeat(400),
    ]);
    expect(parseInput("2024-02-29", "parse")).toEqual({ kind: "value", value: 45351, numFmt: "yyyy-mm-dd" });
    expect(["2023-02-29", "1899-12-31", "2026-13-01", "2026-00-10", "2026-1-031", "2026/01/31", "20260-1-31"].map(value)).toEqual([
      "2023-02-29",
      "1899-12-31",
      "2026-13-01",
      "2026-00-10",
      "2026-1-031",
      "2026/01/31",
      "20260-1-31",
    ]);
  });

  it("keeps strings as strings with input=raw, numbers always numbers, null and empty clear", () => {
    expect(parseInput("=1+1", "raw")).toEqual({ kind: "value", value: "=1+1" });
    expect(parseInput("00123", "raw")).toEqual({ kind: "value", value: "00123" });
    expect(parseInput("TRUE", "raw")).toEqual({ kind: "value", value: "TRUE" });
    expect(parseInput(7, "raw")).toEqual({ kind: "value", value: 7 });
    expect(parseInput(null, "parse")).toEqual({ kind: "clear" });
    expect(parseInput("", "raw")).toEqual({ kind: "clear" });
  });

  it("refuses text over 32,767 characters and numbers a cell cannot hold", () => {
    expect(() => parseInput("x".repeat(32_768), "raw")).toThrow(
      expect.objectContaining({ code: "LIMIT", details: { limit: "MAX_CELL_TEXT" } }),
    );
    expect(() => parseInput(Number.NaN, "parse")).toThrow(SheetsError);
    expect(() => parseInput({} as never, "parse")).toThrow(SheetsError);
  });
});

describe("values out", () => {
  it("renders numbers to 15 significant digits, dates as ISO 8601, errors as objects", () => {
    expect(renderValue(0.1 + 0.2, undefined)).toBe(0.3);
    expect(renderValue(46053, "yyyy-mm-dd")).toBe("2026-01-31");
    expect(renderValue(46053.395833333336, "yyyy-mm-dd hh:mm")).toBe("2026-01-31T09:30:00");
    expect(renderValue(46053, "d-mmm-yy")).toBe("2026-01-31");
    expect(renderValue(0.5, "h:mm AM/PM")).toBe("12:00:00");
    expect(renderValue(1.5, "[h]:mm")).toBe(1.5);
    expect(renderValue(0.12, "0%")).toBe(0.12);
    expect(renderValue(-5, "yyyy-mm-dd")).toBe(-5);
    expect(renderValue(errorOf("#DIV/0!"), undefined)).toEqual({ error: "#DIV/0!" });
    expect(renderValue(null, undefined)).toBeNull();
  });

  it("gives formulas by render mode", () => {
    expect(renderCell(7, undefined, "B2*C2", "value")).toBe(7);
    expect(renderCell(7, undefined, "B2*C2", "formula")).toBe("=B2*C2");
    expect(renderCell(7, undefined, "B2*C2", "both")).toEqual({ value: 7, formula: "=B2*C2" });
    expect(renderCell(7, undefined, undefined, "both")).toBe(7);
    expect(renderCell(46053, "yyyy-mm-dd", "DATE(2026,1,31)", "both")).toEqual({ value: "2026-01-31", formula: "=DATE(2026,1,31)" });
  });
});

describe("values shown (render=formatted)", () => {
  it("applies the number format as Excel displays it; General in at most 11 characters", () => {
    expect(generalText(0.0909090909090908)).toBe("0.090909091");
    expect(generalText(2 / 3)).toBe("0.666666667");
    expect(generalText(-1 / 3)).toBe("-0.333333333");
    expect(generalText(3.14159265358979)).toBe("3.141592654");
    expect(generalText(12345678901)).toBe("12345678901");
    expect(generalText(123456789012)).toBe("1.23457E+11");
    // numfmt alone rounds these to a mantissa of 10 ("10E+11", "10E-05").
    expect(generalText(999999999999)).toBe("1E+12");
    expect(generalText(-999999999999)).toBe("-1E+12");
    expect(generalText(0.00009999999999)).toBe("0.0001");
    expect(generalText(0.000012345678)).toBe("1.23457E-05");
    expect(generalText(0.1 + 0.2)).toBe("0.3");
    expect(generalText(-0)).toBe("0");
    expect(generalText(1e21)).toBe("1E+21");
  });

  it("formats numbers, dates, text sections, booleans and errors; an unreadable code falls back to General", () => {
    expect(displayText(0.125, "0.00%")).toBe("12.50%");
    expect(displayText(1234.5, "#,##0.00")).toBe("1,234.50");
    expect(displayText(46053, "yyyy-mm-dd")).toBe("2026-01-31");
    expect(displayText(46053, "m/d/yyyy")).toBe("1/31/2026");
    expect(displayText(0.5, "hh:mm:ss")).toBe("12:00:00");
    // A date before 1900 or after 9999 shows as Excel shows it: hashes.
    expect(displayText(-1, "yyyy-mm-dd")).toBe("########");
    expect(displayText("abc", '0;-0;0;"Item: "@')).toBe("Item: abc");
    expect(displayText("abc", "0.00")).toBe("abc");
    expect(displayText("abc", undefined)).toBe("abc");
    expect(displayText(true, "0.00")).toBe("TRUE");
    expect(displayText(errorOf("#DIV/0!"), "0.00")).toBe("#DIV/0!");
    expect(displayText(null, "0.00")).toBeNull();
    expect(displayText(2 / 3, "[[nonsense")).toBe("0.666666667");
    expect(renderCell(2 / 3, "0.0", "A1/3", "formatted")).toBe("0.7");
  });
});
