// Body paragraphs as XML strings instead of docx's object graph.
//
// docx turns each Paragraph into a tree of components, then xml objects, then strings: for a
// 400,000-character document that was most of the packing time. A paragraph whose children are
// light runs (./runs.ts) and hyperlinks of them is written here straight to the XML docx writes
// for it (test/documents/render/paragraph-xml.test.ts compares the two); one with an image still
// goes through docx, which owns media. docx is still asked for what it owns: list numbering ids
// (its Numbering) and hyperlink relationships (the document's Relationships).
import {
  ExternalHyperlink,
  FileChild,
  type IContext,
  type IParagraphOptions,
  type IXmlableObject,
  type NumberingDefinition,
  type ParagraphChild,
} from "docx";
import { escapeXml, runXml } from "./runs.ts";

type Numbering = NonNullable<Exclude<IParagraphOptions["numbering"], false>>;

const HYPERLINK = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink";
/** docx's limit on a w:anchor (a longer fragment stays in the relationship's target). */
const MAX_ANCHOR_LENGTH = 255;

/** Numbering ids and hyperlink relationships for one document, from docx's own registries. */
class PartContext {
  private readonly numIds = new Map<string, number>();
  private links = 0;

  constructor(private readonly context: IContext) {}

  numId(numbering: Numbering): number {
    const reference = numbering.reference;
    const name = typeof reference === "string" ? reference : reference.reference;
    const instance = numbering.instance ?? 0;
    const key = `${name}-${instance}`;
    let id = this.numIds.get(key);
    if (id === undefined) {
      const definition: NumberingDefinition | undefined = typeof reference === "string" ? undefined : reference;
      this.context.file.Numbering.createConcreteNumberingInstance(name, instance, definition);
      id = this.context.file.Numbering.ConcreteNumbering.find((n) => n.reference === name && n.instance === instance)?.numId;
      if (id === undefined) throw new Error(`no numbering for ${key}`);
      this.numIds.set(key, id);
    }
    return id;
  }

  /** An external hyperlink's relationship id, and its #fragment as w:anchor (as docx and Word split them). */
  link(href: string): { id: string; anchor?: string } {
    const hash = href.indexOf("#");
    const fragment = hash > 0 ? href.slice(hash + 1) : "";
    const split = fragment.length > 0 && fragment.length <= MAX_ANCHOR_LENGTH;
    const id = `Link${++this.links}`;
    this.context.viewWrapper.Relationships.addRelationship(id, HYPERLINK, split ? href.slice(0, hash) : href, "External");
    return split ? { id: `rId${id}`, anchor: fragment } : { id: `rId${id}` };
  }
}

/** Whether the paragraph can be written as a string: every child a light run or a hyperlink of them. */
export function writable(options: IParagraphOptions): boolean {
  for (const child of options.children ?? []) {
    if (child instanceof ExternalHyperlink) {
      for (const run of child.options.children) if (runXml(run) === undefined) return false;
    } else if (runXml(child) === undefined) return false;
  }
  return true;
}

function children(items: readonly ParagraphChild[], part: PartContext): string {
  let out = "";
  for (const child of items) {
    if (child instanceof ExternalHyperlink) {
      const { id, anchor } = part.link(child.options.link);
      out += `<w:hyperlink w:history="1"${anchor === undefined ? "" : ` w:anchor="${escapeXml(anchor)}"`} r:id="${id}">${children(child.options.children, part)}</w:hyperlink>`;
    } else {
      out += runXml(child) ?? "";
    }
  }
  return out;
}

/** w:pPr as docx writes it for the options the renderer uses (style, heading, numbering, border, indent, alignment). */
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
  const indent = options.indent;
  if (indent)
    out += `<w:ind${indent.left === undefined ? "" : ` w:left="${indent.left}"`}${indent.hanging === undefined ? "" : ` w:hanging="${indent.hanging}"`}/>`;
  if (options.alignment) out += `<w:jc w:val="${options.alignment}"/>`;
  return out ? `<w:pPr>${out}</w:pPr>` : "";
}

function paragraphXml(options: IParagraphOptions, part: PartContext): string {
  const inner = properties(options, part) + children(options.children ?? [], part);
  return inner ? `<w:p>${inner}</w:p>` : "<w:p/>";
}

/**
 * Consecutive writable paragraphs as one component. Their XML is made when docx writes the
 * document (it needs the document's numbering and relationships), and handed to docx's writer as
 * a function child, which it writes through String() (see RawTable in ./table.ts).
 */
export class RawParagraphs extends FileChild {
  constructor(private readonly paragraphs: readonly IParagraphOptions[]) {
    super("w:p");
  }

  override prepForXml(context: IContext): IXmlableObject {
    const part = partContexts.get(context.file) ?? new PartContext(context);
    partContexts.set(context.file, part);
    let xml = "";
    for (const options of this.paragraphs) xml += paragraphXml(options, part);
    // The sole child of an element with no name: docx's writer prints its content and no tag. (A
    // string child directly among the body's would replace the element before it: docx keeps the
    // xml package's quirk that a string in a child list pops the entry before it.)
    const raw = Object.assign(() => xml, { toString: () => xml });
    return { "": [raw] } as unknown as IXmlableObject;
  }
}

/** One PartContext per document being written (numbering ids must agree across chunks). */
const partContexts = new WeakMap<object, PartContext>();
