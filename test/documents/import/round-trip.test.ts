// Our own .docx back through import: the text equals the renderer's own (the §4 shape, so an
// imported document reads like a created one), and markdown → .docx → extract().markdown → .docx
// keeps pandoc's block counts (headings, tables, lists, code blocks) of the first .docx.
import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { extractDocx } from "../../../src/documents/import/index.ts";
import { renderDocument } from "../../../src/documents/render/index.ts";
import { generateMarkdown } from "../../fixtures/gen-markdown.ts";
import { requireProgram } from "../../helpers/external.ts";
import { pandocBlocks } from "./pandoc-blocks.ts";

const fixtureDir = fileURLToPath(new URL("../../fixtures/markdown/", import.meta.url));
const fixtures = readdirSync(fixtureDir).filter((f) => f.endsWith(".md"));
const pandoc = requireProgram("pandoc", {
  envVar: "PANDOC_PATH",
  install: "apt-get install -y pandoc",
  purpose: "the import round-trip block counts (test/documents/import/round-trip.test.ts)",
});

const markdownOf = async (fixture: string) => readFile(`${fixtureDir}${fixture}`, "utf8");

describe("a .docx made by our renderer, imported", () => {
  it.each(fixtures)("%s: the text is the renderer's own text", async (fixture) => {
    const { docx, text } = await renderDocument(await markdownOf(fixture), { title: fixture });
    expect((await extractDocx(docx)).text).toBe(text);
  });

  it("a generated 60k-character document: the same text, and markdown for every block", async () => {
    const { docx, text } = await renderDocument(generateMarkdown(60_000, 7), { title: "generated" });
    const extracted = await extractDocx(docx);
    expect(extracted.text).toBe(text);
    expect(extracted.markdown).toMatch(/^#{1,6} /m);
    expect(extracted.markdown).toMatch(/^\| --- \|/m);
  });

  it("the markdown carries headings, nested and ordered lists, a table, links, code and emphasis", async () => {
    const { docx } = await renderDocument(
      [
        "# Plan",
        "## Steps",
        "1. first\n2. second\n   - nested *point*\n3. third",
        "| Item | Cost |\n|---|---|\n| Venue | `2,400` |\n| Food | **1,150** |",
        "See [the brief](https://example.com/brief?id=7) and ~~old~~ notes.",
        "```\nconst a = 1;\n    indented\n```",
        "> quoted",
      ].join("\n\n"),
      { title: "plan" },
    );
    expect((await extractDocx(docx)).markdown).toBe(
      [
        "# Plan",
        "## Steps",
        "1. first\n2. second\n   - nested *point*\n3. third",
        "| Item | Cost |\n| --- | --- |\n| Venue | `2,400` |\n| Food | **1,150** |",
        "See [the brief](https://example.com/brief?id=7) and ~~old~~ notes.",
        "```\nconst a = 1;\n    indented\n```",
        "> quoted",
      ].join("\n\n") + "\n",
    );
  });

  it("text that looks like markup stays text", async () => {
    const plain = "# not a heading, 1. not a list, *not em*, [not](a link), <b>no tag</b>, :smile:, &amp; | pipe";
    const { docx } = await renderDocument(plain.replace(/[#*[\]<>:&|\\]/g, "\\$&"), { title: "escapes" });
    const { markdown, text } = await extractDocx(docx);
    expect(text).toBe(plain);
    const again = await renderDocument(markdown, { title: "again" });
    expect(again.text).toBe(plain);
  });
});

describe.skipIf(!pandoc)("round trip keeps pandoc's block counts", () => {
  it.each([...fixtures, "generated"])("%s", async (fixture) => {
    const markdown = fixture === "generated" ? generateMarkdown(40_000, 11) : await markdownOf(fixture);
    const first = await renderDocument(markdown, { title: fixture });
    const { markdown: extracted } = await extractDocx(first.docx);
    const second = await renderDocument(extracted, { title: fixture });
    expect(await pandocBlocks(pandoc!, second.docx)).toEqual(await pandocBlocks(pandoc!, first.docx));
  });
});
