// Scores an engine against Excel on the corpus: each formula cell's computed value against the value
// Excel cached (numbers within a relative 1e-9, or 1e-10 absolute near zero; text exactly; booleans;
// error kinds; dates as the serial numbers they are). Our engine imports the workbook exactly as the
// service does (readXlsx, then Workbook.fromData) from a copy whose cached values were removed, so
// every value it reports is one it computed. Every disagreement gets one reason, the first that
// applies: the import failed; the cell is not a formula in our model; the formula calls a function
// the engine lacks (the first such, in writing order: #NAME? FN); it links another workbook; it reads
// a cell that itself disagrees; it is volatile; it uses a workbook feature; else a wrong value from
// its outermost function.
import { Workbook } from "../../../src/spreadsheets/workbook/workbook.ts";
import { cellAddress, parseCellAddress } from "../../../src/spreadsheets/cells/cells.ts";
import { dateKindOf } from "../../../src/spreadsheets/cells/formats.ts";
import { readXlsx } from "../../../src/spreadsheets/io/xlsx/read.ts";
import { analyseFormula, type FormulaAnalysis } from "./analysis.ts";
import { withoutCachedValues, type Expected, type FormulaCell } from "./cells.ts";

/** What an engine gave for a cell: a value, an empty cell (null), or nothing computed (why). */
export type Got = Expected | null | { notComputed: string };

export interface EngineResult {
  /** "Sheet!A1" → value; absent: the engine has no formula there. */
  values: Map<string, Got>;
  /** Cells whose number format is a date's (their serials are 1900-system). */
  dated?: Set<string>;
  /** Set when the engine could not open the workbook at all. */
  failed?: string;
}

export interface ScoredCell {
  workbook: string;
  sheet: string;
  address: string;
  formula: string;
  expected: Expected;
  analysis: FormulaAnalysis;
  got: Got;
  agree: boolean;
  reason?: string;
}

export const cellKey = (sheet: string, address: string): string => `${sheet.toLowerCase()}!${address}`;

const OFFSET_1904 = 1462;

export function same(expected: Expected, got: Got): boolean {
  if (typeof expected === "number") {
    if (typeof got !== "number") return false;
    const diff = Math.abs(expected - got);
    return diff <= 1e-10 || diff <= 1e-9 * Math.max(Math.abs(expected), Math.abs(got));
  }
  if (typeof expected === "string") return got === expected || (expected === "" && got === null);
  if (typeof expected === "boolean") return got === expected;
  return got !== null && typeof got === "object" && "error" in got && got.error === expected.error;
}

/** The service's default budget (10 s) could stop a large import on a loaded machine: fidelity is scored, not speed. */
const SCORING_BUDGET = { maxMs: 900_000, maxSteps: 50_000_000_000 };

/** Our engine on one workbook, imported as the service imports an upload, cached values removed. */
export function ourEngine(bytes: Uint8Array): EngineResult {
  const values = new Map<string, Got>();
  const dated = new Set<string>();
  try {
    const { workbook } = Workbook.fromData(readXlsx(withoutCachedValues(bytes)), { budget: SCORING_BUDGET });
    const data = workbook.toData();
    for (const sheet of data.sheets) {
      for (const [row, cells] of sheet.rows()) {
        cells.forEach((cell, column) => {
          if (!cell?.formula) return;
          const key = cellKey(sheet.name, cellAddress(row, column));
          values.set(key, cell.value === null || typeof cell.value !== "object" ? cell.value : { error: cell.value.error });
          if (cell.numFmt !== undefined && dateKindOf(cell.numFmt) !== null) dated.add(key);
        });
      }
    }
    return { values, dated };
  } catch (failure) {
    return { values, failed: failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure) };
  }
}

