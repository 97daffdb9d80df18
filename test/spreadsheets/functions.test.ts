// Functions and operators where Excel's documented result is what the engine must give, beyond the
// corpus computed against LibreOffice (fidelity.test.ts): the cases where Calc answers otherwise,
// booleans and text in ranges, unknown functions, refused formulas, volatile functions.
import { describe, expect, it } from "vitest";
import { SheetsError } from "../../src/spreadsheets/cells/errors.ts";
import { Workbook } from "../../src/spreadsheets/workbook/workbook.ts";

function book() {
  const { workbook } = Workbook.create(
    [
      {
        name: "Data",
        values: [
          [1, "x", true],
          [3, "4", false],
          [2.5, null, "TRUE"],
        ],
      },
      { name: "Other", values: [[10]] },
    ],
    "raw",
    { now: () => Date.UTC(2026, 0, 31, 9, 30) },
  );
  return workbook;
}

const wb = book();
const ev = (formula: string) => wb.evaluate(formula);

describe("Excel's results where LibreOffice Calc differs", () => {
  it.each([
    ["=TRUE()>1", true],
    ['=TRUE()&"x"', "TRUEx"],
    ["=LEN(TRUE())", 4],
    ['=CONCATENATE("x",1,TRUE())', "x1TRUE"],
    ["=SUM(A1:C3)", 6.5],
    ["=COUNT(A1:C3)", 3],
    ["=COUNTA(A1:C3)", 8],
    ["=AVERAGE(A1:C3)", 2.16666666666667],
    ["=COUNTIF(A1:C3,TRUE())", 1],
    ["=COUNTIF(A1:C3,1)", 1],
    ['=SUM("3",2)', 5],
    ['=AVERAGE(1,2,"3")', 2],
    ['=MIN(3,"1",5)', 1],
    ["=SUM(TRUE(),1)", 2],
    ["=POWER(-8,1/3)", { error: "#NUM!" }],
    ["=SQRT(-1)", { error: "#NUM!" }],
    ["=0^0", { error: "#NUM!" }],
    ["=VLOOKUP(1,A1:B3,3,FALSE)", { error: "#REF!" }],
    ["=HLOOKUP(1,A1:C2,5,FALSE)", { error: "#REF!" }],
    ["=INDEX(A1:A3,4)", { error: "#REF!" }],
    ["=INDEX(A1:A3,1,2)", { error: "#REF!" }],
    ['=DATEDIF(DATE(2024,3,10),DATE(2020,1,15),"d")', { error: "#NUM!" }],
    ['=DATEDIF(DATE(2024,1,1),DATE(2024,2,1),"x")', { error: "#NUM!" }],
    ["=IRR({100,200})", { error: "#NUM!" }],
    ["=YEAR(-1)", { error: "#NUM!" }],
    ['=FIND("","abc")', 1],
  ])("%s is %j", (formula, expected) => {
    expect(ev(formula.replace(/([A-C][1-3](?::[A-C][1-3])?)/g, "Data!$1"))).toEqual(expected);
  });
});

