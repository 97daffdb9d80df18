// The renderer against docs/api.md "Markdown to .docx", read back from the .docx it writes: every construct is Word
// structure (not markdown characters), and the text it keeps equals what mammoth extracts.
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { generateMarkdown } from "../../fixtures/gen-markdown.ts";
import { formatOf, mammothText, numberingOf, paragraph, paragraphText, part, render, startOf, styleOf } from "./docx.ts";

const fixtureDir = fileURLToPath(new URL("../../fixtures/markdown/", import.meta.url));
const fixtures = readdirSync(fixtureDir).filter((name) => name.endsWith(".md"));

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
    const markdown = generateMarkdown(chars, seed);
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
  const parts = await render(readFileSync(`${fixtureDir}kitchen-sink.md`, "utf8"), "Launch plan — Nordwind & Partners");
  const opening = parts.paragraphs.find((p) => paragraphText(p).startsWith("Every construct of docs/api.md"))!;

  it("ATX and setext headings are Heading1…Heading6 paragraphs", () => {
    expect(styleOf(paragraph(parts, "Launch plan — Nordwind & Partners"))).toBe("Heading1");
    expect(styleOf(paragraph(parts, "Goals and owners"))).toBe("Heading1");
    expect(styleOf(paragraph(parts, "Milestones, level two"))).toBe("Heading2");
    expect(styleOf(paragraph(parts, "Cost by line"))).toBe("Heading3");
    expect(styleOf(paragraph(parts, "Fourth level heading"))).toBe("Heading4");
    expect(styleOf(paragraph(parts, "Fifth level heading"))).toBe("Heading5");
    expect(styleOf(paragraph(parts, "Sixth level heading"))).toBe("Heading6");
    // The styles exist, so Word's navigation pane shows them.
    for (let level = 1; level <= 6; level++) expect(parts.styles).toContain(`w:styleId="Heading${level}"`);
  });

  it("bold, italic, strike and inline code are run properties, not characters", () => {
    expect(opening).toMatch(/<w:rPr><w:b\/><w:bCs\/><\/w:rPr><w:t xml:space="preserve">bold<\/w:t>/);
    expect(opening).toMatch(/<w:rPr><w:i\/><w:iCs\/><\/w:rPr><w:t xml:space="preserve">italic<\/w:t>/);
    expect(opening).toMatch(/<w:rPr><w:b\/><w:bCs\/><w:i\/><w:iCs\/><\/w:rPr><w:t xml:space="preserve">bold italic<\/w:t>/);
    expect(opening).toMatch(/<w:rPr><w:strike\/><\/w:rPr><w:t xml:space="preserve">withdrawn<\/w:t>/);
    expect(opening).toMatch(/<w:rFonts w:ascii="Consolas"[^>]*\/><\/w:rPr><w:t xml:space="preserve">npm run build<\/w:t>/);
    expect(paragraphText(opening)).not.toMatch(/[*~`]/);
  });

  it("links and autolinks are hyperlinks on external relationships", () => {
    const ids = [...opening.matchAll(/<w:hyperlink [^>]*r:id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toHaveLength(2);
    const targets = ids.map(
      (id) => new RegExp(`<Relationship Id="${id}" Type="[^"]+/hyperlink" Target="([^"]+)" TargetMode="External"/>`).exec(parts.rels)?.[1],
    );
    expect(targets).toEqual(["https://example.com/brief?id=7&amp;lang=en", "https://example.net/status"]);
  });

  it("a hard line break is a w:br inside the paragraph, after a space that keeps the words apart", () => {
    expect(opening).toMatch(/<w:t xml:space="preserve">[^<]*hard break: <\/w:t><\/w:r><w:r><w:br\/><\/w:r>/);
    expect(paragraphText(opening)).toContain("hard break: still the same paragraph, on a new line.");
    expect(parts.text).toContain("The next line is joined by a hard break: still the same paragraph, on a new line.");
  });

  it("bullet lists use bullet numbering, indented by nesting level", () => {
    const first = numberingOf(paragraph(parts, "design review"))!;
    expect(formatOf(parts.numbering, first.numId)).toBe("bullet");
    expect(first.level).toBe(0);
    // "-", "*" and "+" markers alike.
    const star = numberingOf(paragraph(parts, "nested star bullet"))!;
    expect(star.level).toBe(1);
    expect(formatOf(parts.numbering, star.numId)).toBe("bullet");
    const plus = numberingOf(paragraph(parts, "third level plus bullet"))!;
    expect(plus.level).toBe(2);
    expect(formatOf(parts.numbering, plus.numId)).toBe("bullet");
    expect(numberingOf(paragraph(parts, "ship to the top level"))?.level).toBe(0);
  });

  it("ordered lists are decimal numbering that starts at the list's own start", () => {
    const five = numberingOf(paragraph(parts, "ordered, starting at five"))!;
    expect(formatOf(parts.numbering, five.numId)).toBe("decimal");
    expect(startOf(parts.numbering, five.numId)).toBe(5);
    const nested = numberingOf(paragraph(parts, "nested ordered restarts at one"))!;
    expect(nested.numId).not.toBe(five.numId);
    expect(nested.level).toBe(1);
    expect(startOf(parts.numbering, nested.numId)).toBe(1);
  });

  it('"1)" after "5. 6." is a new list (CommonMark: another delimiter), numbered from one', () => {
    const five = numberingOf(paragraph(parts, "ordered, starting at five"))!;
    const six = numberingOf(paragraph(parts, "six"))!;
    const again = numberingOf(paragraph(parts, "a new ordered list starts at one again"))!;
    expect(six).toEqual(five);
    expect(again.level).toBe(0);
    expect(again.numId).not.toBe(five.numId);
    expect(formatOf(parts.numbering, again.numId)).toBe("decimal");
    expect(startOf(parts.numbering, again.numId)).toBe(1);
  });

  it("task items carry ☐ / ☒ before their text", () => {
    expect(numberingOf(paragraph(parts, "☐ book the venue"))).toBeDefined();
    expect(numberingOf(paragraph(parts, "☒ draft the invitation"))).toBeDefined();
  });

  it("tables have a repeated header row, honour alignment and keep inline formatting", () => {
    const table = /<w:tbl>[\s\S]*?<\/w:tbl>/.exec(parts.document)![0];
    const rows = table.match(/<w:tr>[\s\S]*?<\/w:tr>/g)!;
    expect(rows).toHaveLength(4);
    expect(rows[0]).toContain("<w:tblHeader/>");
    expect(rows.slice(1).join("")).not.toContain("<w:tblHeader/>");
    const cell = (text: string) => paragraph(parts, text);
    expect(cell("Venue")).toContain('<w:jc w:val="left"/>');
    expect(cell("events")).toContain('<w:jc w:val="center"/>');
    expect(cell("events")).toContain("<w:i/>");
    expect(cell("2,400.00")).toContain('<w:jc w:val="right"/>');
    expect(cell("3,550.75")).toContain("<w:b/>");
    expect(cell("quote")).toContain("<w:hyperlink");
    expect(cell("per head")).toContain('w:ascii="Consolas"');
  });

  it("code blocks are shaded monospace paragraphs with whitespace kept exactly", () => {
    const line = paragraph(parts, "    return total / people;      // spaces   kept");
    expect(styleOf(line)).toBe("SourceCode");
    expect(line).toContain('xml:space="preserve"');
    expect(styleOf(paragraph(parts, "indented code block"))).toBe("SourceCode");
    expect(styleOf(paragraph(parts, "    deeper by four"))).toBe("SourceCode");
    const style = /<w:style [^>]*w:styleId="SourceCode">[\s\S]*?<\/w:style>/.exec(parts.styles)![0];
    expect(style).toMatch(/<w:shd [^>]*w:fill="F2F2F2"/);
    expect(style).toContain('w:ascii="Consolas"');
  });

  it("blockquotes are Quote paragraphs, nested ones indented further", () => {
    const outer = paragraph(parts, "A quoted remark, with emphasis inside.");
    const inner = paragraph(parts, "And a reply nested inside it.");
    expect(styleOf(outer)).toBe("Quote");
    expect(styleOf(inner)).toBe("Quote");
    expect(inner).toMatch(/<w:ind w:left="1440"\/>/);
  });

  it("a thematic break is a paragraph with a bottom border", () => {
    expect(parts.document).toMatch(/<w:p><w:pPr><w:pBdr><w:bottom w:val="single"[^>]*\/><\/w:pBdr><\/w:pPr><\/w:p>/);
  });

  // Raw HTML is its visible content (docs/api.md, the raw-HTML row; more in ./html.test.ts).
  it("raw HTML keeps its text and no tag; a remote image is its alt text and is not fetched", () => {
    const html = paragraph(parts, "inline html keeps its text, never a tag");
    expect(html).not.toContain("&lt;");
    expect(html).toMatch(/<w:b\/><w:bCs\/><\/w:rPr><w:t xml:space="preserve">tag<\/w:t>/);
    expect(paragraph(parts, "\u{1F5BC}\uFE0F Seating chart")).not.toContain("<w:drawing");
    expect(Object.keys(parts.zip.files).some((name) => name.startsWith("word/media/"))).toBe(false);
  });

  it("the title is in the core properties, escaped", () => {
    expect(parts.core).toContain("<dc:title>Launch plan — Nordwind &amp; Partners</dc:title>");
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
    expect([startOf(parts.numbering, alpha.numId), startOf(parts.numbering, gamma.numId), startOf(parts.numbering, seven.numId)]).toEqual([
      1, 1, 7,
    ]);
  });

  // CommonMark: only the first item's number sets the start; the items after it count on, whatever
  // numbers they are written with. A change of delimiter (. or )) starts a new list.
  it.each([
    // [markdown, numId group of each item (same letter = same Word list), start of each group]
    ["1. a\n1. b\n1. c\n", "AAA", [1]],
    ["1. a\n2. b\n1. c\n2. d\n", "AAAA", [1]],
    ["3. a\n4. b\n\n1. c\n", "AAA", [3]],
    ["2. a\n5. b\n9. c\n", "AAA", [2]],
    ["5. a\n3. b\n3. c\n4. d\n0. e\n", "AAAAA", [5]],
    ["1. a\n2. b\n1) c\n2) d\n", "AABB", [1, 1]],
    ["3) a\n1. b\n7) c\n", "ABC", [3, 1, 7]],
  ] as const)("ordered items numbered as CommonMark does: %j", async (markdown, groups, starts) => {
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

  it("an unreadable data: image falls back to its placeholder, not linked", async () => {
    const parts = await render("![broken](data:image/png;base64,AAAA)\n");
    expect(paragraphText(parts.paragraphs[0]!)).toBe("\u{1F5BC}\uFE0F broken");
    expect(parts.document).not.toContain("<w:hyperlink");
    expect(parts.document).not.toContain("<w:drawing");
  });

  it("the text keeps the markdown's words and none of its syntax; items and cells on their own lines", async () => {
    const parts = await render(
      "# Title\n\nSome **bold** and `code`.\n\n- one\n- two\n\n| h1 | h2 |\n|----|----|\n| c1 | c2 |\n\n> quoted\n",
    );
    expect(parts.text.split("\n").filter(Boolean)).toEqual([
      "Title",
      "Some bold and code.",
      "one",
      "two",
      "h1",
      "h2",
      "c1",
      "c2",
      "quoted",
    ]);
    expect(parts.text).toBe(await mammothText(parts.docx));
  });

  it("hard breaks: the edge-cases backslash break keeps a space, as does one after formatting or a link", async () => {
    const edge = await render(readFileSync(`${fixtureDir}edge-cases.md`, "utf8"));
    expect(edge.text).toContain("Ends with a backslash then continues.");
    expect(paragraph(edge, "Ends with a backslash then continues.")).toContain("<w:br/>");
    expect(paragraph(edge, "Two spaces at the end and a line after.")).toContain("<w:br/>");
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

describe("list numbering as CommonMark has it (the list-numbering fixture)", async () => {
  const parts = await render(readFileSync(`${fixtureDir}list-numbering.md`, "utf8"));
  const num = (text: string) => numberingOf(paragraph(parts, text))!;

  it("3. 4. then 1. after a blank line is one list, numbered from three", () => {
    const three = num("three, the list's start");
    expect(startOf(parts.numbering, three.numId)).toBe(3);
    expect(num("four")).toEqual(three);
    expect(num("written one, numbered five: still the same list")).toEqual(three);
  });

  it("a paragraph between ends a list; lazy 1. 1. 1. is one list", () => {
    const one = num("one");
    expect(one.numId).not.toBe(num("four").numId);
    expect(startOf(parts.numbering, one.numId)).toBe(1);
    expect(num("lazy one, numbered two")).toEqual(one);
    expect(num("lazy one, numbered three")).toEqual(one);
  });

  it("a change of delimiter starts a new list at its own start", () => {
    const seven = num("a parenthesis list starts at seven");
    expect(startOf(parts.numbering, seven.numId)).toBe(7);
    expect(num("eight")).toEqual(seven);
    const full = num("a full stop starts a new list at one");
    expect(full.numId).not.toBe(seven.numId);
    expect(startOf(parts.numbering, full.numId)).toBe(1);
  });
});

describe("emoji shortcodes (the emoji fixture)", async () => {
  const parts = await render(readFileSync(`${fixtureDir}emoji.md`, "utf8"));

  it("GitHub shortcodes are the emoji, in headings, paragraphs, lists and links alike", async () => {
    expect(parts.text).toBe(await mammothText(parts.docx));
    expect(styleOf(paragraph(parts, "Documentation \u{1F4D6}"))).toBe("Heading1");
    expect(paragraph(parts, "\u26A0\uFE0F Read this first. \u{1F44D} for the \u{1F680} launch, \u{1F389}!")).toBeTruthy();
    expect(numberingOf(paragraph(parts, "\u2705 done"))).toBeDefined();
    expect(numberingOf(paragraph(parts, "\u274C not done"))).toBeDefined();
  });

  it("code, unknown shortcodes and emoticons stay as written", () => {
    const p = paragraph(
      parts,
      "Shortcodes stay literal in code: :book:, in unknown names :not_an_emoji_at_all: and emoticons :-) stay as written.",
    );
    expect(p).toMatch(/w:ascii="Consolas"[^>]*\/><\/w:rPr><w:t xml:space="preserve">:book:<\/w:t>/);
  });
});

describe("footnotes (the footnotes fixture) are Word footnotes", async () => {
  const parts = await render(readFileSync(`${fixtureDir}footnotes.md`, "utf8"));
  const notes = await part(parts.zip, "word/footnotes.xml");
  const note = (id: number) => new RegExp(`<w:footnote w:id="${id}">([\\s\\S]*?)</w:footnote>`).exec(notes)?.[1] ?? "";

  it("each first reference is a w:footnoteReference; the text keeps no [^label] and equals mammoth's", async () => {
    const p = paragraph(parts, "The package ships ESM and types, with an inline note too.");
    expect([...p.matchAll(/<w:footnoteReference w:id="(\d+)"\/>/g)].map((m) => m[1])).toEqual(["1", "2", "3"]);
    expect(parts.text).not.toMatch(/\[\^|\^\[/);
    // mammoth's raw text leaves footnotes out; the stored text is equal to it (docs/api.md).
    expect(parts.text).toBe(await mammothText(parts.docx));
  });

  it("the notes hold their content as paragraphs, with formatting and links", () => {
    expect(paragraphText(note(1))).toContain("A CommonJS build is included as well, for require().");
    expect(note(1)).toContain("<w:b/>");
    expect(note(1)).toContain("It has a second paragraph, indented.");
    expect(note(2)).toContain("<w:hyperlink");
    expect(paragraphText(note(3))).toBe("Written in place, like this.");
    expect(notes).not.toContain("nobody references");
    expect(notes).not.toContain('w:id="4"');
  });

  it("a second reference to the same note is its number in superscript", () => {
    const p = paragraph(parts, "A second reference to the first note1 repeats its number.");
    expect(p).toMatch(/<w:vertAlign w:val="superscript"\/><\/w:rPr><w:t xml:space="preserve">1<\/w:t>/);
    expect(p).not.toContain("<w:footnoteReference");
  });
});
