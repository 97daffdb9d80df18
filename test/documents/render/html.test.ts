// Raw HTML, inline and block, as Word structure (docs/api.md "Markdown to .docx", the raw-HTML
// row), read back from the .docx: headings are HeadingN, links are hyperlinks, tables and lists
// are Word tables and numbering, and no tag ever reaches the text.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatOf, mammothText, numberingOf, paragraph, paragraphText, render, startOf, styleOf, type RenderedParts } from "./docx.ts";

const fixture = fileURLToPath(new URL("../../fixtures/markdown/raw-html.md", import.meta.url));

/** What an image's placeholder starts with (GitHub's :framed_picture:). */
const IMG = "\u{1F5BC}\uFE0F";

/** Text that looks like an HTML tag, a comment or a declaration. */
const TAG = /<\/?[a-z][^>]*>|<!--|<!\[|<\?/i;

/** The external targets of the hyperlinks in one paragraph, in order. */
function linkTargets(parts: RenderedParts, xml: string): string[] {
  return [...xml.matchAll(/<w:hyperlink [^>]*r:id="([^"]+)"/g)].map(
    (m) =>
      new RegExp(`<Relationship Id="${m[1]}" Type="[^"]+/hyperlink" Target="([^"]+)" TargetMode="External"/>`).exec(parts.rels)?.[1] ?? "?",
  );
}

