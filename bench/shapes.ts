// npx tsx bench/shapes.ts [RUNS] [RENDER_DIR] — in-thread render time of generated markdown of the
// shapes that were slow, each against pandoc's gfm → docx on the same file in the same run: an
// emoji cheat sheet (about 100 GFM tables of :shortcode:s and links, ~120,000 characters), 15,000
// footnotes (~480 KB) and the 400,000-character corpus of bench:docs (test/fixtures/gen-*.ts).
// Ours and pandoc alternate, RUNS of each (default 5) after two warm-up renders; wall time and CPU
// time (ours: this process's; pandoc's: its own, from /proc/self/stat's reaped-children times),
// medians, and the ratios. RENDER_DIR is another copy of src/documents/render (a previous
// revision's, as bench:docs takes it) to measure on the same files. The machine is shared:
// the CPU ratio is the steadier figure. Prints a table, then the figures as one JSON line.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gemoji } from "gemoji";
import type { renderDocument as Render } from "../src/documents/render/index.ts";
import { generateMarkdown } from "../test/fixtures/gen-markdown.ts";
import { emojiCheatSheet, footnoteDocument } from "../test/fixtures/gen-shapes.ts";
import { median } from "./lib.ts";

const runs = Number(process.argv[2] ?? 5);
const renderDir = process.argv[3] ? resolve(process.argv[3]) : new URL("../src/documents/render", import.meta.url).pathname;
const { renderDocument } = (await import(pathToFileURL(`${renderDir}/index.ts`).href)) as { renderDocument: typeof Render };
const pandoc = spawnSync("pandoc", ["--version"]).status === 0 ? "pandoc" : undefined;

/** CPU time of reaped children: cutime + cstime, fields 16 and 17 of /proc/self/stat, in clock ticks (100 a second). */
function childrenCpuMs(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // Split after the command name (which may hold spaces): the first field is then field 3.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[16 - 3]) + Number(fields[17 - 3])) * 10;
}

async function ours(markdown: string): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await renderDocument(markdown, { title: "bench" });
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
}

function theirs(file: string, out: string): { wall: number; cpu: number } {
  const cpu = childrenCpuMs();
  const started = performance.now();
  // stdio ignored: pandoc warns about each image it cannot fetch.
  execFileSync(pandoc!, ["-f", "gfm", "-t", "docx", "-o", out, file], { stdio: "ignore" });
  return { wall: performance.now() - started, cpu: childrenCpuMs() - cpu };
}

const shapes: [string, string][] = [
  ["emoji cheat sheet", emojiCheatSheet(gemoji)],
  ["15,000 footnotes", footnoteDocument(15_000)],
  ["400k corpus (bench:docs)", generateMarkdown(400_000)],
];

const dir = await mkdtemp(join(tmpdir(), "wg-shapes-"));
const results: Record<string, unknown>[] = [];
try {
  console.log(`renderer: ${renderDir}\n`);
  for (const [name, markdown] of shapes) {
    const file = join(dir, "in.md");
    await writeFile(file, markdown);
    for (let i = 0; i < 2; i++) await ours(markdown);
    const mine: { wall: number; cpu: number }[] = [];
    const peer: { wall: number; cpu: number }[] = [];
    for (let i = 0; i < runs; i++) {
      mine.push(await ours(markdown));
      if (pandoc) peer.push(theirs(file, join(dir, "out.docx")));
    }
    const row = {
      shape: name,
      chars: markdown.length,
      oursMs: median(mine.map((m) => m.wall)),
      oursCpuMs: median(mine.map((m) => m.cpu)),
      pandocMs: pandoc ? median(peer.map((p) => p.wall)) : null,
      pandocCpuMs: pandoc ? median(peer.map((p) => p.cpu)) : null,
    };
    results.push(row);
    const ratio = (a: number, b: number | null) => (b ? `${(a / b).toFixed(3)} ×` : "—");
    console.log(
      `${name.padEnd(26)} ${String(markdown.length).padStart(7)} chars   ours ${row.oursMs.toFixed(0).padStart(5)} ms (cpu ${row.oursCpuMs.toFixed(0)})` +
        `   pandoc ${row.pandocMs?.toFixed(0) ?? "—"} ms (cpu ${row.pandocCpuMs?.toFixed(0) ?? "—"})` +
        `   wall ${ratio(row.oursMs, row.pandocMs)}, cpu ${ratio(row.oursCpuMs, row.pandocCpuMs)} pandoc`,
    );
  }
  console.log(`\n${JSON.stringify({ renderDir, runs, results })}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
