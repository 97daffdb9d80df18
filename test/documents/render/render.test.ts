// The renderer against CONTRACT §5, read back from the .docx it writes: every construct is Word
// structure (not markdown characters), and the text it keeps equals what mammoth extracts.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatOf, mammothText, numberingOf, paragraph, paragraphText, render, startOf, styleOf } from "./docx.ts";

const shared = fileURLToPath(new URL("../../../../shared/", import.meta.url));
const fixtureDir = `${shared}fixtures/markdown/`;
const fixtures = readdirSync(fixtureDir).filter((name) => name.endsWith(".md"));
const generated = (chars: number, seed: number) =>
  execFileSync(process.execPath, [`${shared}tools/gen-markdown.mjs`, String(chars), String(seed)], { encoding: "utf8", maxBuffer: 64 << 20 });

// A 1×1 PNG and a 1×1 JPEG, small enough to inline.
const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const JPEG_1X1 =
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=";

describe("text equals mammoth's extraction of the stored .docx", () => {
  it.each(fixtures)("fixture %s", async (name) => {
    const parts = await render(readFileSync(`${fixtureDir}${name}`, "utf8"));
    expect(parts.text).toBe(await mammothText(parts.docx));
    expect(parts.text.length).toBeGreaterThan(0);
  });

  it.each([
    [20_000, 1],
    [60_000, 7],
    [400_000, 42],
  ])("generated corpus of %i characters (seed %i)", async (chars, seed) => {
    const markdown = generated(chars, seed);
    const parts = await render(markdown);
    expect(parts.text).toBe(await mammothText(parts.docx));
    // The corpus's markdown syntax never survives into the text (but for its last paragraph, which
    // the generator cuts off mid-construct, so that an unclosed "**" there is literal text).
    const body = parts.text.slice(0, parts.text.lastIndexOf("\n\n"));
    expect(body).not.toMatch(/\*\*|`|^#|^\||^\s*[-*+] |^>/m);
  });

  it("edge inputs: empty, whitespace, control characters, lone surrogates", async () => {
    for (const markdown of ["", "   \n\n  ", "bell\u0007 and \u0000 nul", "lone \ud800 surrogate", "tab\there", "a\r\nb\rc"]) {
      const parts = await render(markdown);
      expect(parts.text).toBe(await mammothText(parts.docx));
    }
  });
});

describe("kitchen-sink fixture as Word structure", async () => {
  const parts = await render(readFileSync(`${fixtureDir}kitchen-sink.md`, "utf8"), "Quarterly review — Acme & Co.");

  it("ATX and setext headings are Heading1…Heading6 paragraphs", () => {
    expect(styleOf(paragraph(parts, "Quarterly review — Acme & Co."))).toBe("Heading1");
    expect(styleOf(paragraph(parts, "Setext heading, level two"))).toBe("Heading2");
    expect(styleOf(paragraph(parts, "Spend by item"))).toBe("Heading3");
    expect(styleOf(paragraph(parts, "Level four"))).toBe("Heading4");
    expect(styleOf(paragraph(parts, "Level five"))).toBe("Heading5");
    expect(styleOf(paragraph(parts, "Level six"))).toBe("Heading6");
    // The styles exist, so Word's navigation pane shows them.
    for (let level = 1; level <= 6; level++) expect(parts.styles).toContain(`w:styleId="Heading${level}"`);
  });

  it("bold, italic, strike and inline code are run properties, not characters", () => {
    const opening = parts.paragraphs.find((p) => paragraphText(p).startsWith("An opening paragraph"))!;
    expect(opening).toMatch(/<w:rPr><w:b\/><w:bCs\/><\/w:rPr><w:t xml:space="preserve">bold<\/w:t>/);
    expect(opening).toMatch(/<w:rPr><w:i\/><w:iCs\/><\/w:rPr><w:t xml:space="preserve">italic<\/w:t>/);
    expect(opening).toMatch(/<w:rPr><w:b\/><w:bCs\/><w:i\/><w:iCs\/><\/w:rPr><w:t xml:space="preserve">both<\/w:t>/);
    expect(opening).toMatch(/<w:rPr><w:strike\/><\/w:rPr><w:t xml:space="preserve">struck<\/w:t>/);
    expect(opening).toMatch(/<w:rFonts w:ascii="Consolas"[^>]*\/><\/w:rPr><w:t xml:space="preserve">inline code<\/w:t>/);
    expect(paragraphText(opening)).not.toMatch(/[*~`]/);
  });

  it("links and autolinks are hyperlinks on external relationships", () => {
    const opening = parts.paragraphs.find((p) => paragraphText(p).startsWith("An opening paragraph"))!;
    const ids = [...opening.matchAll(/<w:hyperlink [^>]*r:id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toHaveLength(2);
    const targets = ids.map((id) => new RegExp(`<Relationship Id="${id}" Type="[^"]+/hyperlink" Target="([^"]+)" TargetMode="External"/>`).exec(parts.rels)?.[1]);
    expect(targets).toEqual(["https://example.com/plan?q=1&amp;x=2", "https://example.org/path"]);
  });

  it("a hard line break is a w:br inside the paragraph, after a space that keeps the words apart", () => {
    const opening = parts.paragraphs.find((p) => paragraphText(p).startsWith("An opening paragraph"))!;
    expect(opening).toMatch(/<w:t xml:space="preserve">[^<]*follows: <\/w:t><\/w:r><w:r><w:br\/><\/w:r>/);
    expect(paragraphText(opening)).toContain("follows: this line belongs to the same paragraph.");
    expect(parts.text).toContain("A hard line break follows: this line belongs to the same paragraph.");
  });

  it("bullet lists use bullet numbering, indented by nesting level", () => {
    const first = numberingOf(paragraph(parts, "first bullet"))!;
    expect(formatOf(parts.numbering, first.numId)).toBe("bullet");
    expect(first.level).toBe(0);
    expect(numberingOf(paragraph(parts, "nested bullet"))?.level).toBe(1);
    expect(numberingOf(paragraph(parts, "third level"))?.level).toBe(2);
    expect(numberingOf(paragraph(parts, "back to the top level"))?.level).toBe(0);
  });

  it("ordered lists are decimal numbering that starts at the list's own start", () => {
    const three = numberingOf(paragraph(parts, "ordered, starting at three"))!;
    expect(formatOf(parts.numbering, three.numId)).toBe("decimal");
    expect(startOf(parts.numbering, three.numId)).toBe(3);
    const nested = numberingOf(paragraph(parts, "nested ordered restarts at one"))!;
    expect(nested.numId).not.toBe(three.numId);
    expect(nested.level).toBe(1);
    expect(startOf(parts.numbering, nested.numId)).toBe(1);
  });

  it("the item written \"1.\" after \"3. 4.\" restarts numbering at one, as the fixture says", () => {
    const three = numberingOf(paragraph(parts, "ordered, starting at three"))!;
    const four = numberingOf(paragraph(parts, "four"))!;
    const again = numberingOf(paragraph(parts, "a second ordered list restarts at one"))!;
    expect(four).toEqual(three);
    expect(again.level).toBe(0);
    expect(again.numId).not.toBe(three.numId);
    expect(formatOf(parts.numbering, again.numId)).toBe("decimal");
    expect(startOf(parts.numbering, again.numId)).toBe(1);
  });

  it("task items carry ☐ / ☒ before their text", () => {
    expect(numberingOf(paragraph(parts, "☐ an open task"))).toBeDefined();
    expect(numberingOf(paragraph(parts, "☒ a finished task"))).toBeDefined();
  });

  it("tables have a repeated header row, honour alignment and keep inline formatting", () => {
    const table = /<w:tbl>[\s\S]*?<\/w:tbl>/.exec(parts.document)![0];
    const rows = table.match(/<w:tr>[\s\S]*?<\/w:tr>/g)!;
    expect(rows).toHaveLength(4);
    expect(rows[0]).toContain("<w:tblHeader/>");
    expect(rows.slice(1).join("")).not.toContain("<w:tblHeader/>");
    const cell = (text: string) => paragraph(parts, text);
    expect(cell("Licences")).toContain('<w:jc w:val="left"/>');
    expect(cell("ops")).toContain('<w:jc w:val="center"/>');
    expect(cell("ops")).toContain("<w:i/>");
    expect(cell("1,200.00")).toContain('<w:jc w:val="right"/>');
    expect(cell("4,650.50")).toContain("<w:b/>");
    expect(cell("renewal")).toContain("<w:hyperlink");
    expect(cell("eu-west")).toContain('w:ascii="Consolas"');
  });

  it("code blocks are shaded monospace paragraphs with whitespace kept exactly", () => {
    const line = paragraph(parts, "    return xs.reduce((a, b) => a + b, 0);   // keeps   spacing");
    expect(styleOf(line)).toBe("SourceCode");
    expect(line).toContain('xml:space="preserve"');
    expect(styleOf(paragraph(parts, "  with deeper indentation"))).toBe("SourceCode");
    const style = /<w:style [^>]*w:styleId="SourceCode">[\s\S]*?<\/w:style>/.exec(parts.styles)![0];
    expect(style).toMatch(/<w:shd [^>]*w:fill="F2F2F2"/);
    expect(style).toContain('w:ascii="Consolas"');
  });

  it("blockquotes are Quote paragraphs, nested ones indented further", () => {
    const outer = paragraph(parts, "A quotation, with bold inside.");
    const inner = paragraph(parts, "And a nested quotation.");
    expect(styleOf(outer)).toBe("Quote");
    expect(styleOf(inner)).toBe("Quote");
    expect(inner).toMatch(/<w:ind w:left="1440"\/>/);
  });

  it("a thematic break is a paragraph with a bottom border", () => {
    expect(parts.document).toMatch(/<w:p><w:pPr><w:pBdr><w:bottom w:val="single"[^>]*\/><\/w:pBdr><\/w:pPr><\/w:p>/);
  });

  it("raw HTML is literal text; a remote image is its alt text and is not fetched", () => {
    expect(paragraph(parts, "<div>raw html is shown as text</div>")).toContain("&lt;div&gt;");
    expect(paragraph(parts, "A chart of revenue")).not.toContain("<w:drawing");
    expect(Object.keys(parts.zip.files).some((name) => name.startsWith("word/media/"))).toBe(false);
  });

  it("the title is in the core properties, escaped", () => {
    expect(parts.core).toContain("<dc:title>Quarterly review — Acme &amp; Co.</dc:title>");
  });
});

describe("constructs beyond the fixtures", () => {
  it("each ordered list restarts at its own start, after any other block", async () => {
    const parts = await render("1. alpha\n2. beta\n\nA paragraph between.\n\n1. gamma\n2. delta\n\n- bullet\n\n7. seven\n8. eight\n");
    const alpha = numberingOf(paragraph(parts, "alpha"))!;
    const gamma = numberingOf(paragraph(parts, "gamma"))!;
    const seven = numberingOf(paragraph(parts, "seven"))!;
    expect(new Set([alpha.numId, gamma.numId, seven.numId]).size).toBe(3);
    expect(numberingOf(paragraph(parts, "delta"))?.numId).toBe(gamma.numId);
    expect([startOf(parts.numbering, alpha.numId), startOf(parts.numbering, gamma.numId), startOf(parts.numbering, seven.numId)]).toEqual([1, 1, 7]);
  });

  it.each([
    // [markdown, numId group of each item (same letter = same Word list), start of each group]
    ["1. a\n1. b\n1. c\n", "AAA", [1]],
    ["1. a\n2. b\n1. c\n2. d\n", "AABB", [1, 1]],
    ["3. a\n4. b\n\n1. c\n", "AAB", [3, 1]],
    ["2. a\n5. b\n9. c\n", "AAA", [2]],
    ["5. a\n3. b\n3. c\n4. d\n0. e\n", "ABBBC", [5, 3, 0]],
  ] as const)("renumbered ordered items: %j", async (markdown, groups, starts) => {
    const parts = await render(markdown);
    const ids = ["a", "b", "c", "d", "e"].slice(0, groups.length).map((text) => numberingOf(paragraph(parts, text))!.numId);
    const letters = new Map<number, string>();
    for (const id of ids) if (!letters.has(id)) letters.set(id, String.fromCharCode(65 + letters.size));
    expect(ids.map((id) => letters.get(id)).join("")).toBe(groups);
    expect([...letters.keys()].map((id) => startOf(parts.numbering, id))).toEqual(starts);
  });

  it("lists nested deeper than Word's nine levels still render, capped at level 8", async () => {
    const markdown = Array.from({ length: 12 }, (_, depth) => `${"  ".repeat(depth)}- depth ${depth}`).join("\n");
    const parts = await render(markdown);
    expect(numberingOf(paragraph(parts, "depth 0"))?.level).toBe(0);
    expect(numberingOf(paragraph(parts, "depth 8"))?.level).toBe(8);
    expect(numberingOf(paragraph(parts, "depth 11"))?.level).toBe(8);
    expect(parts.text).toBe(await mammothText(parts.docx));
  });

  it("data: PNG and JPEG images are embedded with their alt text as the description", async () => {
    const parts = await render(`![a red dot](data:image/png;base64,${PNG_1X1})\n\n![a photo](data:image/jpeg;base64,${JPEG_1X1})\n`);
    const media = Object.keys(parts.zip.files).filter((name) => name.startsWith("word/media/"));
    expect(media.some((name) => name.endsWith(".png"))).toBe(true);
    expect(media.some((name) => /\.jpe?g$/.test(name))).toBe(true);
    expect(parts.document).toMatch(/<wp:docPr [^>]*descr="a red dot"/);
    expect(parts.document).toMatch(/<wp:docPr [^>]*descr="a photo"/);
    expect(parts.text).toBe(await mammothText(parts.docx));
  });

  it("an unreadable data: image falls back to its alt text", async () => {
    const parts = await render("![broken](data:image/png;base64,AAAA)\n");
    expect(paragraphText(parts.paragraphs[0]!)).toBe("broken");
    expect(parts.document).not.toContain("<w:drawing");
  });

  it("the text keeps the markdown's words and none of its syntax; items and cells on their own lines", async () => {
    const parts = await render("# Title\n\nSome **bold** and `code`.\n\n- one\n- two\n\n| h1 | h2 |\n|----|----|\n| c1 | c2 |\n\n> quoted\n");
    expect(parts.text.split("\n").filter(Boolean)).toEqual(["Title", "Some bold and code.", "one", "two", "h1", "h2", "c1", "c2", "quoted"]);
    expect(parts.text).toBe(await mammothText(parts.docx));
  });

  it("hard breaks: the edge-cases backslash break keeps a space, as does one after formatting or a link", async () => {
    const edge = await render(readFileSync(`${fixtureDir}edge-cases.md`, "utf8"));
    expect(edge.text).toContain("A line with trailing backslash break.");
    expect(paragraph(edge, "A line with trailing backslash break.")).toContain("<w:br/>");
    const parts = await render("**bold**  \nnext `code`\\\n[link](https://example.com)  \nend   \nspaced\n");
    expect(parts.text).toBe("bold next code link end spaced");
    expect(parts.text).toBe(await mammothText(parts.docx));
    // Each of the four breaks follows a run whose text ends with the space.
    expect(parts.paragraphs[0]!.match(/<w:br\/>/g)).toHaveLength(4);
    expect(parts.paragraphs[0]!.match(/ <\/w:t><\/w:r><w:r><w:br\/><\/w:r>/g)).toHaveLength(4);
    // A break after text that already ends in a space adds none.
    expect(parts.paragraphs[0]).not.toContain("end  ");
  });

  it("escaped markdown characters stay as literal text", async () => {
    const parts = await render("Escaped \\*not italic\\* and a literal \\# hash.\n");
    expect(parts.text).toBe("Escaped *not italic* and a literal # hash.");
    expect(parts.paragraphs[0]).not.toContain("<w:i/>");
  });

  it("a javascript: link is never made clickable: markdown-it leaves it as literal text", async () => {
    const parts = await render("[click](javascript:alert(1)) and [site](https://example.com)\n");
    expect(parts.rels).not.toContain("javascript:");
    expect(parts.rels).toContain('Target="https://example.com" TargetMode="External"');
    expect(parts.text).toBe("[click](javascript:alert(1)) and site");
  });
});