describe("the raw-html fixture as Word structure", async () => {
  const parts = await render(readFileSync(fixture, "utf8"));

  it("keeps mammoth's text and never a tag, a comment or script/style content", async () => {
    expect(parts.text).toBe(await mammothText(parts.docx));
    expect(parts.text).not.toMatch(TAG);
    expect(parts.text).not.toContain("omit in toc");
    expect(parts.text).not.toContain("never shown");
    expect(parts.text).not.toContain("shown: true");
    for (const p of parts.paragraphs) expect(paragraphText(p)).not.toMatch(TAG);
  });

  it("<p align=center><img alt></p> is the image's placeholder, centred; <h1 align=center> a centred Heading1", () => {
    const logo = paragraph(parts, `${IMG} Zod logo`);
    expect(logo).toContain('<w:jc w:val="center"/>');
    // The placeholder is in its style and links to the image, which is never fetched.
    expect(logo).toContain('<w:rStyle w:val="ImagePlaceholder"/>');
    expect(linkTargets(parts, logo)).toEqual(["https://example.com/logo.svg"]);
    const zod = paragraph(parts, "Zod");
    expect(styleOf(zod)).toBe("Heading1");
    expect(zod).toContain('<w:jc w:val="center"/>');
    const tagline = paragraph(parts, "TypeScript-first schema validation with static type inference");
    expect(tagline).toContain("<w:br/>");
    expect(tagline).toContain('<w:jc w:val="center"/>');
  });

  it("a heading with a trailing comment, and an HTML <h3>, are headings", () => {
    expect(styleOf(paragraph(parts, "Table of contents"))).toBe("Heading2");
    expect(styleOf(paragraph(parts, "An HTML heading three"))).toBe("Heading3");
  });

  it("inline tags are run properties", () => {
    const p = paragraph(parts, "Inline tags: bold, strong, italic, em, underlined, struck, deleted, code, Ctrl, H2O and x2.");
    const run = (text: string) =>
      new RegExp(`<w:r><w:rPr>((?:(?!</w:rPr>).)*)</w:rPr><w:t xml:space="preserve">${text}</w:t>`).exec(p)?.[1];
    expect(run("bold")).toContain("<w:b/>");
    expect(run("strong")).toContain("<w:b/>");
    expect(run("italic")).toContain("<w:i/>");
    expect(run("em")).toContain("<w:i/>");
    expect(run("underlined")).toContain('<w:u w:val="single"/>');
    expect(run("struck")).toContain("<w:strike/>");
    expect(run("deleted")).toContain("<w:strike/>");
    expect(run("code")).toContain('w:ascii="Consolas"');
    expect(run("Ctrl")).toContain('w:ascii="Consolas"');
    expect(p).toMatch(/<w:vertAlign w:val="subscript"\/><\/w:rPr><w:t xml:space="preserve">2<\/w:t>/);
    expect(p).toMatch(/<w:vertAlign w:val="superscript"\/><\/w:rPr><w:t xml:space="preserve">2<\/w:t>/);
  });

  it("entities are decoded, &nbsp; as a no-break space", () => {
    expect(parts.text).toContain("Entities\u00a0decoded: Tom & Jerry <3 © 2024.");
  });

  it("<br> is a line break; an unknown tag is dropped and its text kept", () => {
    expect(paragraph(parts, "A line broken by a br tag, and a span kept as its text.")).toContain("<w:br/>");
    expect(paragraph(parts, "An unknown tag keeps its text")).toBeTruthy();
  });

  it("<a href><img alt></a> sponsor links stay links, with the image's placeholder as their text", () => {
    const sponsors = paragraph(parts, `Sponsors: ${IMG} Sponsor One ${IMG} Sponsor Two`);
    expect(linkTargets(parts, sponsors)).toEqual(["https://sponsor.example.com/one", "https://sponsor.example.com/two"]);
    expect(linkTargets(parts, paragraph(parts, `${IMG} Backer Logo`))).toEqual(["https://backer.example.com"]);
    // A javascript: href is not a link, as with markdown links.
    expect(paragraph(parts, "an unsafe link stays text")).not.toContain("<w:hyperlink");
    expect(parts.rels).not.toContain("javascript:");
    // Nothing is fetched.
    expect(parts.document).not.toContain("<w:drawing");
  });

  it("<div align=right> is a right-aligned paragraph", () => {
    expect(paragraph(parts, "Right aligned division")).toContain('<w:jc w:val="right"/>');
  });

  it("<details>: its <summary> bold, then its content (markdown inside it too)", () => {
    const summary = paragraph(parts, "Show the promise example");
    expect(summary).toContain("<w:b/>");
    expect(paragraph(parts, "The body of the details, with markdown inside.")).toContain(
      '<w:b/><w:bCs/></w:rPr><w:t xml:space="preserve">markdown</w:t>',
    );
  });

  it("an HTML <table> is a Word table with a header row, links and alignment kept", () => {
    const table = /<w:tbl>[\s\S]*?<\/w:tbl>/.exec(parts.document)![0];
    const rows = table.match(/<w:tr>[\s\S]*?<\/w:tr>/g)!;
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain("<w:tblHeader/>");
    expect(rows[1]).not.toContain("<w:tblHeader/>");
    expect(paragraph(parts, "Package")).toContain("<w:b/>");
    expect(paragraph(parts, "Version")).toContain('<w:jc w:val="right"/>');
    expect(linkTargets(parts, paragraph(parts, "@trpc/server"))).toEqual(["https://example.com/server"]);
    expect(table).toContain('w:ascii="Consolas"');
  });

  it("<ul>/<ol start> are Word bullets and numbering", () => {
    const one = numberingOf(paragraph(parts, "HTML bullet one"))!;
    expect(formatOf(parts.numbering, one.numId)).toBe("bullet");
    expect(numberingOf(paragraph(parts, "HTML bullet two"))).toEqual(one);
    expect(paragraph(parts, "HTML bullet two")).toContain("<w:i/>");
    const four = numberingOf(paragraph(parts, "HTML number four"))!;
    expect(formatOf(parts.numbering, four.numId)).toBe("decimal");
    expect(startOf(parts.numbering, four.numId)).toBe(4);
    expect(numberingOf(paragraph(parts, "HTML number five"))).toEqual(four);
  });

  it("<pre> is a code block, whitespace kept", () => {
    expect(styleOf(paragraph(parts, "function html() {"))).toBe("SourceCode");
    expect(styleOf(paragraph(parts, '  return "pre kept";'))).toBe("SourceCode");
  });
});

