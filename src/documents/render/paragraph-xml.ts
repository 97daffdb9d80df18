// Body paragraphs as XML strings instead of docx's object graph.
//
// docx turns each Paragraph into a tree of components, then xml objects, then strings: for a
// 400,000-character document that was most of the packing time. A paragraph whose children are
// light runs (./runs.ts) and hyperlinks of them is written here straight to the XML docx writes
// for it (test/documents/render/paragraph-xml.test.ts compares the two); one with an image still
// goes through docx, which owns media. docx is still asked for what it owns: list numbering ids
// (its Numbering) and hyperlink relationships (the document's Relationships).
import { ExternalHyperlink, type IParagraphOptions, type ParagraphChild } from "docx";
import { RawXml, type PartContext } from "./raw-xml.ts";
import { escapeXml, isLightRun, runXml } from "./runs.ts";

/** Whether the paragraph can be written as a string: every child a light run or a hyperlink of them. */
export const writable = (options: IParagraphOptions): boolean => writableChildren(options.children ?? []);

/** Whether paragraph children can be written as a string (a paragraph's, a table cell's). */
export function writableChildren(items: readonly ParagraphChild[]): boolean {
  for (const child of items) {
    if (child instanceof ExternalHyperlink) {
      for (const run of child.options.children) if (!isLightRun(run)) return false;
    } else if (!isLightRun(child)) return false;
  }
  return true;
}

/** Runs and hyperlinks of them as XML, the links registered in `part`. */
export function childrenXml(items: readonly ParagraphChild[], part: PartContext): string {
  let out = "";
  for (const child of items) {
    if (child instanceof ExternalHyperlink) {
      const { id, anchor } = part.link(child.options.link);
      out += `<w:hyperlink w:history="1"${anchor === undefined ? "" : ` w:anchor="${escapeXml(anchor)}"`} r:id="${id}">${childrenXml(child.options.children, part)}</w:hyperlink>`;
    } else {
      out += runXml(child) ?? "";
    }
  }
  return out;
}

/** In a right-to-left paragraph Word reads jc left and right the other way round; docx swaps them, as this does. */
const jc = (options: IParagraphOptions): string =>
  options.bidirectional && options.alignment === "left"
    ? "right"
    : options.bidirectional && options.alignment === "right"
      ? "left"
      : options.alignment!;

/**
 * w:pPr as docx writes it for the options the renderer uses (style, heading, numbering, border,
 * direction, spacing after, indent, alignment).
 */
function properties(options: IParagraphOptions, part: PartContext): string {
  let out = "";
  const numbering = options.numbering || undefined;
  // docx gives a numbered paragraph without a style of its own Word's List Paragraph style.
  const style = options.heading ?? options.style ?? (numbering ? "ListParagraph" : undefined);
  if (style) out += `<w:pStyle w:val="${style}"/>`;
  if (numbering) out += `<w:numPr><w:ilvl w:val="${numbering.level}"/><w:numId w:val="${part.numId(numbering)}"/></w:numPr>`;
  const bottom = options.border?.bottom;
  if (bottom)
    out += `<w:pBdr><w:bottom w:val="${bottom.style}" w:color="${bottom.color ?? "auto"}" w:sz="${bottom.size ?? 6}" w:space="${bottom.space ?? 1}"/></w:pBdr>`;
  if (options.bidirectional) out += "<w:bidi/>";
  const after = options.spacing?.after;
  if (after !== undefined) out += `<w:spacing w:after="${after}"/>`;
  const indent = options.indent;
  if (indent)
    out += `<w:ind${indent.left === undefined ? "" : ` w:left="${indent.left}"`}${indent.hanging === undefined ? "" : ` w:hanging="${indent.hanging}"`}/>`;
  if (options.alignment) out += `<w:jc w:val="${jc(options)}"/>`;
  return out ? `<w:pPr>${out}</w:pPr>` : "";
}

/** A paragraph's XML; `lead` is a run written before its children (a footnote's own mark). */
export function paragraphXml(options: IParagraphOptions, part: PartContext, lead = ""): string {
  const inner = properties(options, part) + lead + childrenXml(options.children ?? [], part);
  return inner ? `<w:p>${inner}</w:p>` : "<w:p/>";
}

/** Consecutive writable paragraphs as one raw element. */
export class RawParagraphs extends RawXml {
  constructor(private readonly paragraphs: readonly IParagraphOptions[]) {
    super();
  }

  override chunks(part: PartContext): readonly string[] {
    return this.paragraphs.map((options) => paragraphXml(options, part));
  }
}
