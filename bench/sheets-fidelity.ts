// npm run bench:fidelity — the spreadsheet engine against Excel on the Excel oracle corpus
// (test/spreadsheets/excel-corpus/, fetched by `npm run corpus:excel`): every formula cell's value
// computed by our engine (imported as the service imports an upload, Excel's cached values removed)
// and by LibreOffice Calc (headless, recalculating on load; skipped with a line when soffice is
// missing) against the value Excel cached. Prints agreement per function category for both on the
// same cells, our disagreements by reason and the functions the corpus calls that the engine lacks;
// writes every disagreement (workbook, cell, formula, expected, got, reason) to
// test/artifacts/excel-fidelity/{ours,libreoffice}.tsv and the figures to summary.json there. The
// documents renderer's fidelity bench is `npm run bench:fidelity:docs`.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { findProgram } from "../test/helpers/external.ts";
import { corpusWorkbooks, loadManifest } from "../test/spreadsheets/excel-corpus/manifest.ts";
import {
  categoryRows,
  categoryTable,
  disagreementLines,
  missingFunctions,
  reasonCounts,
  volatileSummary,
  type Column,
} from "../test/spreadsheets/excel-corpus/report.ts";
import { peerHas, runCorpus } from "../test/spreadsheets/excel-corpus/run.ts";
import { engineHasFunction } from "../test/spreadsheets/excel-corpus/score.ts";

const out = resolve(import.meta.dirname, "../test/artifacts/excel-fidelity");
const manifest = loadManifest();
const { workbooks, missing } = corpusWorkbooks(manifest);
if (missing.length > 0) {
  console.error(
    `bench:fidelity: ${missing.length} corpus workbooks are missing or altered (first: ${missing[0]}); run \`npm run corpus:excel\` first.`,
  );
  process.exit(1);
}

const soffice = findProgram("soffice", "SOFFICE_PATH");
if (!soffice)
  console.error("bench:fidelity: soffice not found (apt-get install libreoffice-calc-nogui): the LibreOffice column is left out");
const run = await runCorpus(workbooks, { soffice, nice: findProgram("nice") });
const { ours, libreOffice } = run;
const failures = [...run.oursFailed].map(([name, why]) => `${name}: ${why}`);

const columns: Column[] = [
  { name: "ours", cells: ours },
  ...(libreOffice ? [{ name: `LibreOffice ${libreOffice.version.split(" ")[1] ?? ""}`.trim(), cells: libreOffice.cells }] : []),
];
const reasons = reasonCounts(ours);
const lacking = missingFunctions(ours, engineHasFunction);
const sources = new Set(workbooks.map((w) => w.source.id));

mkdirSync(out, { recursive: true });
const header = ["workbook", "cell", "formula", "expected (Excel)", "got", "reason"].join("\t");
writeFileSync(join(out, "ours.tsv"), [header, ...disagreementLines(ours)].join("\n") + "\n");
if (libreOffice) writeFileSync(join(out, "libreoffice.tsv"), [header, ...disagreementLines(libreOffice.cells)].join("\n") + "\n");
const loReasons = libreOffice ? reasonCounts(libreOffice.cells) : [];
const loLacking = libreOffice ? missingFunctions(libreOffice.cells, peerHas(libreOffice.cells)) : [];
writeFileSync(
  join(out, "summary.json"),
  JSON.stringify(
    {
      workbooks: workbooks.length,
      sources: sources.size,
      cells: ours.length,
      columns: columns.map((c) => c.name),
      categories: categoryRows(columns),
      reasons,
      lacking,
      failures,
      ...(libreOffice
        ? { libreOffice: { version: libreOffice.version, seconds: libreOffice.seconds, reasons: loReasons, lacking: loLacking } }
        : {}),
    },
    null,
    1,
  ),
);

console.log(`
Excel fidelity — ${workbooks.length} Excel-saved workbooks from ${sources.size} sources, ${ours.length} formula cells with Excel's cached values
(our engine ${run.oursSeconds.toFixed(1)} s${libreOffice ? `, LibreOffice ${libreOffice.seconds.toFixed(1)} s with its start-up` : ""}; a cell counts in every category whose functions it calls)

${categoryTable(columns)}

${volatileSummary(columns)}

disagreements by reason (cells):
${reasons.map(([reason, n]) => `  ${String(n).padStart(5)}  ${reason}`).join("\n")}

functions the corpus calls that our engine lacks (cells that call each):
  ${lacking.map(([fn, n]) => `${fn} ${n}`).join(", ") || "none"}
${libreOffice ? `\nLibreOffice's disagreements by reason (cells):\n${loReasons.map(([reason, n]) => `  ${String(n).padStart(5)}  ${reason}`).join("\n")}\nfunctions LibreOffice gave #NAME? for: ${loLacking.map(([fn, n]) => `${fn} ${n}`).join(", ") || "none"}\n` : ""}${failures.length ? `\nworkbooks our import refused:\n${failures.map((f) => `  ${f}`).join("\n")}\n` : ""}
every disagreement: ${join(out, "ours.tsv")}`);
