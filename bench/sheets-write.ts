// npm run bench:sheets — the .xlsx writer (src/spreadsheets/io/xlsx/write.ts) against ExcelJS's
// streaming WorkbookWriter, in the same run, on the same 100,000 rows × 10 columns (integers,
// decimals, repeated and unique texts, dates with a date format, and a formula column with its
// computed value). ExcelJS 4 is installed at bench time into a temporary folder (never into
// package.json) and loaded from there. Each writer runs once to warm up, then BENCH_RUNS times
// (default 3) alternately; the medians are compared. ExcelJS gets its rows ready-made (its input
// arrays and Date objects are built before its clock starts); ours reads the cell model as a
// download does. Sizes are of the finished files. Also measured: our writer with inline strings
// instead of shared ones, and our web stream drained; then, for the choice write-strings.ts
// documents, the three ways of writing texts on four shapes of text column (BENCH_SHAPES=0 skips).
// Run it with nice on a shared machine, and read its figures as noisy.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { promisify } from "node:util";
import type { Cell, SheetRow, WorkbookData } from "../src/spreadsheets/cells/types.ts";
import { writeXlsx, xlsxStream } from "../src/spreadsheets/io/xlsx/write.ts";
import { fmt, median } from "./lib.ts";

const ROWS = Number(process.env["BENCH_ROWS"] ?? 100_000);
const RUNS = Number(process.env["BENCH_RUNS"] ?? 3);
const CATEGORIES = ["Hardware", "Software", "Services", "Training", "Support", "Licences", "Travel", "Office", "Cloud", "Consulting"];
const STATUSES = ["open", "paid", "overdue", "cancelled"];
/** 2023-01-01 as a 1900-system serial. */
const FIRST_DAY = 44927;

/** A small deterministic generator (mulberry32), so every run writes the same workbook. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The cell model: a header row, then ROWS rows of 10 columns, J = G × H computed. */
function model(): Cell[][] {
  const next = random(42);
  const rows: Cell[][] = [
    ["Id", "Customer", "Category", "Order", "Date", "Status", "Quantity", "Price", "Discount", "Total"].map((value) => ({ value })),
  ];
  for (let r = 1; r <= ROWS; r++) {
    const quantity = 1 + Math.floor(next() * 50);
    const price = Math.round(next() * 100_000) / 100;
    rows.push([
      { value: r },
      { value: `Customer ${Math.floor(next() * 5_000)}` },
      { value: CATEGORIES[r % CATEGORIES.length]! },
      { value: `SO-${(r * 7919).toString(36).toUpperCase()}-${r}` },
      { value: FIRST_DAY + Math.floor(next() * 1_000), numFmt: "yyyy-mm-dd" },
      { value: STATUSES[Math.floor(next() * STATUSES.length)]! },
      { value: quantity },
      { value: price, numFmt: "#,##0.00" },
      { value: Math.round(next() * 30) / 100, numFmt: "0%" },
      { value: quantity * price, formula: `G${r + 1}*H${r + 1}`, numFmt: "#,##0.00" },
    ]);
  }
  return rows;
}

const workbook = (cells: Cell[][]): WorkbookData => ({
  sheets: [{ name: "Orders", rows: () => cells.map((row, r): SheetRow => [r, row]) }],
});

/** A serial's Date (UTC midnight), as ExcelJS takes dates. */
const dateOf = (serial: number) => new Date(Date.UTC(1899, 11, 30) + serial * 86_400_000);

type ExcelJsModule = {
  stream: {
    xlsx: {
      WorkbookWriter: new (options: Record<string, unknown>) => {
        addWorksheet(name: string): {
          columns: { key: string; style?: Record<string, unknown> }[];
          addRow(values: unknown[]): { commit(): void };
          commit(): void;
        };
        commit(): Promise<void>;
      };
    };
  };
};

async function installExcelJs(dir: string): Promise<{ exceljs: ExcelJsModule; version: string }> {
  const args = ["install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"];
  await promisify(execFile)("npm", [...args, "--prefix", dir, "exceljs@4"], { cwd: dir, timeout: 600_000 });
  const require = createRequire(join(dir, "noop.js"));
  return { exceljs: require("exceljs") as ExcelJsModule, version: (require("exceljs/package.json") as { version: string }).version };
}

/** ExcelJS's streaming writer with shared strings and styles (as its README shows), into memory. */
async function writeExcelJs(exceljs: ExcelJsModule, rows: unknown[][]): Promise<number> {
  const sink = new PassThrough();
  let size = 0;
  sink.on("data", (chunk: Buffer) => (size += chunk.byteLength));
  const writer = new exceljs.stream.xlsx.WorkbookWriter({ stream: sink, useSharedStrings: true, useStyles: true });
  const sheet = writer.addWorksheet("Orders");
  sheet.columns = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"].map((key) => ({ key }));
  sheet.columns[4]!.style = { numFmt: "yyyy-mm-dd" };
  sheet.columns[7]!.style = { numFmt: "#,##0.00" };
  sheet.columns[8]!.style = { numFmt: "0%" };
  sheet.columns[9]!.style = { numFmt: "#,##0.00" };
  for (const values of rows) sheet.addRow(values).commit();
  sheet.commit();
  await writer.commit();
  return size;
}

