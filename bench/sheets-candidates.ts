// Why the spreadsheet engine is our own evaluator on @borgar/fx's parser (docs/spreadsheets-engine.md):
// the candidates measured side by side, installed at bench time into a temporary folder (never into
// package.json): IronCalc (@ironcalc/wasm, MIT/Apache-2.0, a whole engine) and formula.js
// (@formulajs/formulajs, MIT, function implementations that would sit behind a parser of ours).
// HyperFormula is GPL and not a candidate. Measured: building an N × 10 model, one write with
// 10,000 dependents, and an Excel-fidelity sample of documented results. Run: npm run bench:sheets:peers
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Workbook } from "../src/spreadsheets/workbook/workbook.ts";
import { saveTiles } from "../src/spreadsheets/tiles/tiles.ts";
import { median } from "./lib.ts";

const ROWS = Number(process.env["SHEETS_BENCH_ROWS"] ?? 100_000);
const DEPENDENTS = 10_000;
const FIXTURE: (string | number)[][] = [
  ["apple", 1],
  ["Apple pie", "6"],
  ["banana", 7],
];

/** Formulas over FIXTURE (A1:B3) with the result Excel documents, as Excel's General format shows it. */
const SAMPLE: [formula: string, excel: string][] = [
  ["=ROUND(2.675,2)", "2.68"],
  ["=MOD(-3,2)", "1"],
  ['=COUNTIF(A1:A3,"apple*")', "2"],
  ['=COUNTIF(B1:B3,">5")', "1"],
  ['=SEARCH("b?d","abcbxd")', "4"],
  ['=PROPER("o\'neil 2nd")', "O'Neil 2Nd"],
  ['=TEXTJOIN("-",TRUE,"a","","b")', "a-b"],
  ['=XLOOKUP(3,{1,2,3},{"a","b","c"})', "c"],
  ['=DATEDIF(DATE(2020,1,15),DATE(2024,3,10),"md")', "24"],
  ["=EDATE(DATE(2024,1,31),1)*1", "45351"],
  ['=VALUE("2024-01-31")', "45322"],
  ["=ROUND(STDEV.S(1,2,3,4),6)", "1.290994"],
  ["=ROUND(IRR({-70000,12000,15000,18000,21000,26000}),4)", "0.0866"],
  ["=NETWORKDAYS(DATE(2024,1,1),DATE(2024,1,31))", "23"],
  ['="1"+1', "2"],
  ["=0.1+0.2=0.3", "TRUE"],
  ['=TEXT(1234.567,"#,##0.0")', "1,234.6"],
  ["=AVERAGE(B1:B3)", "4"],
  ["=SUM(B1:B3)", "8"],
  ['=VLOOKUP(2.5,{1,"a";2,"b";3,"c"},2,TRUE)', "b"],
  ['=MATCH("b*",{"a","bc","d"},0)', "2"],
  ["=INT(-2.5)", "-3"],
  ["=WEEKDAY(DATE(2024,1,31),16)", "5"],
  ['=CONCAT("a",1.5,TRUE)', "a1.5TRUE"],
];

type Module = Record<string, unknown>;
interface IronModel {
  pauseEvaluation(): void;
  resumeEvaluation(): void;
  evaluate(): void;
  setUserInput(sheet: number, row: number, column: number, input: string): void;
  getFormattedCellValue(sheet: number, row: number, column: number): string;
}

const ms = (t: number) => `${t.toFixed(t < 10 ? 2 : 0)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const rowValue = (r: number, c: number): string | number => (c === 0 ? `item ${r}` : r * (c + 1));

async function install(dir: string): Promise<(name: string) => Promise<Module>> {
  await promisify(execFile)(
    "npm",
    [
      "install",
      "--no-save",
      "--no-package-lock",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--loglevel=error",
      "--prefix",
      dir,
      "@ironcalc/wasm@0.8.4",
      "@formulajs/formulajs@4.6.1",
    ],
    { cwd: dir, timeout: 600_000 },
  );
  const require = createRequire(join(dir, "noop.js"));
  return async (name) => (await import(pathToFileURL(require.resolve(name)).href)) as Module;
}

async function ironcalc(load: (name: string) => Promise<Module>, dir: string): Promise<void> {
  const wasm = await load("@ironcalc/wasm");
  (wasm["initSync"] as (m: { module: Uint8Array }) => void)({
    module: await readFile(join(dir, "node_modules/@ironcalc/wasm/wasm_bg.wasm")),
  });
  const Model = wasm["Model"] as new (name: string, locale: string, tz: string, lang: string) => IronModel;
  const rss0 = process.memoryUsage().rss;
  let started = performance.now();
  const model = new Model("bench", "en", "UTC", "en");
  model.pauseEvaluation();
  for (let r = 1; r <= ROWS; r++) for (let c = 0; c < 10; c++) model.setUserInput(0, r, c + 1, String(rowValue(r, c)));
  model.resumeEvaluation();
  model.evaluate();
  console.log(`IronCalc   build ${ROWS} × 10: ${ms(performance.now() - started)}, RSS +${mb(process.memoryUsage().rss - rss0)}`);
  model.pauseEvaluation();
  for (let r = 2; r <= DEPENDENTS + 1; r++) model.setUserInput(0, r, 12, `=$B$1*C${r}+D${r}`);
  model.resumeEvaluation();
  model.evaluate();
  const writes: number[] = [];
  for (let i = 0; i < 5; i++) {
    started = performance.now();
    model.setUserInput(0, 1, 2, String(i + 0.5)); // evaluates the whole workbook: IronCalc has no incremental recalculation
    writes.push(performance.now() - started);
  }
  console.log(`IronCalc   one-cell write with ${DEPENDENTS} dependents, median of 5: ${ms(median(writes))}`);
  const sheet = new Model("sample", "en", "UTC", "en");
  // A leading apostrophe keeps "6" text, as the fixture has it (IronCalc parses input as typed).
  FIXTURE.forEach((row, r) =>
    row.forEach((v, c) => sheet.setUserInput(0, r + 1, c + 1, typeof v === "string" && /^\d/.test(v) ? `'${v}` : String(v))),
  );
  SAMPLE.forEach(([formula], i) => sheet.setUserInput(0, i + 10, 5, formula));
  score(
    "IronCalc",
    SAMPLE.map((_, i) => sheet.getFormattedCellValue(0, i + 10, 5)),
  );
}

