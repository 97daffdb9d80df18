// docs/spreadsheets-functions.md is generated from the engine (scripts/functions-table.ts): this
// fails when a function was added or removed and `npm run docs:functions` was not run, and checks
// that what the table says is what the engine does.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EXCEL_FUNCTIONS } from "../../scripts/excel-functions.ts";
import { renderFunctionTable, stateOf } from "../../scripts/functions-table.ts";
import { SheetsError } from "../../src/spreadsheets/cells/errors.ts";
import type { EvalContext } from "../../src/spreadsheets/formula/context.ts";
import { FUNCTIONS, FUTURE_FUNCTIONS, OPERATOR_FUNCTIONS } from "../../src/spreadsheets/formula/functions/index.ts";
import { toXlsxFormula } from "../../src/spreadsheets/formula/xlsx.ts";
import { Workbook } from "../../src/spreadsheets/workbook/workbook.ts";

const { workbook } = Workbook.create([{ name: "S", values: [[1]] }], "raw");

/**
 * What a formula computes: through evaluate, or (for syntax a write refuses, such as LAMBDA) as an
 * imported formula compiles, which keeps it and computes #NAME?.
 */
function computed(formula: string): unknown {
  try {
    return workbook.evaluate(formula);
  } catch (error) {
    if (!(error instanceof SheetsError) || error.code !== "BAD_FORMULA") throw error;
    const at = { sid: workbook.book.sheets[0]!.sid, row: 0, col: 0 };
    const { program } = workbook.book.compiler.compile(formula, at, { strict: false });
    return program.problem === null ? "compiled" : program.run({} as EvalContext);
  }
}

describe("docs/spreadsheets-functions.md", () => {
  it("is current (else run `npm run docs:functions`)", () => {
    const committed = readFileSync(new URL("../../docs/spreadsheets-functions.md", import.meta.url), "utf8");
    expect(committed).toBe(renderFunctionTable());
  });

  it("lists every function the engine has (a name outside Excel's list is a typo, or .xlsx's form of an operator)", () => {
    const listed = new Set(EXCEL_FUNCTIONS.map((f) => f.name));
    expect(Object.keys(FUNCTIONS).filter((name) => !listed.has(name) && !OPERATOR_FUNCTIONS.has(name))).toEqual([]);
    expect([...OPERATOR_FUNCTIONS].filter((name) => !FUNCTIONS[name] || listed.has(name))).toEqual([]);
    expect(listed.size).toBe(EXCEL_FUNCTIONS.length);
  });

  it("every function it lists as not implemented computes #NAME?", () => {
    const missing = EXCEL_FUNCTIONS.filter((f) => stateOf(f.name) === "not implemented");
    expect(missing.length).toBeGreaterThan(0);
    for (const f of missing) expect(computed(`=${f.name}()`), f.name).toEqual({ error: "#NAME?" });
  });

  it("every function it lists as refused is refused when written", () => {
    for (const f of EXCEL_FUNCTIONS.filter((x) => stateOf(x.name) === "refused"))
      expect(() => workbook.evaluate(`=${f.name}("x")`), f.name).toThrow(/refused/);
  });

  it("every implemented function newer than Excel 2007 is written to .xlsx with _xlfn.", () => {
    const newer = EXCEL_FUNCTIONS.filter((f) => f.since !== "" && stateOf(f.name) === "implemented");
    expect(newer.filter((f) => !FUTURE_FUNCTIONS.has(f.name)).map((f) => f.name)).toEqual([]);
    expect(toXlsxFormula("=NORM.S.DIST(1,TRUE)+SIN(1)")).toBe("_xlfn.NORM.S.DIST(1,TRUE)+SIN(1)");
  });
});
