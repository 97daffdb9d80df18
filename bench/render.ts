// npx tsx bench/render.ts [CHARS] [RUNS] — markdown → .docx on a generated document
// (test/fixtures/gen-markdown.ts): the renderer in this thread, split into parse+build and
// pack, then the same document through a one-worker RenderPool (round trip, bytes transferred).
// Prints medians; the first renders are warm-up and not counted. BENCH_PAUSE_MS idles that long
// before each pool render, as bench:docs's creates idle during its pandoc runs.
import { RenderPool } from "../src/documents/pool/index.ts";
import { buildDocument } from "../src/documents/render/package.ts";
import { generateMarkdown } from "../test/fixtures/gen-markdown.ts";

const chars = Number(process.argv[2] ?? 400_000);
const runs = Number(process.argv[3] ?? 9);
const markdown = generateMarkdown(chars);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const ms = (x: number) => `${x.toFixed(0)} ms`;

const build: number[] = [];
const pack: number[] = [];
const total: number[] = [];
for (let i = 0; i < runs + 3; i++) {
  const t0 = performance.now();
  const built = buildDocument(markdown, { title: "bench" });
  const t1 = performance.now();
  await built.pack();
  const t2 = performance.now();
  if (i >= 3) {
    build.push(t1 - t0);
    pack.push(t2 - t1);
    total.push(t2 - t0);
  }
}
console.log(
  `in-thread, ${markdown.length} chars, median of ${runs}: parse+build ${ms(median(build))}, pack ${ms(median(pack))}, total ${ms(median(total))}`,
);

const young = process.env["YOUNG_MB"] ? Number(process.env["YOUNG_MB"]) : undefined;
const pool = new RenderPool({ size: 1, maxQueue: 4, warmup: 4, ...(young ? { youngGenerationMb: young } : {}) });
try {
  const first = performance.now();
  await pool.render(markdown, "bench");
  const firstMs = performance.now() - first;
  const round: number[] = [];
  let bytes = 0;
  const pauseMs = Number(process.env["BENCH_PAUSE_MS"] ?? 0);
  for (let i = 0; i < runs; i++) {
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    const t0 = performance.now();
    const result = await pool.render(markdown, "bench");
    round.push(performance.now() - t0);
    bytes = result.docx.byteLength;
  }
  console.log(
    `pool (1 worker, warm-up 4${pauseMs > 0 ? `, ${pauseMs} ms idle before each` : ""}): first ${ms(firstMs)}, median of ${runs} ${ms(median(round))}, ${bytes} bytes`,
  );
} finally {
  await pool.close();
}
