// The recalculation's range cache (src/spreadsheets/range-cache.ts): the COUNTIF family's cached
// matches and the lookups' exact index must answer what the cell-by-cell walks answer, for every
// kind of value and criterion, and must not outlive a change of the cells they copied.
import { describe, expect, it, vi } from "vitest";
import { Meter } from "../../src/spreadsheets/formula/budget.ts";
import { binarySearch, findBinary, findExact, findNearest, type Line } from "../../src/spreadsheets/formula/functions/search.ts";
import { cellResult } from "../../src/spreadsheets/formula/result.ts";
import type { Scalar } from "../../src/spreadsheets/formula/values.ts";
import { Workbook } from "../../src/spreadsheets/workbook/workbook.ts";
import { Calculator } from "../../src/spreadsheets/workbook/recalc.ts";
import type { JsonCellInput } from "../../src/spreadsheets/workbook/values.ts";

/** Values of every kind the criteria treat apart: numbers (and ones equal only within 15 digits), numbers as text, text in both cases, wildcard characters, booleans, errors, "" and blanks. */
const POOL: JsonCellInput[] = [
  5,
  -5,
  0,
  0.3,
  "=0.1+0.2",
  1e-300,
  12.5,
  "5",
  " 5",
  "abc",
  "ABC",
  "Abd",
  "a*c",
  "a?c",
  "~",
  "b",
  "region 3",
  "REGION 3",
  '=""',
  true,
  false,
  "=NA()",
  "=1/0",
  null,
  '=A1&"x"',
];

const CRITERIA = [
  "5",
  '"5"',
  '">5"',
  '"<=0.3"',
  '"<>5"',
  '"abc"',
  '"A*"',
  '"a?c"',
  '"~*"',
  '"a~*c"',
  '"="',
  '""',
  '"<>"',
  "TRUE",
  '"true"',
  '"#N/A"',
  '"<>abc"',
  '">b"',
  "0.1+0.2",
  "0.3",
  '"=0.3"',
  '">=ab"',
  '"region "&(1+2)',
  "-5",
  '"<0"',
];

const LOOKUPS = [
  "5",
  '"5"',
  '"abc"',
  '"ABC"',
  "TRUE",
  "FALSE",
  "0.3",
  "0.1+0.2",
  '"a*"',
  '"a?c"',
  '"~"',
  '"region 3"',
  "-0",
  "12.5",
  '"nothing"',
];

/** Rows of data: A and C from the pool (C shifted, so pairs vary), B numbers with a few blanks and text. */
function data(rows: number): JsonCellInput[][] {
  return Array.from({ length: rows }, (_, i) => [
    POOL[(i * 7) % POOL.length] as JsonCellInput,
    i % 11 === 0 ? null : i % 13 === 0 ? "text" : (i * 37) % 101,
    POOL[(i * 3 + 1) % POOL.length] as JsonCellInput,
  ]);
}

/** The workbook's context without the run's caches: the cell-by-cell walks. */
function uncached(calc: Calculator): Calculator {
  const plain = Object.create(calc) as Calculator;
  Object.assign(plain, { snapshot: undefined, matches: undefined, exactIndex: undefined, remember: undefined });
  return plain;
}

function run(workbook: Workbook, formula: string, ctx: Calculator): Scalar {
  const sid = workbook.book.sheet("F").sid;
  const { program } = workbook.book.compiler.compile(formula, { sid, row: 0, col: 0 }, { strict: true });
  ctx.sid = sid;
  const result = cellResult(program.run(ctx), ctx);
  return Array.isArray(result) ? (result[0]?.[0] ?? null) : result;
}

