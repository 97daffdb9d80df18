// npm run bench:sheets-import — the spreadsheet readers on 100,000 rows × 10 columns (figures on a
// shared machine are noisy; each is the median of BENCH_ROUNDS runs, default 5):
//   - .csv: our reader (src/spreadsheets/io/csv-read.ts: decode, sniff, check, and one walk of the
//     rows) against papaparse and csv-parse parsing the same text (installed into a temporary folder
//     at bench time, not dependencies; left out when npm cannot install them);
//   - .xlsx: a workbook of that size (shared strings and numbers) read and walked, with the heap
//     it holds after reading (the compact cell store) and the process's peak RSS.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readCsv } from "../src/spreadsheets/io/csv-read.ts";
import { readXlsx } from "../src/spreadsheets/io/xlsx/read.ts";
import { buildXlsx } from "../test/spreadsheets/xlsx-fixtures.ts";

const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 5);
const ROWS = 100_000;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
function time(run: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return median(times);
}

const lines: string[] = [];
for (let r = 0; r < ROWS; r++)
  lines.push(
    Array.from({ length: 10 }, (_, c) => (c % 3 === 0 ? `"name ${r}, ${c}"` : c % 3 === 1 ? String(r * 1.5) : `00${c}${r}`)).join(","),
  );
const csvText = lines.join("\r\n") + "\r\n";
const csvBytes = new Uint8Array(Buffer.from(csvText));

const ours = time(() => {
  let cells = 0;
  for (const [, row] of readCsv(csvBytes).sheets[0]!.rows()) cells += row.length;
  if (cells !== ROWS * 10) throw new Error(`read ${cells} cells`);
});
console.log(`.csv ${ROWS} × 10 (${(csvBytes.length / 1e6).toFixed(1)} MB): ours ${ours.toFixed(0)} ms`);

const peers = mkdtempSync(join(tmpdir(), "bench-csv-"));
try {
  execFileSync("npm", ["install", "--silent", "--no-audit", "--no-fund", "--prefix", peers, "papaparse@5", "csv-parse@7"], {
    stdio: "ignore",
    timeout: 180_000,
  });
  const modules = join(peers, "node_modules");
  const Papa = (await import(pathToFileURL(join(modules, "papaparse", "papaparse.js")).href)).default as {
    parse(text: string, options: object): { data: unknown[] };
  };
  const { parse } = (await import(pathToFileURL(join(modules, "csv-parse", "dist", "esm", "sync.js")).href)) as {
    parse(text: string, options: object): unknown[];
  };
  const papa = time(() => Papa.parse(csvText, { delimiter: "," }));
  const csvParse = time(() => parse(csvText, { relax_quotes: true }));
  console.log(
    `  papaparse ${papa.toFixed(0)} ms (ours ${(ours / papa).toFixed(2)}×), csv-parse ${csvParse.toFixed(0)} ms (ours ${(ours / csvParse).toFixed(2)}×)`,
  );
} catch (error) {
  console.log(`  peers left out: npm could not install papaparse and csv-parse (${String(error).split("\n")[0]})`);
} finally {
  rmSync(peers, { recursive: true, force: true });
}

const strings = Array.from({ length: 1000 }, (_, i) => `<t>label ${i}</t>`);
const rows: string[] = [];
for (let r = 1; r <= ROWS; r++) {
  let cells = "";
  for (let c = 0; c < 10; c++) {
    const ref = `${String.fromCharCode(65 + c)}${r}`;
    cells += c % 2 === 0 ? `<c r="${ref}" t="s"><v>${(r + c) % 1000}</v></c>` : `<c r="${ref}"><v>${r * c + 0.5}</v></c>`;
  }
  rows.push(`<row r="${r}">${cells}</row>`);
}
const xlsx = buildXlsx({ sheets: [{ name: "Big", data: rows.join("") }], sharedStrings: strings });
let heldMb = 0;
// The read is one synchronous call: RSS is sampled after it and after the walk, not by a timer.
let peakRss = 0;
const xlsxMs = time(() => {
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const workbook = readXlsx(xlsx);
  heldMb = (process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers - before) / 1e6;
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  let cells = 0;
  for (const [, row] of workbook.sheets[0]!.rows()) cells += row.length;
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  if (cells !== ROWS * 10) throw new Error(`read ${cells} cells`);
});
console.log(
  `.xlsx ${ROWS} × 10 (${(xlsx.length / 1e6).toFixed(1)} MB zipped): read and walked in ${xlsxMs.toFixed(0)} ms (${((ROWS * 10) / xlsxMs / 1000).toFixed(2)} M cells/s); ~${heldMb.toFixed(0)} MB held after reading (without --expose-gc this includes garbage); RSS after reading and walking ${(peakRss / 1e6).toFixed(0)} MB`,
);
