// Text runs as light docx components.
//
// A docx TextRun is a tree of components (run, run properties, one component per property, text,
// text attributes) that are all allocated, walked and turned into xml objects again for every run.
// Runs are most of a document, and that was most of the render time of a large document. A
// FastRun is a docx component (docx's own extension point: a BaseXmlComponent whose prepForXml
// gives the element) that holds the finished w:r element, with run properties shared between runs
// of the same formatting. docx still writes it out, inside its own paragraphs and hyperlinks.
import { BaseXmlComponent, type IXmlableObject, type ParagraphChild } from "docx";
import { CODE_CHAR_STYLE, HYPERLINK_COLOR, IMAGE_STYLE, MONOSPACE_FONT } from "./styles.ts";

export const BOLD = 1;
export const ITALIC = 2;
export const STRIKE = 4;
export const CODE = 8;
export const LINK = 16;
// Raw HTML's <u>, <sub> and <sup> (docs/api.md "Markdown to .docx", the raw-HTML row).
export const UNDERLINE = 32;
export const SUBSCRIPT = 64;
export const SUPERSCRIPT = 128;
/** A remote image's placeholder (./images.ts): the Image Placeholder character style. */
export const IMAGE = 256;
/** Right-to-left text (Arabic, Hebrew: ./direction.ts), as Word marks it: w:rtl. */
export const RTL = 512;
const FLAG_MASK = 1023;
const FLAG_COMBINATIONS = FLAG_MASK + 1;

class FastRun extends BaseXmlComponent {
  /** `text` null is a line break (w:br). The element is built when docx writes the run, not before. */
  constructor(
    private readonly text: string | null,
    private readonly flags: number,
  ) {
    super("w:r");
  }

  override prepForXml(): IXmlableObject {
    return this.text === null ? BREAK_ELEMENT : runElement(this.text, this.flags);
  }

  /** The run's XML as docx would write it (see runXml). */
  xml(): string {
    return this.text === null ? BREAK_XML : textRunXml(this.text, this.flags);
  }
}

/** A text run's XML as docx would write it, without making the run (tables of plain cells: ./table.ts). */
/** What textRunXml writes before the text of a run with no tab (plainTable writes the parts apart). */
export const textRunOpenXml = (flags: number): string => `<w:r>${runPropertiesXml[flags & FLAG_MASK]!}<w:t xml:space="preserve">`;
export const TEXT_RUN_CLOSE_XML = "</w:t></w:r>";