describe("raw HTML beyond the fixture", () => {
  it.each([
    ["an unclosed inline tag ends with its paragraph", "<b>bold to the end\n\nplain after", ["bold to the end", "plain after"]],
    ["inline <script> hides its content", "before <script>var x = 1;</script> after", ["before after"]],
    ["a comment spanning lines", "<!--\na comment\n-->\n\nvisible", ["visible"]],
    ["a br inside a GFM table cell", "| a |\n|---|\n| one<br>two |", ["a", "one two"]],
    ["an HTML block inside a list item", "- item\n\n  <p>inside <b>it</b></p>\n- next", ["item", "inside it", "next"]],
    ["a <ul> left open inside a markdown item closes with it", "- outer\n\n  <ul><li>inner\n\n- second", ["outer", "inner", "second"]],
    ["a stray end tag", "</div>\n\ntext </b> more", ["text more"]],
    ["a nested HTML table is flattened into its cell", "<table><tr><td>a<table><tr><td>b</td></tr></table>c</td></tr></table>", ["a b c"]],
    ["an img without alt shows its file name", '<p><img src="x.png"></p>\n\nafter', [`${IMG} x.png`, "after"]],
    ["CDATA and processing instructions give nothing", "a <![CDATA[x]]> b <?php echo 1; ?> c", ["a b c"]],
  ] as const)("%s", async (_name, markdown, paragraphs) => {
    const parts = await render(markdown);
    expect(parts.text).toBe(await mammothText(parts.docx));
    expect(parts.text.split("\n\n")).toEqual(paragraphs);
    expect(parts.text).not.toMatch(TAG);
  });

  it("80,000 unclosed inline tags in one paragraph render, their text kept and no tag", async () => {
    const started = performance.now();
    const parts = await render(`x ${"<b>a".repeat(80_000)}`);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(parts.text).toBe(`x ${"a".repeat(80_000)}`);
    expect(parts.text).toBe(await mammothText(parts.docx));
  });

  it("deeply nested HTML lists and divs render, flat past a depth", async () => {
    const markdown = `${"<ul><li>".repeat(2_000)}deep${"</li></ul>".repeat(2_000)}\n\n${"<div>".repeat(5_000)}divs${"</div>".repeat(5_000)}`;
    const parts = await render(markdown);
    // Each outer item still shows its bullet (an empty numbered paragraph), as markdown's do.
    expect(parts.text.split("\n").filter(Boolean)).toEqual(["deep", "divs"]);
    expect(parts.text).toBe(await mammothText(parts.docx));
  });
});

describe("e-mail autolinks and HTML comments (the email-and-comments fixture)", async () => {
  const parts = await render(
    readFileSync(fileURLToPath(new URL("../../fixtures/markdown/email-and-comments.md", import.meta.url)), "utf8"),
  );

  it("<address> autolinks, bare addresses, &lt;address&gt; and <address> inside HTML are mailto: hyperlinks", () => {
    const targets = (text: string) => linkTargets(parts, paragraph(parts, text));
    expect(targets("Write to TJ Holowaychuk tj@vision-media.ca or mailto:team@example.com.")).toEqual([
      "mailto:tj@vision-media.ca",
      "mailto:team@example.com",
    ]);
    expect(targets("A bare address team@example.org is a link too.")).toEqual(["mailto:team@example.org"]);
    expect(targets("Copyright (c) 2014 TJ Holowaychuk <tj@example.net>")).toEqual(["mailto:tj@example.net"]);
    expect(targets("Maintainer: maintainer@example.com")).toEqual(["mailto:maintainer@example.com"]);
    // Code stays code; an escaped "<" is no autolink.
    const last = paragraph(parts, "An escaped autolink <not-a-link@example.com> is still a link's text, and <code@example.com> is code.");
    expect(last).toMatch(/w:ascii="Consolas"[^>]*\/><\/w:rPr><w:t xml:space="preserve">&lt;code@example.com&gt;<\/w:t>/);
  });

  it("comments, inline or block, are never printed", async () => {
    expect(parts.text).toBe(await mammothText(parts.docx));
    expect(parts.text).not.toMatch(/<!--|-->|omit in toc|hidden note|never printed/);
    expect(styleOf(paragraph(parts, "Contact"))).toBe("Heading1");
    expect(paragraph(parts, "Text with an inline comment in the middle.")).toBeTruthy();
  });
});
