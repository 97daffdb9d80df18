// npm run bench:fidelity — the spreadsheet engine against Excel on the Excel oracle corpus
// (test/spreadsheets/excel-corpus/, fetched by `npm run corpus:excel`): every formula cell's value
// computed by our engine (imported as the service imports an upload, Excel's cached values removed)
// against the value Excel cached. Prints agreement per function category, disagreements by reason
// and the functions the corpus calls that the engine lacks; writes every disagreement (workbook,
// cell, formula, expected, got, reason) to test/artifacts/excel-fidelity/ours.tsv and the figures
// to test/artifacts/excel-fidelity/summary.json. The documents renderer's fidelity bench is
// `npm run bench:fidelity:docs`.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { corpusWorkbooks, loadManifest } from "../test/spreadsheets/excel-corpus/manifest.ts";
import {
  categoryRows,
  categoryTable,
  disagreementLines,
  missingFunctions,
  reasonCounts,
  type Column,
} from "../test/spreadsheets/excel-corpus/report.ts";
import { engineHasFunction, explain, scoreOurs, type ScoredCell } from "../test/spreadsheets/excel-corpus/score.ts";

const out = resolve(import.meta.dirname, "../test/artifacts/excel-fidelity");
const manifest = loadManifest();
const { workbooks, missing } = corpusWorkbooks(manifest);
if (missing.length > 0) {
  console.error(
    `bench:fidelity: ${missing.length} corpus workbooks are missing or altered (first: ${missing[0]}); run \`npm run corpus:excel\` first.`,
  );
  process.exit(1);
}

const started = performance.now();
const ours: ScoredCell[] = [];
const failures: string[] = [];
for (const workbook of workbooks) {
  const scored = scoreOurs(workbook);
  if (scored.failed) failures.push(`${workbook.name}: ${scored.failed}`);
  ours.push(...scored.cells);
}
explain(ours);
const seconds = (performance.now() - started) / 1000;

const columns: Column[] = [{ name: "ours", cells: ours }];
const reasons = reasonCounts(ours);
const lacking = missingFunctions(ours, engineHasFunction);
const sources = new Set(workbooks.map((w) => w.source.id));

mkdirSync(out, { recursive: true });
const header = ["workbook", "cell", "formula", "expected (Excel)", "got", "reason"].join("\t");
writeFileSync(join(out, "ours.tsv"), [header, ...disagreementLines(ours)].join("\n") + "\n");
writeFileSync(
  join(out, "summary.json"),
  JSON.stringify(
    {
      workbooks: workbooks.length,
      sources: sources.size,
      cells: ours.length,
      categories: categoryRows(columns),
      reasons,
      lacking,
      failures,
    },
    null,
    1,
  ),
);

console.log(`
Excel fidelity — ${workbooks.length} Excel-saved workbooks from ${sources.size} sources, ${ours.length} formula cells with Excel's cached values
(our engine: ${seconds.toFixed(1)} s; a cell counts in every category whose functions it calls)

${categoryTable(columns)}

disagreements by reason (cells):
${reasons.map(([reason, n]) => `  ${String(n).padStart(5)}  ${reason}`).join("\n")}

functions the corpus calls that our engine lacks (cells that call each):
  ${lacking.map(([fn, n]) => `${fn} ${n}`).join(", ") || "none"}
${failures.length ? `\nworkbooks our import refused:\n${failures.map((f) => `  ${f}`).join("\n")}\n` : ""}
every disagreement: ${join(out, "ours.tsv")}`);