/** ExcelJS's input for the same model: dates as Date objects, formulas as {formula, result}. */
const excelJsRows = (cells: Cell[][]): unknown[][] =>
  cells.map((row) =>
    row.map((cell) =>
      cell.formula
        ? { formula: cell.formula, result: cell.value }
        : cell.numFmt === "yyyy-mm-dd"
          ? dateOf(cell.value as number)
          : cell.value,
    ),
  );

async function drain(stream: ReadableStream<Uint8Array>): Promise<number> {
  let size = 0;
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) size += next.value.byteLength;
  return size;
}

/** Wall time, and CPU time (every thread of this process: ours deflates on libuv's pool), which other engineers' load disturbs less. */
async function time(run: () => Promise<number>): Promise<{ ms: number; cpu: number; bytes: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const bytes = await run();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpu: (used.user + used.system) / 1000, bytes };
}

/** Text columns of four shapes, 10 columns × ROWS rows each: how they fare shared, inline, and capped (the default). */
async function compareStrings(): Promise<void> {
  const shapes: [string, (r: number, c: number) => string][] = [
    ["few repeated (4 statuses)", (r, c) => STATUSES[(r + c) % 4]!],
    [
      "long repeated (100 × 90 chars)",
      (r, c) => `Description of product line ${(r * 7 + c) % 100}: standard terms and conditions apply, see contract`,
    ],
    ["50,000 distinct names", (r, c) => `Customer ${(r * 31 + c * 17) % 50_000}`],
    ["all distinct (ids)", (r, c) => `id-${r}-${c}`],
  ];
  const ways: [string, number | undefined][] = [
    ["every text shared", Infinity],
    ["all inline", 0],
    ["capped (default)", undefined],
  ];
  console.log(`\ntexts only, ${ROWS.toLocaleString("en")} × 10, median CPU time of ${RUNS}:`);
  for (const [shape, text] of shapes) {
    const rows = Array.from({ length: ROWS }, (_, r): SheetRow => [r, Array.from({ length: 10 }, (_, c) => ({ value: text(r, c) }))]);
    const data: WorkbookData = { sheets: [{ name: "Texts", rows: () => rows }] };
    const cells: string[] = [];
    for (const [way, sharedStrings] of ways) {
      const runs = [];
      for (let i = 0; i < RUNS; i++)
        runs.push(await time(async () => (await writeXlsx(data, { title: "Texts", sharedStrings })).byteLength));
      cells.push(`${way} ${fmt(median(runs.map((run) => run.cpu)))} ${(runs[0]!.bytes / 1e6).toFixed(2)} MB`);
    }
    console.log(`  ${shape.padEnd(32)}${cells.join("  |  ")}`);
  }
}

const dir = await mkdtemp(join(tmpdir(), "wg-bench-sheets-"));
try {
  console.log(`installing exceljs@4 into ${dir} …`);
  const { exceljs, version } = await installExcelJs(dir);
  const cells = model();
  const data = workbook(cells);
  const peerRows = excelJsRows(cells);
  const writers: [string, () => Promise<number>][] = [
    ["ours (default, buffer)", async () => (await writeXlsx(data, { title: "Orders" })).byteLength],
    ["ours (web stream, drained)", () => drain(xlsxStream(data, { title: "Orders" }))],
    ["ours (all texts inline)", async () => (await writeXlsx(data, { title: "Orders", sharedStrings: 0 })).byteLength],
    ["ours (every text shared)", async () => (await writeXlsx(data, { title: "Orders", sharedStrings: Infinity })).byteLength],
    [`ExcelJS ${version} WorkbookWriter`, () => writeExcelJs(exceljs, peerRows)],
  ];
  const results = new Map<string, { ms: number[]; cpu: number[]; bytes: number }>();
  for (const [name, run] of writers) results.set(name, { ms: [], cpu: [], bytes: (await time(run)).bytes });
  for (let i = 0; i < RUNS; i++) {
    for (const [name, run] of writers) {
      const { ms, cpu } = await time(run);
      results.get(name)!.ms.push(ms);
      results.get(name)!.cpu.push(cpu);
    }
  }
  const peer = results.get(`ExcelJS ${version} WorkbookWriter`)!;
  console.log(`\n${ROWS.toLocaleString("en")} rows × 10 columns, median of ${RUNS} runs after a warm-up (Node ${process.version})\n`);
  console.log(`${"writer".padEnd(34)}${"wall".padStart(11)}${"CPU".padStart(11)}${"size".padStart(11)}  wall ratio  CPU ratio  size ratio`);
  for (const [name, { ms, cpu, bytes }] of results) {
    const [wall, used] = [median(ms), median(cpu)];
    const ratio = (x: number, of: number) => `${(x / of).toFixed(2)}×`.padStart(10);
    console.log(
      `${name.padEnd(34)}${fmt(wall).padStart(11)}${fmt(used).padStart(11)}${`${(bytes / 1e6).toFixed(2)} MB`.padStart(11)}  ${ratio(wall, median(peer.ms))} ${ratio(used, median(peer.cpu))} ${`${(bytes / peer.bytes).toFixed(3)}×`.padStart(10)}`,
    );
  }
  console.log("\nratios are against ExcelJS; targets: time ≤ 0.5×, size ≤ 1.1× (shared machine: timings are noisy)");
  if (process.env["BENCH_SHAPES"] !== "0") await compareStrings();
} finally {
  await rm(dir, { recursive: true, force: true });
}
