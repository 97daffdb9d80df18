// npx tsx bench/render-compare.ts MARKDOWN_FILE RENDER_DIR [RUNS] — in-thread render time of the
// same markdown by this renderer and by another copy of src/documents/render (bench:docs passes
// the previous release's), alternating A/B so that a shared machine's drift falls on both.
// Prints one JSON line: medians in ms and the .docx sizes.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { renderDocument as current } from "../src/documents/render/index.ts";

const [file, dir, runsArg] = process.argv.slice(2);
if (!file || !dir) throw new Error("usage: render-compare.ts MARKDOWN_FILE RENDER_DIR [RUNS]");
const markdown = readFileSync(file, "utf8");
const { renderDocument: previous } = (await import(pathToFileURL(`${resolve(dir)}/index.ts`).href)) as { renderDocument: typeof current };
const runs = Number(runsArg ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const times = { current: [] as number[], previous: [] as number[] };
const bytes = { current: 0, previous: 0 };
// Two warm-up rounds each, then RUNS alternating pairs.
for (let i = 0; i < runs + 2; i++) {
  for (const [name, render] of [
    ["current", current],
    ["previous", previous],
  ] as const) {
    const started = performance.now();
    const { docx } = await render(markdown, { title: "compare" });
    if (i >= 2) times[name].push(performance.now() - started);
    bytes[name] = docx.byteLength;
  }
}
console.log(JSON.stringify({ currentMs: Math.round(median(times.current)), previousMs: Math.round(median(times.previous)), bytes }));
