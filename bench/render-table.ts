// npx tsx bench/render-table.ts [RUNS] [RENDER_DIR] [WARMUPS] — the wide table (200 columns
// × ~1,000 rows, under 400,000 characters) rendered in this thread: median time of RUNS renders
// (after WARMUPS, default 1) and the process's peak RSS above its RSS before the first render.
// RENDER_DIR is another copy of src/documents/render (bench:docs passes the previous release's).
// Prints one JSON line, which `npm run bench:docs` reads (targets: ≤ 1 s, ≤ 200 MB).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { renderDocument as Render } from "../src/documents/render/index.ts";

const runs = Number(process.argv[2] ?? 3);
const renderDir = process.argv[3] ? resolve(process.argv[3]) : new URL("../src/documents/render", import.meta.url).pathname;
const warmups = Number(process.argv[4] ?? 1);
const { renderDocument } = (await import(pathToFileURL(`${renderDir}/index.ts`).href)) as { renderDocument: typeof Render };
// As bench/render-pressure.ts: a header, the delimiter row and 990 rows, 398,784 characters.
const row = `|${"a|".repeat(200)}\n`;
const markdown = `${row}|${"-|".repeat(200)}\n${row.repeat(990)}`;
const rssMb = (field: "VmRSS" | "VmHWM") =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync("/proc/self/status", "utf8"))?.[1]) / 1024;

const baseline = rssMb("VmRSS");
const times: number[] = [];
for (let i = 0; i < warmups + runs; i++) {
  const started = performance.now();
  await renderDocument(markdown, { title: "wide table" });
  if (i >= warmups) times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    chars: markdown.length,
    medianMs: Math.round(times[Math.floor(times.length / 2)]!),
    peakRssMb: Math.round(rssMb("VmHWM")),
    peakAboveBaselineMb: Math.round(rssMb("VmHWM") - baseline),
  }),
);
