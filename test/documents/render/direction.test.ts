// Right-to-left text (src/documents/render/direction.ts): a paragraph, heading, list item or table
// cell whose first strong character is Arabic or Hebrew script is a Word bidi paragraph (w:bidi),
// its right-to-left runs w:rtl, as GitHub's dir="auto" lays it out; an HTML dir="rtl" or "ltr"
// around it decides instead, markdown between HTML blocks included.
import { describe, expect, it } from "vitest";
import { textDirection } from "../../../src/documents/render/direction.ts";
import { mammothText, paragraph, render } from "./docx.ts";

const PERSIAN = "سلام دنیا، این متن فارسی است.";
const HEBREW = "שלום עולם";
const bidi = (p: string) => /^<w:p><w:pPr>(?:<w:pStyle [^>]*\/>)?(?:<w:numPr>.*?<\/w:numPr>)?<w:bidi\/>/.test(p);

describe("textDirection: the first strong character", () => {
  it.each([
    ["Latin", "Hello", "ltr"],
    ["Persian", PERSIAN, "rtl"],
    ["Hebrew", HEBREW, "rtl"],
    ["Arabic after digits and punctuation", "2024 — «مرحبا»", "rtl"],
    ["Latin before Arabic", "React و Vue", "ltr"],
    ["Syriac", "ܫܠܡܐ", "rtl"],
    ["Arabic presentation forms", "\uFEF7\uFEFC", "rtl"],
    ["Greek", "Καλημέρα", "ltr"],
    ["CJK", "你好", "ltr"],
    ["an RLM mark first", "\u200F123 abc", "rtl"],
    ["no strong character", "123 — 456 🙂", undefined],
  ])("%s", (_, text, expected) => {
    expect(textDirection(text)).toBe(expected);
  });
});

describe("right-to-left paragraphs in the .docx", () => {
  it("paragraphs, headings, list items and table cells that start in Persian or Hebrew are bidi", async () => {
    const parts = await render(
      `# ${PERSIAN}\n\n${HEBREW} and English after.\n\n- ${PERSIAN} مورد\n- English item\n\n| ${HEBREW} | Latin |\n| - | - |\n| کلید | 12 |\n\nEnglish ${HEBREW}.\n`,
    );
    for (const text of [PERSIAN, `${HEBREW} and English after.`, `${PERSIAN} مورد`, HEBREW, "کلید"])
      expect(bidi(paragraph(parts, text)), text).toBe(true);
    for (const text of ["English item", "Latin", "12", `English ${HEBREW}.`]) expect(bidi(paragraph(parts, text)), text).toBe(false);
    // Runs: right-to-left text is w:rtl, Latin text is not, in any paragraph.
    expect(paragraph(parts, `English ${HEBREW}.`)).not.toContain("<w:rtl/>");
    expect(paragraph(parts, PERSIAN)).toContain("<w:rtl/>");
    expect(paragraph(parts, "کلید")).toContain("<w:rtl/>");
    expect(parts.text).toBe(await mammothText(parts.docx));
  });

  it("dir=rtl around HTML and markdown makes bidi paragraphs; dir=ltr keeps Persian left-to-right", async () => {
    const parts = await render(
      `<div dir="rtl">\n\nEnglish inside an rtl div.\n\n<p>HTML paragraph inside.</p>\n\n</div>\n\nEnglish after it.\n\n<p dir="ltr">${PERSIAN}</p>\n\n<div dir="RTL"><h2>Title</h2></div>\n`,
    );
    expect(bidi(paragraph(parts, "English inside an rtl div."))).toBe(true);
    expect(bidi(paragraph(parts, "HTML paragraph inside."))).toBe(true);
    expect(bidi(paragraph(parts, "Title"))).toBe(true);
    expect(bidi(paragraph(parts, "English after it."))).toBe(false);
    expect(bidi(paragraph(parts, PERSIAN))).toBe(false);
  });

  it("an aligned right-to-left paragraph swaps jc left and right, as Word reads them (and docx writes them)", async () => {
    const parts = await render(
      `<p align="right">${PERSIAN}</p>\n\n<p align="left">${HEBREW}</p>\n\n<p align="center">${HEBREW} ${HEBREW}</p>\n`,
    );
    expect(paragraph(parts, PERSIAN)).toContain('<w:bidi/><w:jc w:val="left"/>');
    expect(paragraph(parts, HEBREW)).toContain('<w:bidi/><w:jc w:val="right"/>');
    expect(paragraph(parts, `${HEBREW} ${HEBREW}`)).toContain('<w:bidi/><w:jc w:val="center"/>');
  });

  it("code blocks stay left-to-right", async () => {
    const parts = await render(`\`\`\`\n${PERSIAN}\n\`\`\`\n`);
    expect(bidi(paragraph(parts, PERSIAN))).toBe(false);
  });
});