describe("formulas", () => {
  it("compute dates with their format, and TODAY and NOW from the clock", () => {
    expect(ev("=DATE(2026,2,28)")).toBe("2026-02-28");
    expect(ev("=EDATE(DATE(2024,1,31),1)")).toBe("2024-02-29");
    expect(ev("=EOMONTH(DATE(2024,1,15),0)")).toBe("2024-01-31");
    expect(ev("=TODAY()")).toBe("2026-01-31");
    expect(ev("=NOW()")).toBe("2026-01-31T09:30:00");
    expect(ev("=TODAY()+1")).toBe(46054);
    expect(ev("=YEAR(TODAY())")).toBe(2026);
  });

  it("read references across sheets, whole columns and ranges built with INDEX", () => {
    expect(ev("=Other!A1*2")).toBe(20);
    expect(ev("=SUM(Data!A:A)")).toBe(6.5);
    expect(ev("=SUM(Data!A1:INDEX(Data!A1:A3,2))")).toBe(4);
    expect(ev("=ROWS(Data!A:A)")).toBe(1_048_576);
    expect(ev("=SUM(Data!A1:A3 Data!A2:C2)")).toBe(3);
    expect(ev("=NoSuchSheet!A1")).toEqual({ error: "#REF!" });
  });

  it("compare numbers within Excel's 15 digits", () => {
    expect(ev("=0.1+0.2=0.3")).toBe(true);
    expect(ev("=0.1+0.2")).toBe(0.3);
    expect(ev("=ROUND(2.675,2)")).toBe(2.68);
    expect(ev("=ROUND(1.005,2)")).toBe(1.01);
  });

  it("give #NAME? for an unknown function or name, and the write lists it in its warnings", () => {
    const w = book();
    const result = w.write("Data!D1:D2", [["=FOO(1)+1"], ["=MyName*2"]]);
    expect(w.read("Data!D1:D2").values).toEqual([[{ error: "#NAME?" }], [{ error: "#NAME?" }]]);
    expect(result.warnings.join(" ")).toMatch(/FOO/);
    expect(result.warnings.join(" ")).toMatch(/MyName/);
    expect(w.read("Data!D1", { render: "formula" }).values).toEqual([["=FOO(1)+1"]]);
  });

  it("turn a circular reference into an error and a warning, never a hang", () => {
    const w = book();
    const result = w.write("Data!E1:E3", [["=E3+1"], ["=E1*2"], ["=E2"]]);
    expect(w.read("Data!E1:E3").values).toEqual([[{ error: "#REF!" }], [{ error: "#REF!" }], [{ error: "#REF!" }]]);
    expect(result.warnings.some((w) => /circular/.test(w))).toBe(true);
    expect(w.write("Data!F1", [["=F1"]]).warnings[0]).toMatch(/Data!F1 is part of a circular reference/);
    // Breaking the loop computes again.
    w.write("Data!E3", [[5]]);
    expect(w.read("Data!E1:E2").values).toEqual([[6], [12]]);
  });

  it("refuse other workbooks, DDE, WEBSERVICE, RTD, CALL, REGISTER.ID and unsafe HYPERLINKs", () => {
    for (const formula of [
      "=[Book2]Sheet1!A1",
      "='C:\\files\\[Book2.xlsx]Sheet1'!A1",
      "='https://example.com/[a.xlsx]S'!A1",
      "=cmd|'/c calc'!A0",
      '=WEBSERVICE("http://example.com")',
      '=RTD("x",,"y")',
      '=CALL("user32","MessageBoxA","JJCCJ",0,"a","b",0)',
      '=REGISTER.ID("user32","MessageBoxA")',
      '=HYPERLINK("file:///etc/passwd","x")',
      '=HYPERLINK("javascript:alert(1)")',
      '=1+_xlfn.WEBSERVICE("http://x")',
    ]) {
      expect(() => book().write("Data!A1", [[formula]]), formula).toThrow(expect.objectContaining({ code: "REFUSED_FORMULA" }));
    }
    expect(ev('=HYPERLINK("https://example.com","site")')).toBe("site");
    expect(ev('=HYPERLINK("mailto:a@example.com")')).toBe("mailto:a@example.com");
    expect(ev('=HYPERLINK("ftp://"&"x")')).toEqual({ error: "#VALUE!" });
  });

  it("refuse formulas that do not parse, naming them", () => {
    for (const formula of ["=1+", "=SUM(1,", "=SUM()", "=IF(1)", "=LET(x)", "=LAMBDA(x,x)(1,2,3"]) {
      let error: unknown;
      try {
        book().write("Data!A1", [[formula]]);
      } catch (e) {
        error = e;
      }
      expect(error, formula).toBeInstanceOf(SheetsError);
      expect((error as SheetsError).code).toBe("BAD_FORMULA");
      expect((error as SheetsError).message).toContain(formula);
    }
  });

  it("normalize function names and cell letters, without .xlsx's _xlfn. prefixes (as Excel shows them)", () => {
    const w = book();
    w.write("Data!D1", [["=sum(a1:a3)+_xlfn.stdev.s(1,2)+_xlfn._xlws.sort(1)"]]);
    expect(w.read("Data!D1", { render: "formula" }).values).toEqual([["=SUM(A1:A3)+STDEV.S(1,2)+SORT(1)"]]);
  });
});
