// One pass over the corpus for the bench and the system test: every workbook's formula cells scored
// for our engine and, when soffice is given, for LibreOffice Calc on the same cells, each
// disagreement with its reason.
import { readFileSync } from "node:fs";
import { formulaCells } from "./cells.ts";
import { libreOfficeValues } from "./libreoffice.ts";
import type { CorpusWorkbook } from "./manifest.ts";
import { engineHasFunction, explain, ourEngine, scoreCells, type ScoredCell } from "./score.ts";

export interface CorpusRun {
  ours: ScoredCell[];
  /** Workbook → why our import refused it. */
  oursFailed: Map<string, string>;
  oursSeconds: number;
  libreOffice?: { cells: ScoredCell[]; version: string; seconds: number; failed: Map<string, string> };
}

const isNameError = (cell: ScoredCell) =>
  cell.got !== null && typeof cell.got === "object" && "error" in cell.got && cell.got.error === "#NAME?";

/** Functions a peer lacks, as far as the corpus shows: some cell calling it came out #NAME? where Excel had none. */
export function peerHas(cells: ScoredCell[]): (fn: string) => boolean {
  const lacking = new Set<string>();
  for (const cell of cells) {
    const expectedName = typeof cell.expected === "object" && cell.expected.error === "#NAME?";
    if (isNameError(cell) && !expectedName) for (const fn of cell.analysis.functions) lacking.add(fn);
  }
  return (fn) => !lacking.has(fn);
}

export async function runCorpus(workbooks: CorpusWorkbook[], options: { soffice?: string; nice?: string } = {}): Promise<CorpusRun> {
  const ours: ScoredCell[] = [];
  const oursFailed = new Map<string, string>();
  const cellsOf = new Map<string, ReturnType<typeof formulaCells>>();
  const started = performance.now();
  for (const workbook of workbooks) {
    const bytes = readFileSync(workbook.file);
    const read = formulaCells(bytes);
    cellsOf.set(workbook.name, read);
    const result = ourEngine(bytes);
    if (result.failed) oursFailed.set(workbook.name, result.failed);
    ours.push(...scoreCells(workbook.name, read.cells, result, read.date1904));
  }
  const oursSeconds = (performance.now() - started) / 1000;
  explain(ours, engineHasFunction);
  if (!options.soffice) return { ours, oursFailed, oursSeconds };

  const lo = await libreOfficeValues(options.soffice, workbooks, options.nice);
  const cells: ScoredCell[] = [];
  const failed = new Map<string, string>();
  for (const workbook of workbooks) {
    const result = lo.results.get(workbook.name)!;
    if (result.failed) failed.set(workbook.name, result.failed);
    cells.push(...scoreCells(workbook.name, cellsOf.get(workbook.name)!.cells, result));
  }
  explain(cells, peerHas(cells));
  return { ours, oursFailed, oursSeconds, libreOffice: { cells, version: lo.version, seconds: lo.seconds, failed } };
}