function ours(): void {
  let started = performance.now();
  const rss0 = process.memoryUsage().rss;
  const rows = Array.from({ length: ROWS }, (_, r) => Array.from({ length: 10 }, (_, c) => rowValue(r + 1, c)));
  const { workbook } = Workbook.create([{ name: "S", values: rows }], "raw");
  console.log(`ours       build ${ROWS} × 10: ${ms(performance.now() - started)}, RSS +${mb(process.memoryUsage().rss - rss0)}`);
  workbook.write(
    `S!L2:L${DEPENDENTS + 1}`,
    Array.from({ length: DEPENDENTS }, (_, i) => [`=$B$1*C${i + 2}+D${i + 2}`]),
  );
  saveTiles(workbook);
  const writes: number[] = [];
  for (let i = 0; i < 5; i++) {
    started = performance.now();
    workbook.write("S!B1", [[i + 0.5]]);
    saveTiles(workbook);
    writes.push(performance.now() - started);
  }
  console.log(`ours       one-cell write with ${DEPENDENTS} dependents (and its tiles), median of 5: ${ms(median(writes))}`);
  const sample = Workbook.create([{ name: "S", values: FIXTURE }], "raw").workbook;
  score(
    "ours",
    SAMPLE.map(([formula]) => {
      const v = sample.evaluate(formula);
      return typeof v === "boolean" ? (v ? "TRUE" : "FALSE") : typeof v === "number" ? String(v) : JSON.stringify(v).replace(/^"|"$/g, "");
    }),
  );
}

function score(who: string, got: string[]): void {
  const wrong = SAMPLE.flatMap(([formula, excel], i) => (got[i] === excel ? [] : [`${formula} → ${got[i]} (Excel: ${excel})`]));
  console.log(`${who.padEnd(10)} Excel-fidelity sample: ${SAMPLE.length - wrong.length}/${SAMPLE.length}`);
  for (const w of wrong) console.log(`             ${w}`);
}

/** formula.js implements functions, not a workbook: the sample's functions called directly (what our evaluator would call). */
async function formulajs(load: (name: string) => Promise<Module>): Promise<void> {
  const F = (await load("@formulajs/formulajs")) as Record<string, (...args: unknown[]) => unknown>;
  const d = (y: number, m: number, day: number) => new Date(y, m - 1, day);
  const calls: (() => unknown)[] = [
    () => F["ROUND"]!(2.675, 2),
    () => F["MOD"]!(-3, 2),
    () => F["COUNTIF"]!(["apple", "Apple pie", "banana"], "apple*"),
    () => F["COUNTIF"]!([1, "6", 7], ">5"),
    () => F["SEARCH"]!("b?d", "abcbxd"),
    () => F["PROPER"]!("o'neil 2nd"),
    () => F["TEXTJOIN"]!("-", true, "a", "", "b"),
    () => (F["XLOOKUP"] ? F["XLOOKUP"](3, [1, 2, 3], ["a", "b", "c"]) : "no XLOOKUP"),
    () => F["DATEDIF"]!(d(2020, 1, 15), d(2024, 3, 10), "md"),
    () => F["EDATE"]!(d(2024, 1, 31), 1),
    () => F["VALUE"]!("2024-01-31"),
    () => F["ROUND"]!((F["STDEV"] as unknown as Record<string, (...a: number[]) => number>)["S"]!(1, 2, 3, 4), 6),
    () => F["ROUND"]!(F["IRR"]!([-70000, 12000, 15000, 18000, 21000, 26000]), 4),
    () => F["NETWORKDAYS"]!(d(2024, 1, 1), d(2024, 1, 31)),
    () => "n/a: no operators",
    () => "n/a: no operators",
    () => F["TEXT"]!(1234.567, "#,##0.0"),
    () => F["AVERAGE"]!([1, "6", 7]),
    () => F["SUM"]!([1, "6", 7]),
    () =>
      F["VLOOKUP"]!(
        2.5,
        [
          [1, "a"],
          [2, "b"],
          [3, "c"],
        ],
        2,
        true,
      ),
    () => F["MATCH"]!("b*", ["a", "bc", "d"], 0),
    () => F["INT"]!(-2.5),
    () => F["WEEKDAY"]!(d(2024, 1, 31), 16),
    () => F["CONCAT"]!("a", 1.5, true),
  ];
  score(
    "formula.js",
    calls.map((call) => {
      try {
        const v = call();
        return v instanceof Error
          ? v.message
          : v instanceof Date
            ? v.toISOString()
            : typeof v === "boolean"
              ? String(v).toUpperCase()
              : String(v);
      } catch (error) {
        return `throws ${(error as Error).message}`;
      }
    }),
  );
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "wg-sheets-peers-"));
  try {
    const load = await install(dir);
    ours();
    await formulajs(load);
    await ironcalc(load, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
