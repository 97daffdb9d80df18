// What a reader sees first (issue 28), on the as-a-reader-sees-it fixture: front matter as a table
// and the document's title, remote images as placeholders that say they are images, space after a
// code block, every GitHub shortcode, GFM e-mail autolinks but not package versions, right-to-left
// paragraphs as Word's bidi paragraphs. Read back from the .docx XML; LibreOffice's reading of the
// fixture is checked by ./libreoffice.test.ts with every other fixture.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { mammothText, paragraph, paragraphText, render, styleOf, type RenderedParts } from "./docx.ts";

const fixture = fileURLToPath(new URL("../../fixtures/markdown/as-a-reader-sees-it.md", import.meta.url));
/** An image placeholder's mark (GitHub's :framed_picture:). */
const IMG = "\u{1F5BC}\uFE0F";

/** The external targets of the hyperlinks in one paragraph, in order. */
function linkTargets(parts: RenderedParts, xml: string): string[] {
  return [...xml.matchAll(/<w:hyperlink [^>]*r:id="([^"]+)"/g)].map(
    (m) => new RegExp(`<Relationship Id="${m[1]}" Type="[^"]+/hyperlink" Target="([^"]+)"`).exec(parts.rels)?.[1] ?? "?",
  );
}

describe("the as-a-reader-sees-it fixture", async () => {
  const parts = await render(readFileSync(fixture, "utf8"), "the document's name");

  it("keeps mammoth's text", async () => {
    expect(parts.text).toBe(await mammothText(parts.docx));
  });

  it("front matter is a two-column table of keys and values, not a rule and a heading", () => {
    const body = parts.document.slice(parts.document.indexOf("<w:body>") + 8);
    expect(body.startsWith("<w:tbl>")).toBe(true);
    const table = body.slice(0, body.indexOf("</w:tbl>"));
    const rows = [...table.matchAll(/<w:tr>([\s\S]*?)<\/w:tr>/g)].map((row) =>
      [...row[1]!.matchAll(/<w:tc>([\s\S]*?)<\/w:tc>/g)].map((cell) => paragraphText(cell[1]!)),
    );
    expect(rows).toEqual([
      ["linkTitle", "Diagnosing latency issues"],
      ["description", "Find where a request spends its time, from the load balancer to the database."],
      ["tags", "latency, tracing, performance"],
      ["weight", "20"],
    ]);
    expect(table).toContain("<w:b/>"); // keys in bold
    expect(parts.paragraphs.filter((p) => styleOf(p) === "Heading2").map(paragraphText)).toEqual(["Sponsors"]);
    expect(parts.text).not.toContain("title:");
    expect(parts.document).not.toContain("<w:pBdr>"); // no rule
  });

  it("front matter without a title leaves the document's name as its title", () => {
    expect(parts.core).toContain("<dc:title>the document&apos;s name</dc:title>");
  });

  it("a remote image is a placeholder that says it is an image, linked to its source, never fetched", () => {
    const image = paragraph(parts, `${IMG} How to download the repo as a zip file`);
    expect(image).toContain('<w:rStyle w:val="ImagePlaceholder"/>');
    expect(linkTargets(parts, image)).toEqual(["https://example.com/img/download-zip.png"]);
    expect(parts.styles).toMatch(/<w:style w:type="character" w:styleId="ImagePlaceholder">[\s\S]*?<w:bdr /);
    expect(parts.document).not.toContain("<w:drawing");
    expect(Object.keys(parts.zip.files).some((name) => name.startsWith("word/media/"))).toBe(false);
  });

  it("adjacent linked images are kept apart, each in its own link", () => {
    const row = paragraph(parts, `Contributors: ${IMG} User avatar: Mark Lussier ${IMG} User avatar: Dean Herbert`);
    expect(linkTargets(parts, row)).toEqual(["https://github.com/markl", "https://github.com/deanh"]);
    // The space between them is outside both links.
    expect(row).toMatch(/<\/w:hyperlink><w:r><w:t xml:space="preserve"> <\/w:t><\/w:r><w:hyperlink /);
  });

  it("an image without alt text shows its file name", () => {
    const sponsor = paragraph(parts, `${IMG} acme-logo.svg`);
    expect(linkTargets(parts, sponsor)).toEqual(["https://sponsor.example.com"]);
  });

  it("a code block's last line has a paragraph's space after it", () => {
    const code = paragraph(parts, "curl -s https://example.com/latency | jq .p99");
    expect(styleOf(code)).toBe("SourceCode");
    expect(code).toContain('<w:spacing w:after="120"/>');
  });

  it("shortcodes from the end of GitHub's list are emoji; an unknown one stays", () => {
    expect(parts.text).toContain("list: \u{1F237}\uFE0F \u{1F232} \u{1F23A} \u{1F5BC}\uFE0F \u{1F44D}, and :not_an_emoji: stays");
  });

  it("an e-mail address is a mailto: link, a package version is not", () => {
    const line = paragraph(parts, "Write to latency@example.com; the send@1.0.0 package is a version, not an address.");
    expect(linkTargets(parts, line)).toEqual(["mailto:latency@example.com"]);
  });

  it("Persian in a <div dir=rtl> and a paragraph that starts in Hebrew are bidi paragraphs with rtl runs", () => {
    for (const text of ["این یک پاراگراف فارسی است که از راست به چپ نوشته می‌شود.", "שלום עולם: this paragraph starts in Hebrew."]) {
      const p = paragraph(parts, text);
      expect(p).toMatch(/^<w:p><w:pPr><w:bidi\/><\/w:pPr>/);
      expect(p).toContain("<w:rtl/>");
    }
    const english = parts.paragraphs.filter((p) => /^[A-Z]/.test(paragraphText(p)));
    expect(english.length).toBeGreaterThan(3);
    for (const p of english) expect(p).not.toMatch(/<w:bidi\/>|<w:rtl\/>/);
  });
});