/** Scores one engine's result on a workbook's cells; reasons are left to `explain`. */
export function scoreCells(name: string, cells: FormulaCell[], result: EngineResult, date1904 = false): ScoredCell[] {
  return cells.map((cell) => {
    const key = cellKey(cell.sheet, cell.address);
    const formula = cell.text;
    let got: Got = result.failed ? { notComputed: "import failed" } : (result.values.get(key) ?? { notComputed: "no formula here" });
    // A 1904-system workbook caches dates as 1904 serials; the engine holds 1900-system serials.
    if (date1904 && typeof got === "number" && result.dated?.has(key)) got -= OFFSET_1904;
    return {
      workbook: name,
      sheet: cell.sheet,
      address: cell.address,
      formula,
      expected: cell.expected,
      analysis: analyseFormula(formula, cell.kind),
      got,
      agree: same(cell.expected, got),
    };
  });
}

const known = new Map<string, boolean>();
const probe = Workbook.create([{ name: "Probe", values: [[1]] }], "raw").workbook;
/** `=FN(args)` through the engine: "name" (#NAME?), "refused" (the engine will not compute it), or "known". */
function probeCall(call: string): "name" | "refused" | "known" {
  try {
    const value = probe.evaluate(call);
    return value !== null && typeof value === "object" && "error" in value && value.error === "#NAME?" ? "name" : "known";
  } catch (failure) {
    // An arity error means the engine knows the function; a refusal (WEBSERVICE, CALL, …) that it does not compute it.
    return /refused/i.test(failure instanceof Error ? failure.message : String(failure)) ? "refused" : "known";
  }
}
/** Whether our engine computes a function: `=FN()` gives anything but #NAME? (an arity error counts as known, a refusal not). */
export function engineHasFunction(name: string): boolean {
  let answer = known.get(name);
  if (answer === undefined) {
    const bare = probeCall(`${name}()`);
    // A function refused only for its argument (one that wants a web link) is known.
    answer = bare === "known" || (bare === "refused" && probeCall(`${name}("https://example.com")`) === "known");
    known.set(name, answer);
  }
  return answer;
}

function readsWrongCell(cell: ScoredCell, wrong: Map<string, [number, number][]>): boolean {
  return cell.analysis.reads.some((read) => {
    const sheet = (read.sheet ?? cell.sheet).toLowerCase();
    const self = parseCellAddress(cell.address);
    return (wrong.get(`${cell.workbook}|${sheet}`) ?? []).some(
      ([row, column]) =>
        row >= read.top &&
        row <= read.bottom &&
        column >= read.left &&
        column <= read.right &&
        !(sheet === cell.sheet.toLowerCase() && self?.row === row && self.column === column),
    );
  });
}

/** Gives every disagreement its reason (see the head of this file); `has` says whether the engine knows a function. */
export function explain(cells: ScoredCell[], has: (fn: string) => boolean = engineHasFunction): void {
  const wrong = new Map<string, [number, number][]>();
  for (const cell of cells) {
    if (cell.agree) continue;
    const at = parseCellAddress(cell.address);
    const key = `${cell.workbook}|${cell.sheet.toLowerCase()}`;
    if (at) wrong.set(key, [...(wrong.get(key) ?? []), [at.row, at.column]]);
  }
  for (const cell of cells) {
    if (!cell.agree) cell.reason = reasonOf(cell, has, wrong);
  }
}

function reasonOf(cell: ScoredCell, has: (fn: string) => boolean, wrong: Map<string, [number, number][]>): string {
  const { got, analysis } = cell;
  if (got !== null && typeof got === "object" && "notComputed" in got)
    return got.notComputed === "import failed" ? "import failed" : "not a formula in the model";
  if (analysis.unreadable) return "formula not tokenized";
  const missing = analysis.functions.find((fn) => !has(fn));
  if (missing) return `#NAME? ${missing}`;
  if (analysis.features.includes("external links")) return "feature: external links";
  if (readsWrongCell(cell, wrong)) return "reads a wrong cell";
  const volatile = analysis.features.includes("volatile");
  const feature = analysis.features.find((f) => f !== "volatile");
  if (volatile)
    return `volatile ${analysis.functions.find((f) => ["NOW", "TODAY", "RAND", "RANDBETWEEN", "RANDARRAY", "OFFSET", "INDIRECT", "CELL", "INFO"].includes(f))}`;
  if (feature) return `feature: ${feature}`;
  return `value: ${analysis.functions[0] ?? "operators"}`;
}