export function textRunXml(text: string, flags: number): string {
  const properties = runPropertiesXml[flags & FLAG_MASK]!;
  if (!text.includes("\t")) return `<w:r>${properties}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
  let out = `<w:r>${properties}`;
  text.split("\t").forEach((part, i) => {
    if (i > 0) out += "<w:tab/>";
    if (part) out += `<w:t xml:space="preserve">${escapeXml(part)}</w:t>`;
  });
  return `${out}</w:r>`;
}

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", '"': "&quot;", "'": "&apos;", "<": "&lt;", ">": "&gt;" };
/** Text and attribute escaping as docx's writer does it (runText has already removed what XML cannot hold). */
// The test first: most text has nothing to escape, and replace allocates even then.
const NEEDS_ESCAPE = /[&"'<>]/;
export const escapeXml = (value: string): string => (NEEDS_ESCAPE.test(value) ? value.replace(/[&"'<>]/g, (c) => XML_ESCAPES[c]!) : value);

const PRESERVE = { _attr: { "xml:space": "preserve" } } as const;
const EMPTY = {} as const;
const TAB = { "w:tab": EMPTY } as const;

/**
 * A run has one character style. An image placeholder's wins (it is what the run is); inline
 * code's (Verbatim Char) is what readers recognise as code (pandoc reads it back as Code), so it
 * wins over Hyperlink; a code link keeps the link's look as direct colour and underline, an
 * image link the link's colour.
 */
function runStyle(flags: number): string | undefined {
  if (flags & IMAGE) return IMAGE_STYLE;
  if (flags & CODE) return CODE_CHAR_STYLE;
  return flags & LINK ? "Hyperlink" : undefined;
}

const codeLink = (flags: number): boolean => (flags & (IMAGE | CODE | LINK)) === (CODE | LINK);
const linkColor = (flags: number): boolean => codeLink(flags) || (flags & (IMAGE | LINK)) === (IMAGE | LINK);

/** w:rPr for each combination of formatting flags, children in CT_RPr schema order. */
const runProperties: (IXmlableObject | undefined)[] = Array.from({ length: FLAG_COMBINATIONS }, (_, flags) => {
  const children: IXmlableObject[] = [];
  const style = runStyle(flags);
  if (style) children.push({ "w:rStyle": { _attr: { "w:val": style } } });
  if (flags & CODE) {
    children.push({
      "w:rFonts": { _attr: { "w:ascii": MONOSPACE_FONT, "w:hAnsi": MONOSPACE_FONT, "w:eastAsia": MONOSPACE_FONT, "w:cs": MONOSPACE_FONT } },
    });
  }
  if (flags & BOLD) children.push({ "w:b": EMPTY }, { "w:bCs": EMPTY });
  if (flags & ITALIC) children.push({ "w:i": EMPTY }, { "w:iCs": EMPTY });
  if (flags & STRIKE) children.push({ "w:strike": EMPTY });
  if (linkColor(flags)) children.push({ "w:color": { _attr: { "w:val": HYPERLINK_COLOR } } });
  if (flags & UNDERLINE || codeLink(flags)) children.push({ "w:u": { _attr: { "w:val": "single" } } });
  if (flags & (SUBSCRIPT | SUPERSCRIPT))
    children.push({ "w:vertAlign": { _attr: { "w:val": flags & SUPERSCRIPT ? "superscript" : "subscript" } } });
  if (flags & RTL) children.push({ "w:rtl": EMPTY });
  return children.length > 0 ? { "w:rPr": children } : undefined;
});

/** runProperties as XML, for runs written as strings (tables: see ./table.ts). */
const runPropertiesXml: string[] = Array.from({ length: FLAG_COMBINATIONS }, (_, flags) => {
  let out = "";
  const style = runStyle(flags);
  if (style) out += `<w:rStyle w:val="${style}"/>`;
  if (flags & CODE)
    out += `<w:rFonts w:ascii="${MONOSPACE_FONT}" w:hAnsi="${MONOSPACE_FONT}" w:eastAsia="${MONOSPACE_FONT}" w:cs="${MONOSPACE_FONT}"/>`;
  if (flags & BOLD) out += "<w:b/><w:bCs/>";
  if (flags & ITALIC) out += "<w:i/><w:iCs/>";
  if (flags & STRIKE) out += "<w:strike/>";
  if (linkColor(flags)) out += `<w:color w:val="${HYPERLINK_COLOR}"/>`;
  if (flags & UNDERLINE || codeLink(flags)) out += '<w:u w:val="single"/>';
  if (flags & (SUBSCRIPT | SUPERSCRIPT)) out += `<w:vertAlign w:val="${flags & SUPERSCRIPT ? "superscript" : "subscript"}"/>`;
  if (flags & RTL) out += "<w:rtl/>";
  return out ? `<w:rPr>${out}</w:rPr>` : "";
});

const BREAK_ELEMENT: IXmlableObject = { "w:r": [{ "w:br": EMPTY }] };
const BREAK_XML = "<w:r><w:br/></w:r>";

function runElement(text: string, flags: number): IXmlableObject {
  const content: IXmlableObject[] = [];
  const properties = runProperties[flags & FLAG_MASK];
  if (properties) content.push(properties);
  if (text.includes("\t")) {
    text.split("\t").forEach((part, i) => {
      if (i > 0) content.push(TAB);
      if (part) content.push({ "w:t": [PRESERVE, part] });
    });
  } else {
    content.push({ "w:t": [PRESERVE, text] });
  }
  return { "w:r": content };
}

/**
 * A run of text with the given formatting flags. `text` must already be XML-legal and free of
 * line endings (see runText); tabs become w:tab, as Word writes them.
 */
export function textRun(text: string, flags: number): ParagraphChild {
  return new FastRun(text, flags) as unknown as ParagraphChild;
}

/** A run holding one line break (w:br), for markdown hard breaks. */
export function breakRun(): ParagraphChild {
  return new FastRun(null, 0) as unknown as ParagraphChild;
}

/** A footnote reference (w:footnoteReference) as docx's FootnoteReferenceRun writes it. */
class NoteRun extends BaseXmlComponent {
  constructor(private readonly id: number) {
    super("w:r");
  }

  override prepForXml(): IXmlableObject {
    return { "w:r": [NOTE_STYLE, { "w:footnoteReference": { _attr: { "w:id": this.id } } }] };
  }

  xml(): string {
    return `<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="${this.id}"/></w:r>`;
  }
}

const NOTE_STYLE: IXmlableObject = { "w:rPr": [{ "w:rStyle": { _attr: { "w:val": "FootnoteReference" } } }] };

/** A note's own mark at the start of its text (w:footnoteRef), as docx writes it. */
export const NOTE_MARK_XML = '<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/></w:r>';

/** A reference to footnote `id` in the text. */
export function noteReferenceRun(id: number): ParagraphChild {
  return new NoteRun(id) as unknown as ParagraphChild;
}

/** Whether a paragraph child is a run made here (textRun, breakRun, noteReferenceRun: written by runXml). */
export const isLightRun = (child: ParagraphChild): boolean => child instanceof FastRun || child instanceof NoteRun;

/** The XML of a run made here (see isLightRun); undefined for any other paragraph child (hyperlinks, images). */
export function runXml(child: ParagraphChild): string | undefined {
  return child instanceof FastRun || child instanceof NoteRun ? child.xml() : undefined;
}
