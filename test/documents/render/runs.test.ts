// Light runs (src/documents/render/runs.ts) with the flags added for images and right-to-left text
// write the run properties docx's own TextRun writes for the same formatting, in the same
// (schema) order: so Word and LibreOffice read them as docx's.
import { Paragraph, TextRun, type IRunOptions } from "docx";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { packBody } from "../../../src/documents/render/package.ts";
import { BOLD, IMAGE, ITALIC, LINK, RTL, SUPERSCRIPT, textRun } from "../../../src/documents/render/runs.ts";
import { HYPERLINK_COLOR, IMAGE_STYLE } from "../../../src/documents/render/styles.ts";

async function documentXml(paragraph: Paragraph): Promise<string> {
  const zip = await JSZip.loadAsync(await packBody([paragraph]));
  return zip.file("word/document.xml")!.async("string");
}

const cases: [string, number, IRunOptions][] = [
  ["right-to-left", RTL, { rightToLeft: true }],
  ["bold right-to-left", BOLD | RTL, { bold: true, boldComplexScript: true, rightToLeft: true }],
  ["superscript right-to-left", SUPERSCRIPT | RTL, { superScript: true, rightToLeft: true }],
  ["italic right-to-left", ITALIC | RTL, { italics: true, italicsComplexScript: true, rightToLeft: true }],
  ["an image placeholder", IMAGE, { style: IMAGE_STYLE }],
  ["a linked image placeholder", IMAGE | LINK, { style: IMAGE_STYLE, color: HYPERLINK_COLOR }],
  ["a right-to-left image placeholder", IMAGE | RTL, { style: IMAGE_STYLE, rightToLeft: true }],
];

describe("run properties of the new flags", () => {
  it.each(cases)("%s: as docx's TextRun writes them", async (_, flags, options) => {
    const text = "\u0633\u0644\u0627\u0645 x";
    const ours = await documentXml(new Paragraph({ children: [textRun(text, flags)] }));
    const theirs = await documentXml(new Paragraph({ children: [new TextRun({ ...options, text })] }));
    expect(ours).toBe(theirs);
  });
});
