// npm run bench:sheets:engines — issue 38 item 5, the engine decision measured side by side: our
// engine, IronCalc (@ironcalc/wasm 0.8.4, MIT/Apache-2.0, a whole engine in WebAssembly) and formula.js
// (@formulajs/formulajs 4.6.1, MIT, function implementations), both installed at bench time into a
// temporary folder (never into package.json). HyperFormula is GPL and not a candidate.
//   coverage: how many of Excel's functions (test/spreadsheets/excel-corpus/categories.ts) each has
//     (ours and IronCalc: `=FN()` gives anything but #NAME?; formula.js: it exports the function);
//   agreement with Excel per category on the Excel corpus (`npm run corpus:excel`): ours and IronCalc
//     recalculate every workbook in full; formula.js, which is no engine, computes each cell whose
//     functions it all has with Excel's own inputs (bench/engines/formulajs.ts), and ours is shown on
//     the same cells;
//   full recalculation of the 202,000-formula workbook of bench:sheets:recalc: time and peak RSS, each
//     engine in a child process of its own.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { readXlsx } from "../src/spreadsheets/io/xlsx/read.ts";
import { CATEGORIES, EXCEL_FUNCTIONS } from "../test/spreadsheets/excel-corpus/categories.ts";
import { formulaCells } from "../test/spreadsheets/excel-corpus/cells.ts";
import { corpusWorkbooks } from "../test/spreadsheets/excel-corpus/manifest.ts";
import { categoryTable, type Column } from "../test/spreadsheets/excel-corpus/report.ts";
import { peerHas, runCorpus } from "../test/spreadsheets/excel-corpus/run.ts";
import { engineHasFunction, explain, same, scoreCells, type ScoredCell } from "../test/spreadsheets/excel-corpus/score.ts";
import { evaluateWithFormulaJs, formulaJsFunction, type FormulaJs, type SheetValues } from "./engines/formulajs.ts";
import { IronCalcWorker, loadIronCalc, type IronModelClass } from "./engines/ironcalc.ts";
import { FORMULA_CELLS, recalcWorkbook, recalcWorkbookXlsx } from "./recalc-workbook.ts";
import type { OursRecalc } from "./sheets-recalc.ts";

const run = promisify(execFile);
const PEERS = ["@ironcalc/wasm@0.8.4", "@formulajs/formulajs@4.6.1"];

async function install(dir: string): Promise<void> {
  const args = [
    "install",
    "--no-save",
    "--no-package-lock",
    "--no-audit",
    "--no-fund",
    "--ignore-scripts",
    "--loglevel=error",
    "--prefix",
    dir,
    ...PEERS,
  ];
  await run("npm", args, { cwd: dir, timeout: 600_000 });
}

async function ironCalc(dir: string): Promise<IronModelClass> {
  const require = createRequire(join(dir, "noop.js"));
  const wasm = (await import(pathToFileURL(require.resolve("@ironcalc/wasm")).href)) as Record<string, unknown>;
  (wasm["initSync"] as (m: { module: Uint8Array }) => void)({
    module: readFileSync(join(dir, "node_modules/@ironcalc/wasm/wasm_bg.wasm")),
  });
  return wasm["Model"] as IronModelClass;
}

async function formulaJs(dir: string): Promise<FormulaJs> {
  const require = createRequire(join(dir, "noop.js"));
  return (await import(pathToFileURL(require.resolve("@formulajs/formulajs")).href)) as FormulaJs;
}

