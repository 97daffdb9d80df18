// npx tsx bench/render-table.ts [RUNS] — the wide table (200 columns × ~1,000 rows, under
// 400,000 characters) rendered in this thread: median time of RUNS renders (after one warm-up) and
// the process's peak RSS above its RSS before the first render. Prints one JSON line, which
// `npm run bench:docs` reads (targets: ≤ 1 s, ≤ 200 MB).
import { readFileSync } from "node:fs";
import { renderDocument } from "../src/documents/render/index.ts";

const runs = Number(process.argv[2] ?? 3);
// As bench/render-pressure.ts: a header, the delimiter row and 990 rows, 398,784 characters.
const row = `|${"a|".repeat(200)}\n`;
const markdown = `${row}|${"-|".repeat(200)}\n${row.repeat(990)}`;
const rssMb = (field: "VmRSS" | "VmHWM") => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync("/proc/self/status", "utf8"))?.[1]) / 1024;

const baseline = rssMb("VmRSS");
const times: number[] = [];
for (let i = 0; i <= runs; i++) {
  const started = performance.now();
  await renderDocument(markdown, { title: "wide table" });
  if (i > 0) times.push(performance.now() - started);
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
