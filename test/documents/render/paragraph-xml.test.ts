// Paragraphs written as XML strings (src/documents/render/paragraph-xml.ts) and packed by the
// renderer's packager are the XML docx writes for the same options, byte for byte (hyperlink
// relationship ids aside, which docx makes random): same document.xml, same numbering, same link
// targets in document.xml.rels.
import { AlignmentType, BorderStyle, ExternalHyperlink, HeadingLevel, Paragraph, type IParagraphOptions } from "docx";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { packBody, type BodyElement } from "../../../src/documents/render/package.ts";
import { RawParagraphs, writable } from "../../../src/documents/render/paragraph-xml.ts";
import { BOLD, CODE, IMAGE, LINK, RTL, breakRun, textRun } from "../../../src/documents/render/runs.ts";
import { BULLET_REFERENCE, CODE_STYLE, QUOTE_STYLE, decimalDefinition } from "../../../src/documents/render/styles.ts";

const cases: IParagraphOptions[] = [
  {},
  { children: [textRun("plain", 0), breakRun(), textRun("bold & <code>", BOLD | CODE)] },
  { heading: HeadingLevel.HEADING_2, children: [textRun("A heading", 0)] },
  { style: QUOTE_STYLE, indent: { left: 1440 }, children: [textRun("quoted", 0)] },
  { style: CODE_STYLE, children: [textRun("  code\tline", CODE)] },
  { numbering: { reference: BULLET_REFERENCE, instance: 0, level: 1 }, children: [textRun("bullet", 0)] },
  {
    numbering: { reference: decimalDefinition(3), instance: 4, level: 0 },
    indent: { left: 1440, hanging: 360 },
    children: [textRun("third", 0)],
  },
  { style: QUOTE_STYLE, numbering: { reference: decimalDefinition(3), instance: 4, level: 0 }, children: [textRun("again", 0)] },
  { border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: "auto", space: 1 } } },
  { alignment: AlignmentType.CENTER, children: [textRun("centred", 0)] },
  { bidirectional: true, alignment: AlignmentType.LEFT, children: [textRun("\u0633\u0644\u0627\u0645", RTL)] },
  {
    bidirectional: true,
    alignment: AlignmentType.RIGHT,
    indent: { left: 720 },
    children: [textRun("\u05e9\u05dc\u05d5\u05dd", RTL | BOLD)],
  },
  {
    bidirectional: true,
    numbering: { reference: BULLET_REFERENCE, instance: 0, level: 0 },
    children: [textRun("\u0645\u0648\u0631\u062f", RTL)],
  },
  { style: CODE_STYLE, spacing: { after: 120 }, indent: { left: 720 }, children: [textRun("last line", CODE)] },
  {
    children: [
      textRun("see ", 0),
      new ExternalHyperlink({ link: "https://example.com/a?b=1&c=2#part", children: [textRun("the docs", LINK)] }),
      new ExternalHyperlink({ link: "mailto:a@example.com", children: [textRun("mail", LINK | CODE)] }),
      textRun("\u{1F5BC}\uFE0F a placeholder", IMAGE),
      new ExternalHyperlink({ link: "https://example.com/logo.svg", children: [textRun("\u{1F5BC}\uFE0F linked", IMAGE | LINK)] }),
    ],
  },
];

async function parts(children: BodyElement[]) {
  const zip = await JSZip.loadAsync(await packBody(children));
  const read = async (name: string) => (await zip.file(name)?.async("string")) ?? "";
  const rels = await read("word/_rels/document.xml.rels");
  const ids = new Map<string, string>();
  const links = [...rels.matchAll(/Id="([^"]+)" Type="[^"]*hyperlink" Target="([^"]*)"/g)].map(([, id, target]) => {
    ids.set(id!, `LINK${ids.size}`);
    return target;
  });
  const xml = (await read("word/document.xml")).replace(/r:id="([^"]+)"/g, (all, id: string) =>
    ids.has(id) ? `r:id="${ids.get(id)}"` : all,
  );
  return { xml, links, numbering: await read("word/numbering.xml") };
}

describe("paragraphs as XML strings", () => {
  it("every case is writable as a string", () => {
    for (const options of cases) expect(writable(options)).toBe(true);
  });

  it("equal docx's own XML for the same options", async () => {
    const docx = await parts(cases.map((options) => new Paragraph(options)));
    const raw = await parts([new RawParagraphs(cases)]);
    expect(raw.xml).toBe(docx.xml);
    expect(raw.links).toEqual(docx.links);
    expect(raw.numbering).toBe(docx.numbering);
  });
});