describe("the recalculation's range cache", () => {
  const rows = 300;
  const { workbook } = Workbook.create([
    { name: "D", values: data(rows) },
    { name: "F", values: [[1]] },
  ]);
  const A = `D!$A$1:$A$${rows}`;
  const B = `D!$B$1:$B$${rows}`;
  const C = `D!$C$1:$C$${rows}`;
  const W = `D!$A$1:$B$${rows}`;

  it("gives the criteria functions the answers of the walk, for every kind of value and criterion", () => {
    const cached = new Calculator(workbook.book, new Meter());
    const plain = uncached(new Calculator(workbook.book, new Meter()));
    const used = vi.spyOn(cached.ranges, "matches");
    const formulas: string[] = [];
    for (const c of CRITERIA) {
      formulas.push(
        `COUNTIF(${A},${c})`,
        `SUMIF(${A},${c},${B})`,
        `SUMIF(${A},${c},D!$C$1:$C$${rows})`,
        `AVERAGEIF(${C},${c},${B})`,
        `COUNTIF(${W},${c})`,
      );
      for (const d of ['">0"', '"abc"', c, '"<>"'])
        formulas.push(
          `COUNTIFS(${A},${c},${C},${d})`,
          `SUMIFS(${B},${A},${c},${C},${d})`,
          `MAXIFS(${B},${C},${c},${A},${d})`,
          `MINIFS(${B},${A},${c},${B},${d})`,
        );
    }
    // Twice through: the second time every criterion's matches come from the cache.
    for (const formula of [...formulas, ...formulas])
      expect([formula, run(workbook, formula, cached)]).toEqual([formula, run(workbook, formula, plain)]);
    expect(used.mock.results.filter((r) => r.value !== null).length).toBeGreaterThan(formulas.length);
  });

  it("gives the lookups the answers of the walk, first and last matches, with and without wildcards", () => {
    const cached = new Calculator(workbook.book, new Meter());
    const plain = uncached(new Calculator(workbook.book, new Meter()));
    const used = vi.spyOn(cached.ranges, "exactIndex");
    const formulas: string[] = [];
    for (const v of LOOKUPS)
      formulas.push(
        `MATCH(${v},${A},0)`,
        `MATCH(${v},${C},0)`,
        `VLOOKUP(${v},${W},2,FALSE)`,
        `XLOOKUP(${v},${A},${B},"none",0,-1)`,
        `XLOOKUP(${v},${C},${B},"none",2)`,
        `XMATCH(${v},${C},0,1)`,
        `MATCH(${v},D!$A$1:$C$1,0)`,
      );
    for (const formula of [...formulas, ...formulas])
      expect([formula, run(workbook, formula, cached)]).toEqual([formula, run(workbook, formula, plain)]);
    expect(used.mock.results.filter((r) => r.value !== null).length).toBeGreaterThan(formulas.length);
  });

  it("charges a cached scan once, and each use a step", () => {
    const meter = new Meter();
    const calc = new Calculator(workbook.book, meter);
    run(workbook, `COUNTIF(${A},"abc")`, calc);
    const first = meter.steps;
    run(workbook, `COUNTIF(${A},"abc")`, calc);
    const again = meter.steps - first;
    expect(first).toBeGreaterThanOrEqual(rows);
    expect(again).toBeGreaterThan(0);
    expect(again).toBeLessThan(rows / 4);
  });

  it("is dropped when an array spills into a range it copied during the same recalculation", () => {
    // A1 is computed first, over C41:C200 still empty; C40's array then fills C41:C59, and A1 and
    // B1 must see those cells, not the copy taken before.
    const values: JsonCellInput[][] = Array.from({ length: 200 }, () => [null, null, null]);
    values[0] = ['=COUNTIF(C41:C200,">5")', "=MATCH(12,C41:C200,0)", null];
    values[39] = [null, null, "=SEQUENCE(20)"];
    values[199] = ["end", null, null];
    const { workbook: book } = Workbook.create([{ name: "S", values }]);
    expect(book.read("A1:B1").values).toEqual([[15, 11]]);
    book.write("C40", [["=SEQUENCE(30,1,2)"]]);
    expect(book.read("A1:B1").values).toEqual([[26, 10]]);
  });

  it("is not used while a range holds a formula not computed yet, nor kept after a write", () => {
    // Column B's formulas are computed after the COUNTIF above them reads their range.
    const values: JsonCellInput[][] = [['=COUNTIF(B2:B101,">50")', '=SUMIF(B2:B101,"<=10")']];
    for (let i = 1; i <= 100; i++) values.push([i, `=A${i + 1}`]);
    const { workbook: book } = Workbook.create([{ name: "S", values }]);
    expect(book.read("A1:B1").values).toEqual([[50, 55]]);
    book.write("A2:A11", [[100], [100], [100], [100], [100], [100], [100], [100], [100], [100]]);
    expect(book.read("A1:B1").values).toEqual([[60, 0]]);
  });
});

describe("lookups over lines longer than their used area", () => {
  // A whole column: 40 cells of mixed, partly sorted values, then empty cells to 5,000.
  const values: Scalar[] = Array.from({ length: 40 }, (_, i) => (i % 9 === 4 ? "t" : i % 13 === 7 ? null : i < 25 ? i * 2 : (i * 17) % 50));
  const line = (filled: boolean): Line => ({ length: 5_000, ...(filled ? { filled: values.length } : {}), at: (i) => values[i] ?? null });

  it("answer as the walks over every cell do", () => {
    for (let v = -2; v <= 60; v++)
      for (const probe of [v, v + 0.5, "t", "u"]) {
        expect(binarySearch(line(true), probe, 1)).toBe(binarySearch(line(false), probe, 1));
        expect(binarySearch(line(true), probe, -1)).toBe(binarySearch(line(false), probe, -1));
        for (const mode of [-1, 0, 1])
          for (const descending of [false, true])
            expect(findBinary(line(true), probe, mode, descending)).toBe(findBinary(line(false), probe, mode, descending));
        for (const mode of [-1, 1])
          for (const reverse of [false, true])
            expect(findNearest(line(true), probe, mode, reverse)).toBe(findNearest(line(false), probe, mode, reverse));
        for (const reverse of [false, true])
          expect(findExact(line(true), probe, true, reverse)).toBe(findExact(line(false), probe, true, reverse));
      }
  });

  it("read no cell past the used area", () => {
    let furthest = -1;
    const watched: Line = { length: 5_000, filled: values.length, at: (i) => ((furthest = Math.max(furthest, i)), values[i] ?? null) };
    for (const probe of [0, 30, 1_000, "t"]) {
      binarySearch(watched, probe, 1);
      findExact(watched, probe, false, true);
      findNearest(watched, probe, 1, true);
    }
    expect(furthest).toBeLessThan(values.length);
  });
});
