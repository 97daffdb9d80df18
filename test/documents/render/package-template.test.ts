// Packages written from the template (src/documents/render/package-template.ts) are the packages
// docx writes for the same documents: the same parts in the same order, each byte for byte, but for
// the times of writing in core.xml and the random ids docx gives hyperlink relationships.
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
  // Hyperlink relationship ids, numbered in order of first use in document.xml.
  const rels = out.find(([name]) => name === "word/_rels/document.xml.rels");
  const body = out.find(([name]) => name === "word/document.xml");
  if (rels && body) {
    const ids = new Map<string, string>();
    body[1] = body[1].replace(/r:id="(rIdLink\d+|rId[^"]*)"/g, (all, id: string) =>
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

const samples: [string, string][] = [
  ...readdirSync(fixtureDir)
    // footnotes.md is packed by docx either way, and docx gives its notes' links random ids.
    .filter((name) => name.endsWith(".md") && name !== "footnotes.md")
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
    expect(await parts(template)).toEqual(await parts(docx));
  });

  it("a document with footnotes or an image is still packed by docx, with the same text", async () => {
    for (const name of ["footnotes.md", "edge-cases.md"]) {
      const markdown = readFileSync(`${fixtureDir}${name}`, "utf8");
      const built = buildDocument(markdown, { title: name });
      const docx = await built.pack();
      expect(await mammothText(docx)).toBe(built.text);
    }
  });
});
