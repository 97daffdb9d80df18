// Text runs as light docx components.
//
// A docx TextRun is a tree of components (run, run properties, one component per property, text,
// text attributes) that are all allocated, walked and turned into xml objects again for every run.
// Runs are most of a document, and that was most of the render time of a large document. A
// FastRun is a docx component (docx's own extension point: a BaseXmlComponent whose prepForXml
// gives the element) that holds the finished w:r element, with run properties shared between runs
// of the same formatting. docx still writes it out, inside its own paragraphs and hyperlinks.
import { BaseXmlComponent, type IXmlableObject, type ParagraphChild } from "docx";
import { MONOSPACE_FONT } from "./styles.ts";

export const BOLD = 1;
export const ITALIC = 2;
export const STRIKE = 4;
export const CODE = 8;
export const LINK = 16;

class FastRun extends BaseXmlComponent {
  constructor(private readonly element: IXmlableObject) {
    super("w:r");
  }

  override prepForXml(): IXmlableObject {
    return this.element;
  }
}

const PRESERVE = { _attr: { "xml:space": "preserve" } } as const;
const EMPTY = {} as const;
const TAB = { "w:tab": EMPTY } as const;

/** w:rPr for each combination of formatting flags, children in CT_RPr schema order. */
const runProperties: (IXmlableObject | undefined)[] = Array.from({ length: 32 }, (_, flags) => {
  const children: IXmlableObject[] = [];
  if (flags & LINK) children.push({ "w:rStyle": { _attr: { "w:val": "Hyperlink" } } });
  if (flags & CODE) {
    children.push({
      "w:rFonts": { _attr: { "w:ascii": MONOSPACE_FONT, "w:hAnsi": MONOSPACE_FONT, "w:eastAsia": MONOSPACE_FONT, "w:cs": MONOSPACE_FONT } },
    });
  }
  if (flags & BOLD) children.push({ "w:b": EMPTY }, { "w:bCs": EMPTY });
  if (flags & ITALIC) children.push({ "w:i": EMPTY }, { "w:iCs": EMPTY });
  if (flags & STRIKE) children.push({ "w:strike": EMPTY });
  return children.length > 0 ? { "w:rPr": children } : undefined;
});

/**
 * A run of text with the given formatting flags. `text` must already be XML-legal and free of
 * line endings (see runText); tabs become w:tab, as Word writes them.
 */
export function textRun(text: string, flags: number): ParagraphChild {
  const content: IXmlableObject[] = [];
  const properties = runProperties[flags & 31];
  if (properties) content.push(properties);
  if (text.includes("\t")) {
    text.split("\t").forEach((part, i) => {
      if (i > 0) content.push(TAB);
      if (part) content.push({ "w:t": [PRESERVE, part] });
    });
  } else {
    content.push({ "w:t": [PRESERVE, text] });
  }
  return new FastRun({ "w:r": content }) as unknown as ParagraphChild;
}

/** A run holding one line break (w:br), for markdown hard breaks. */
export function breakRun(): ParagraphChild {
  return new FastRun({ "w:r": [{ "w:br": EMPTY }] }) as unknown as ParagraphChild;
}
