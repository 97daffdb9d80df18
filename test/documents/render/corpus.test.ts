// Real-world markdown keeps its words (docs/api.md "Markdown to .docx"): 40 README.md files of
// the project's own node_modules, rendered and read back by pandoc, against pandoc's reading of
// the markdown as a reader sees it (raw HTML rendered, tags gone). Word precision and recall,
// over the whole corpus and for each file, are at least 0.99; the method is in ./corpus.ts.
// Without pandoc the file is skipped (one line says so), except under CI=true.
import { readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderDocument } from "../../../src/documents/render/index.ts";
import { requireProgram } from "../../helpers/external.ts";
import { corpusReadmes, docxText, mapLimit, readerText, score, words, type Score } from "./corpus.ts";

const pandoc = requireProgram("pandoc", {
  envVar: "PANDOC_PATH",
  install: "apt-get install -y pandoc",
  purpose: "the README corpus test (test/documents/render/corpus.test.ts)",
});

/** At least 30 (the floor); 40 keeps the run near 30 s on two cores. */
const FILES = 40;
/** Two pandoc processes at a time: the machine's two cores are shared with other test runs. */
const PARALLEL = 2;

describe.skipIf(!pandoc)("README corpus: words kept, none added", () => {
  it(`${FILES} node_modules READMEs: word precision and recall ≥ 0.99`, { timeout: 180_000 }, async () => {
    const files = corpusReadmes(FILES, 120_000, (path) => statSync(path).size);
    expect(files.length).toBeGreaterThanOrEqual(30);
    const scores = await mapLimit(files, PARALLEL, async (file) => {
      const markdown = readFileSync(file, "utf8");
      const { docx } = await renderDocument(markdown, { title: "corpus" });
      const [ours, reference] = await Promise.all([docxText(pandoc!, docx), readerText(pandoc!, markdown)]);
      return { file: file.slice(file.lastIndexOf("node_modules/") + 13), ...score(words(ours), words(reference)) };
    });
    const total = scores.reduce(
      (sum, s) => ({ common: sum.common + s.common, ours: sum.ours + s.ours, reference: sum.reference + s.reference }),
      {
        common: 0,
        ours: 0,
        reference: 0,
      },
    );
    const below = scores.filter((s: Score & { file: string }) => s.precision < 0.99 || s.recall < 0.99);
    // The files below the bar, with the words they gain and lose, are the report when this fails.
    expect(below.map(({ file, precision, recall, extra, missing }) => ({ file, precision, recall, extra, missing }))).toEqual([]);
    expect(total.common / total.ours).toBeGreaterThanOrEqual(0.99);
    expect(total.common / total.reference).toBeGreaterThanOrEqual(0.99);
  });
});
