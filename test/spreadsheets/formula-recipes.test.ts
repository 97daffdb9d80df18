// A formula of a template already compiled takes its shape's Program and its text from the
// template's recipe (formula/recipes.ts) without being tokenized: what it gets must be what a
// compiler that never saw the template gives it, for every kind of token a masked number can be in.
import { describe, expect, it } from "vitest";
import { FormulaCompiler, type CompileOptions, type FormulaAt } from "../../src/spreadsheets/formula/compile.ts";
import { FUNCTIONS } from "../../src/spreadsheets/formula/functions/index.ts";
import type { Program } from "../../src/spreadsheets/formula/program.ts";
import type { WorkbookData } from "../../src/spreadsheets/cells/types.ts";
import { Workbook } from "../../src/spreadsheets/workbook/workbook.ts";

const data: WorkbookData = {
  sheets: [
    {
      name: "Sheet1",
      rows: function* () {
        yield [0, [{ value: "City" }, { value: "Pop" }]];
        for (let r = 1; r <= 12; r++) yield [r, [{ value: `c${r}` }, { value: r * 100 }]];
      },
      tables: [
        {
          name: "Cities",
          box: { top: 0, left: 0, bottom: 12, right: 1 },
          header: 1,
          totals: 0,
          columns: ["City", "Pop"],
          style: null,
          autoFilter: false,
          totalsRow: [null, null],
        },
      ],
    },
    { name: "Sheet2", rows: () => [[0, [{ value: 1 }]]] },
    { name: "My Sheet 1", rows: () => [[0, [{ value: 2 }]]] },
  ],
  names: [
    { name: "Tax2023", sheet: null, formula: "0.2" },
    { name: "Tax2024", sheet: null, formula: "Sheet2!$A$1" },
    { name: "Local1", sheet: "Sheet2", formula: "3" },
    { name: "Local1", sheet: "Sheet1", formula: "Sheet1!$B$2" },
  ],
};

/** Formula texts for a cell at 1-based row r (a filled-down column's, and ones whose masked numbers are not rows). */
const KINDS: ((r: number) => string)[] = [
  (r) => `B${r}*2+SUM($B$1:B${r})`,
  (r) => `B${r + 1}-B${r}`,
  (r) => `Sheet${(r % 2) + 1}!A${r}+1`,
  (r) => `'My Sheet 1'!A${r}&"C${r % 3}"`,
  (r) => `LOG10(B${r})+Tax202${3 + (r % 2)}`,
  (r) => `b${r}+sum(a$1:a${r})`,
  (r) => `_xlfn.CONCAT("x${r}",A${r})`,
  (r) => `_xlfn.LET(_xlpm.x${r % 2},B${r},_xlpm.x${r % 2}+1)`,
  (r) => `Cities[@Pop]*${r}+Cities[[#Headers],[Pop]]&A${r}`,
  (r) => `Sheet1:Sheet2!A${r}+Local1`,
  (r) => `SUM($${r}:$${r + 2})+SUM(A:A)+ROWS(${r}:${r + 1})`,
  (r) => `A1048576+A${r}`,
  (r) => `OFFSET(A${r},1,1)+INDIRECT("A${r}")`,
  (r) => `SUM(A${r}`,
  (r) => `HYPERLINK("https://example.com/${r}","x")`,
  (r) => `A${r} + B${r}  *  3`,
  (r) => `A${r}:B${r + 1} A${r}`,
  (r) => `SUM(A01,A${r})`,
];
/** Cells each kind is compiled at: down a column, then the same rows in another column and sheet. */
const AT: FormulaAt[] = [];
for (const [sid, col] of [
  [1, 2],
  [1, 5],
  [2, 2],
]) {
  for (let row = 0; row < 14; row++) AT.push({ sid: sid as number, row, col: col as number });
}

const sameProgram = (a: Program) => ({
  refs: a.refs,
  unknown: a.unknown,
  names: a.names,
  problem: a.problem,
  volatile: a.volatile,
  format: a.format,
  formatFrom: a.formatFrom,
  subtotal: a.subtotal,
});

function outcome(compile: () => { text: string; program: Program }): unknown {
  try {
    const { text, program } = compile();
    return { text, ...sameProgram(program) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe("formulas compiled from their template's recipe", () => {
  for (const options of [{ strict: false }, { strict: true }, { strict: false, legacy: true }] as CompileOptions[]) {
    it(`are compiled as by a compiler that never saw their template (${JSON.stringify(options)})`, () => {
      const book = Workbook.fromData(data).workbook.book;
      const shared = new FormulaCompiler(book.env, FUNCTIONS);
      for (const kind of KINDS) {
        for (const at of AT) {
          // As the rows would be filled (each row's formula written for its row), and the same text elsewhere.
          for (const text of [kind(at.row + 1), kind(3)]) {
            const mine = outcome(() => shared.compile(text, at, options));
            const fresh = outcome(() => new FormulaCompiler(book.env, FUNCTIONS).compile(text, at, options));
            expect(mine, `${text} at ${JSON.stringify(at)}`).toEqual(fresh);
          }
        }
      }
    });
  }

  it("tells apart two templates whose hashes are the same", () => {
    // "PB1+7" and "KI1+80" hash alike (recipes.ts keeps templates by a 30-bit hash): each must get its own.
    const book = Workbook.fromData(data).workbook.book;
    const shared = new FormulaCompiler(book.env, FUNCTIONS);
    const at = { sid: 1, row: 0, col: 0 };
    for (const text of ["PB1+7", "KI1+80", "PB1+7", "KI1+80"]) {
      const mine = outcome(() => shared.compile(text, at, { strict: false }));
      expect(mine).toEqual(outcome(() => new FormulaCompiler(book.env, FUNCTIONS).compile(text, at, { strict: false })));
    }
  });
});