describe("front matter with a title", () => {
  it("is a table, not a heading, and its title is the document's title in the core properties", async () => {
    const parts = await render('---\ntitle: "Diagnosing latency issues"\ndescription: Where requests wait.\n---\n\nBody.\n', "name");
    expect(parts.core).toContain("<dc:title>Diagnosing latency issues</dc:title>");
    expect(parts.paragraphs.filter((p) => styleOf(p)?.startsWith("Heading"))).toEqual([]);
    expect(parts.text).toBe("title\n\nDiagnosing latency issues\n\ndescription\n\nWhere requests wait.\n\nBody.");
  });
});

describe("code block spacing", () => {
  it("only the last line of a block has space after it, in a list and in a quote too", async () => {
    const parts = await render("```\none\ntwo\nthree\n```\nafter\n\n- item\n\n      indented\n      code\n\n> ```\n> quoted\n> ```\n");
    const spaced = parts.paragraphs.filter((p) => p.includes("<w:spacing")).map(paragraphText);
    expect(spaced).toEqual(["three", "code", "quoted"]);
    for (const text of ["one", "two", "indented"]) expect(styleOf(paragraph(parts, text))).toBe("SourceCode");
  });

  it("an HTML <pre> block is a code block with the same space after it", async () => {
    const parts = await render("<pre>\nfirst\nlast\n</pre>\n\nafter\n");
    expect(paragraph(parts, "last")).toContain('<w:spacing w:after="120"/>');
    expect(paragraph(parts, "first")).not.toContain("<w:spacing");
  });
});

describe("images beyond the fixture", () => {
  it("markdown images next to each other are kept apart; a data: image is still embedded", async () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const parts = await render(
      `[![npm](https://img.shields.io/npm/v/x.svg)](https://npmjs.com/x)[![ci](https://ci.example.com/b.svg)](https://ci.example.com)\n\n![dot](data:image/png;base64,${png})\n`,
    );
    expect(paragraphText(parts.paragraphs[0]!)).toBe(`${IMG} npm ${IMG} ci`);
    expect(linkTargets(parts, parts.paragraphs[0]!)).toEqual(["https://npmjs.com/x", "https://ci.example.com"]);
    expect(parts.paragraphs[1]).toContain("<w:drawing");
    expect(parts.text).toBe(await mammothText(parts.docx));
  });

  it("a relative image is not linked (there is nothing to resolve it against)", async () => {
    const parts = await render("See ![the diagram](docs/diagram.png) here.\n");
    expect(paragraphText(parts.paragraphs[0]!)).toBe(`See ${IMG} the diagram here.`);
    expect(parts.paragraphs[0]).not.toContain("<w:hyperlink");
  });
});
