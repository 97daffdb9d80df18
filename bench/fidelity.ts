// npm run bench:fidelity [FILES] — word fidelity of our renderer and of pandoc on the README
// corpus of test/documents/render/corpus.test.ts (FILES of the node_modules READMEs, default 40;
// `all` for every one): each .docx read back by pandoc, words compared with pandoc's GitHub-like
// reading of the markdown (method: test/documents/render/corpus.ts). Prints corpus-wide word
// precision and recall, the lowest file scores, and the time each converter took.
import { readFileSync, statSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderDocument } from "../src/documents/render/index.ts";
import { corpusReadmes, docxText, mapLimit, pandocRun, readerText, score, words, type Score } from "../test/documents/render/corpus.ts";

const pandoc = process.env["PANDOC_PATH"] ?? "pandoc";
const files = corpusReadmes(
  process.argv[2] === "all" ? Number.MAX_SAFE_INTEGER : Number(process.argv[2] ?? 40),
  120_000,
  (p) => statSync(p).size,
);
const dir = await mkdtemp(join(tmpdir(), "wg-fidelity-"));

interface Row {
  file: string;
  ours: Score;
  pandoc: Score;
  oursMs: number;
  pandocMs: number;
}

try {
  const rows = await mapLimit(files, 2, async (file, i): Promise<Row> => {
    const markdown = readFileSync(file, "utf8");
    const reference = words(await readerText(pandoc, markdown));
    let started = performance.now();
    const { docx } = await renderDocument(markdown, { title: "fidelity" });
    const oursMs = performance.now() - started;
    started = performance.now();
    const out = join(dir, `${i}.docx`);
    await pandocRun(pandoc, ["-f", "gfm", "-t", "docx", "-o", out], markdown);
    const pandocMs = performance.now() - started;
    const [ours, theirs] = await Promise.all([docxText(pandoc, docx), docxText(pandoc, await readFile(out))]);
    return {
      file: file.slice(file.lastIndexOf("node_modules/") + 13),
      ours: score(words(ours), reference),
      pandoc: score(words(theirs), reference),
      oursMs,
      pandocMs,
    };
  });
  const total = (pick: (r: Row) => Score) => {
    const sum = rows.reduce(
      (a, r) => ({ common: a.common + pick(r).common, ours: a.ours + pick(r).ours, reference: a.reference + pick(r).reference }),
      { common: 0, ours: 0, reference: 0 },
    );
    return { precision: sum.common / sum.ours, recall: sum.common / sum.reference };
  };
  const lowest = (pick: (r: Row) => Score) =>
    [...rows]
      .sort((a, b) => Math.min(pick(a).precision, pick(a).recall) - Math.min(pick(b).precision, pick(b).recall))
      .slice(0, 3)
      .map((r) => `${r.file} P ${pick(r).precision.toFixed(3)} R ${pick(r).recall.toFixed(3)}`)
      .join("; ");
  const ms = (pick: (r: Row) => number) => rows.reduce((a, r) => a + pick(r), 0);
  const ours = total((r) => r.ours);
  const theirs = total((r) => r.pandoc);
  console.log(`
fidelity bench — ${rows.length} node_modules READMEs, words read back by pandoc vs pandoc's GitHub-like reading
  ours    precision ${ours.precision.toFixed(4)}  recall ${ours.recall.toFixed(4)}  render ${ms((r) => r.oursMs).toFixed(0)} ms in all
          lowest: ${lowest((r) => r.ours)}
  pandoc  precision ${theirs.precision.toFixed(4)}  recall ${theirs.recall.toFixed(4)}  gfm→docx ${ms((r) => r.pandocMs).toFixed(0)} ms in all
          lowest: ${lowest((r) => r.pandoc)}
`);
  console.log(JSON.stringify({ files: rows.length, ours, pandoc: theirs }));
} finally {
  await rm(dir, { recursive: true, force: true });
}
