// Packages written from the template (src/documents/render/package-template.ts) are the packages
// docx writes for the same documents: the same parts, each byte for byte, but for the times of
// writing in core.xml and the random ids docx gives hyperlink relationships, in docx's order but for
// document.xml.rels, which the template writes after document.xml (its links are known once the
// body is written).
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { buildDocument } from "../../../src/documents/render/package.ts";
import { generateMarkdown } from "../../fixtures/gen-markdown.ts";
import { emojiCheatSheet } from "../../fixtures/gen-shapes.ts";
import { gemoji } from "gemoji";
import { mammothText } from "./docx.ts";

const fixtureDir = fileURLToPath(new URL("../../fixtures/markdown/", import.meta.url));

/** A package's parts by name, in order, with core.xml's times and hyperlink ids made comparable. */
async function parts(docx: Uint8Array): Promise<[string, string][]> {
  const zip = await JSZip.loadAsync(docx);
  const out: [string, string][] = [];
  for (const file of Object.values(zip.files)) {
    const text = (await file.async("string")).replace(/(W3CDTF">)[^<]*/g, "$1TIME");
    out.push([file.name, text]);
  }
  // Hyperlink relationship ids, numbered in order of first use, in document.xml and footnotes.xml.
  for (const [partName, relsName] of [
    ["word/document.xml", "word/_rels/document.xml.rels"],
    ["word/footnotes.xml", "word/_rels/footnotes.xml.rels"],
  ]) {
    const rels = out.find(([name]) => name === relsName);
    const part = out.find(([name]) => name === partName);
    if (!rels || !part) continue;
    const ids = new Map<string, string>();
    part[1] = part[1].replace(/r:id="([^"]+)"/g, (all, id: string) =>
      rels[1].includes(`Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink"`)
        ? `r:id="${ids.get(id) ?? ids.set(id, `LINK${ids.size + 1}`).get(id)}"`
        : all,
    );
    rels[1] = rels[1].replace(
      /Id="([^"]+)"( Type="[^"]+\/hyperlink")/g,
      (_, id: string, type: string) => `Id="${ids.get(id) ?? id}"${type}`,
    );
  }
  return out;
}

/** docx's parts in the template's order: document.xml.rels moved to just after document.xml. */
function inTemplateOrder(docxParts: [string, string][]): [string, string][] {
  const rels = docxParts.find(([name]) => name === "word/_rels/document.xml.rels")!;
  const rest = docxParts.filter((part) => part !== rels);
  const document = rest.findIndex(([name]) => name === "word/document.xml");
  return [...rest.slice(0, document + 1), rels, ...rest.slice(document + 1)];
}

const samples: [string, string][] = [
  ...readdirSync(fixtureDir)
    .filter((name) => name.endsWith(".md"))
    .map((name): [string, string] => [name, readFileSync(`${fixtureDir}${name}`, "utf8")]),
  ["generated 60k", generateMarkdown(60_000, 7)],
  ["lists with many starts", Array.from({ length: 40 }, (_, i) => `${i}. a\n   1. b\n\n- c\n\n<!-- -->\n`).join("\n")],
  ["emoji cheat sheet", emojiCheatSheet(gemoji.slice(0, 300))],
  ["an empty title", "text"],
  ["nothing", ""],
];

describe("packages from the template", () => {
  it.each(samples)("%s: the parts docx writes", async (name, markdown) => {
    const title = name === "an empty title" ? "" : `${name} & <"co">`;
    const template = await buildDocument(markdown, { title }).pack();
    const docx = await buildDocument(markdown, { title }).packViaDocx();
    expect(await parts(template)).toEqual(inTemplateOrder(await parts(docx)));
  });

  it("footnotes with formatting, links, lists and quotes, and 500 of them: the parts docx writes", async () => {
    const notes = Array.from(
      { length: 500 },
      (_, i) => `[^${i}]: Note **${i}** [link](https://example.com/${i % 7}).\n\n    - a list\n\n    > a quote\n`,
    );
    const markdown = `${Array.from({ length: 500 }, (_, i) => `x[^${i}]`).join(" ")}\n\n${notes.join("\n")}`;
    const template = await buildDocument(markdown, { title: "notes" }).pack();
    const docx = await buildDocument(markdown, { title: "notes" }).packViaDocx();
    expect(await parts(template)).toEqual(inTemplateOrder(await parts(docx)));
  });

  it("a document with an image is still packed by docx, with the same text", async () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    for (const markdown of [`![dot](data:image/png;base64,${png})`, `Text[^1].\n\n[^1]: ![dot](data:image/png;base64,${png})`]) {
      const built = buildDocument(markdown, { title: "image" });
      const docx = await built.pack();
      expect(Object.keys((await JSZip.loadAsync(docx)).files).some((name) => name.startsWith("word/media/"))).toBe(true);
      expect(await mammothText(docx)).toBe(built.text);
    }
  });
});