/** In a child: IronCalc loads the large workbook and evaluates it; time and peak RSS. */
async function ironCalcRecalcChild(dir: string): Promise<void> {
  const Model = await ironCalc(dir);
  let started = performance.now();
  const { model } = loadIronCalc(Model, recalcWorkbook());
  const loadMs = performance.now() - started;
  started = performance.now();
  model.resumeEvaluation();
  model.evaluate();
  const recalcMs = performance.now() - started;
  process.stdout.write(JSON.stringify({ loadMs, recalcMs, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
}

function ironCalcHas(Model: IronModelClass): (fn: string) => boolean {
  const names = [...EXCEL_FUNCTIONS.keys()];
  const model = new Model("probe", "en", "UTC", "en");
  names.forEach((fn, i) => model.setUserInput(0, i + 1, 1, `=${fn}()`));
  model.evaluate();
  const lacking = new Set(
    names.filter((_, i) => model.getCellType(0, i + 1, 1) === 16 && model.getFormattedCellValue(0, i + 1, 1) === "#NAME?"),
  );
  model.free();
  return (fn) => !lacking.has(fn);
}

/** The workbook's values as Excel saved them (constants and cached results), for formula.js's inputs. */
function savedValues(bytes: Uint8Array): Map<string, SheetValues> | undefined {
  const sheets = new Map<string, SheetValues>();
  let data;
  try {
    data = readXlsx(bytes);
  } catch {
    return undefined; // our reader refuses it (one corpus workbook): formula.js's cells there read nothing
  }
  for (const sheet of data.sheets) {
    const values: SheetValues = { cells: new Map(), rows: 0 };
    for (const [row, cells] of sheet.rows()) {
      values.rows = row;
      cells.forEach((cell, column) => {
        if (cell && cell.value !== null)
          values.cells.set(`${row},${column}`, typeof cell.value === "object" ? { error: cell.value.error } : cell.value);
      });
    }
    sheets.set(sheet.name.toLowerCase(), values);
  }
  return sheets;
}

/** Excel's functions each engine has, per category, as a markdown table. */
function coverage(has: ((fn: string) => boolean)[]): string {
  const count = (test: (fn: string) => boolean) =>
    CATEGORIES.map((c) => [...EXCEL_FUNCTIONS].filter(([fn, cat]) => cat === c && test(fn)).length);
  const totals = CATEGORIES.map((c) => [...EXCEL_FUNCTIONS.values()].filter((cat) => cat === c).length);
  const counts = has.map(count);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return [
    "| category | Excel | ours | IronCalc | formula.js |",
    "|---|---:|---:|---:|---:|",
    `| all | ${EXCEL_FUNCTIONS.size} | ${counts.map(sum).join(" | ")} |`,
    ...CATEGORIES.map((c, i) => `| ${c} | ${totals[i]} | ${counts.map((x) => x[i]).join(" | ")} |`),
  ].join("\n");
}

/** formula.js's agreement per category on the cells it can compute, beside ours on the same cells. */
function formulaJsTable(fjs: { cell: ScoredCell; agree: boolean }[]): string {
  const rows = ["| category | cells formula.js can compute | formula.js (Excel's inputs) | ours on those cells |", "|---|---:|---:|---:|"];
  for (const category of ["All", ...CATEGORIES]) {
    const cells = fjs.filter((f) => category === "All" || f.cell.analysis.categories.includes(category as never));
    if (cells.length === 0) continue;
    const a = cells.filter((r) => r.agree).length;
    const o = cells.filter((r) => r.cell.agree).length;
    rows.push(
      `| ${category} | ${cells.length} | ${a} (${((100 * a) / cells.length).toFixed(1)}%) | ${o} (${((100 * o) / cells.length).toFixed(1)}%) |`,
    );
  }
  return rows.join("\n");
}

/** A workbook IronCalc has not computed in this time counts as not computed (every cell disagrees). */
const IRONCALC_SECONDS = 120;
/** Likewise for the large workbook's full evaluation. */
const IRONCALC_RECALC_MS = Number(process.env["IRONCALC_RECALC_MINUTES"] ?? 20) * 60_000;

const SKIPPED_FEATURES = new Set(["defined names", "structured table refs", "3-D refs", "external links"]);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "wg-engines-"));
  try {
    process.stderr.write("bench:sheets:engines: installing the candidates into a temporary folder…\n");
    await install(dir);
    const [Model, F] = [await ironCalc(dir), await formulaJs(dir)];

    const fjsHas = (fn: string) => formulaJsFunction(F, fn) !== undefined;
    const coverageTable = coverage([engineHasFunction, ironCalcHas(Model), fjsHas]);

    // The corpus: ours and IronCalc in full; formula.js cell by cell with Excel's inputs.
    const { workbooks, missing } = corpusWorkbooks();
    if (missing.length) throw new Error(`${missing.length} corpus workbooks missing: run \`npm run corpus:excel\``);
    process.stderr.write("bench:sheets:engines: our engine on the corpus…\n");
    const ours = (await runCorpus(workbooks)).ours;
    process.stderr.write("bench:sheets:engines: IronCalc on the corpus…\n");
    const iron: ScoredCell[] = [];
    const fjs: { cell: ScoredCell; agree: boolean; index: number }[] = [];
    let ironMs = 0;
    const ironFailed: string[] = [];
    const ironWorker = new IronCalcWorker(dir);
    let index = 0;
    for (const workbook of workbooks) {
      const bytes = readFileSync(workbook.file);
      const { cells, date1904 } = formulaCells(bytes);
      const started = performance.now();
      const result = await ironWorker.run(workbook.file, IRONCALC_SECONDS);
      if (result.failed) ironFailed.push(`${workbook.name}: ${result.failed}`);
      iron.push(...scoreCells(workbook.name, cells, result, date1904));
      ironMs += performance.now() - started;
      const saved = savedValues(bytes) ?? new Map<string, SheetValues>();
      for (const cell of cells) {
        const mine = ours[index]!;
        if (
          mine.analysis.functions.length > 0 &&
          mine.analysis.functions.every(fjsHas) &&
          !mine.analysis.features.some((f) => SKIPPED_FEATURES.has(f))
        ) {
          const got = evaluateWithFormulaJs(F, cell.text, cell.sheet, saved);
          fjs.push({ cell: mine, agree: same(cell.expected, got), index });
        }
        index++;
      }
    }
    await ironWorker.close();
    explain(iron, peerHas(iron));
    const columns: Column[] = [
      { name: "ours", cells: ours },
      { name: "IronCalc 0.8.4", cells: iron },
    ];
    const gains = fjs.filter((f) => f.agree && !f.cell.agree && f.cell.reason?.startsWith("#NAME?")).length;

    // Full recalculation of the large workbook, each engine in its own process.
    const file = join(dir, "recalc.xlsx");
    writeFileSync(file, await recalcWorkbookXlsx());
    process.stderr.write("bench:sheets:engines: full recalculation of the large workbook (ours, then IronCalc)…\n");
    const child = async <T>(args: string[], timeout = 3_600_000): Promise<T> =>
      JSON.parse((await run(process.execPath, ["--import", "tsx", ...args], { timeout, maxBuffer: 1 << 20 })).stdout) as T;
    const mine = await child<OursRecalc>([join(import.meta.dirname, "sheets-recalc.ts"), "--ours", file]);
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    let iron202: string;
    try {
      const theirs = await child<{ loadMs: number; recalcMs: number; peakRssMb: number }>(
        [import.meta.filename, "--ironcalc-recalc", dir],
        IRONCALC_RECALC_MS,
      );
      iron202 = `load ${s(theirs.loadMs)}, evaluation ${s(theirs.recalcMs)}, peak RSS ${theirs.peakRssMb.toFixed(0)} MB`;
    } catch (failure) {
      iron202 = `did not finish within ${IRONCALC_RECALC_MS / 60_000} minutes (${String(failure).split("\n")[0]!.slice(0, 120)})`;
    }

    console.log(`
bench:sheets:engines — our engine, IronCalc 0.8.4 and formula.js 4.6.1

Excel's functions each has (${EXCEL_FUNCTIONS.size} in Excel's catalogue, test/spreadsheets/excel-corpus/categories.ts):
${coverageTable}

Agreement with Excel on the corpus (${workbooks.length} workbooks, ${ours.length} formula cells; full recalculation; IronCalc ${s(ironMs)} in all):
${categoryTable(columns)}

formula.js, cell by cell with Excel's inputs (cells whose functions formula.js all has, no names, tables, 3-D or external refs):
${formulaJsTable(fjs)}
cells ours gets wrong for a missing function that formula.js gets right: ${gains}
${ironFailed.length ? `workbooks IronCalc did not compute:\n${ironFailed.map((f) => `  ${f}`).join("\n")}\n` : ""}

Full recalculation of ${FORMULA_CELLS} formulas (bench/recalc-workbook.ts), each engine in a child process:
  ours:     read ${s(mine.readMs)}, recalculation ${s(mine.recalcMs)}, peak RSS ${mine.peakRssMb.toFixed(0)} MB
  IronCalc: ${iron202}
`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--ironcalc-recalc") await ironCalcRecalcChild(process.argv[3]!);
else await main();
