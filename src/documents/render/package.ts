// From the document builder's blocks to the .docx package. docx writes the parts around the body
// (styles, numbering, footnotes, relationships, core properties, media) and the body elements it
// owns (paragraphs with images, tables with links); raw elements (./raw-xml.ts) stand in docx's
// document.xml as markers, and their strings are streamed into the zip in their place (src/ooxml/zip-write.ts),
// with their hyperlink relationships added to document.xml.rels. Only docx's small document.xml
// is ever one string.
import { Document, FileChild, Packer, Paragraph, type IContext, type IPropertiesOptions, type IXmlableObject } from "docx";
import { splitFrontMatter } from "./front-matter.ts";
import { parseMarkdown } from "./markdown.ts";
import {
  DOCUMENT_PART,
  RELATIONSHIPS_PART,
  TITLE_MARKER,
  packFromTemplate,
  templateFrom,
  type PackageTemplate,
} from "./package-template.ts";
import { RawParagraphs, writable } from "./paragraph-xml.ts";
import { DocxNumbering, PartContext, RawXml } from "./raw-xml.ts";
import type { Block, ParagraphProps } from "./blocks.ts";
import { wordFootnotes, type NoteParagraphs } from "./footnotes.ts";
import { DocumentBuilder } from "./render.ts";
import { numbering, styles } from "./styles.ts";
import { normalizeExtractedText, xmlSafe } from "./text.ts";
import { zipParts, type PartContent } from "../../ooxml/zip-write.ts";

export interface RenderOptions {
  /** The document's title, written to its core properties (docProps/core.xml), unless its front matter has a `title`. */
  title: string;
}

export interface RenderResult {
  /** The .docx package. */
  docx: Uint8Array;
  /** The document's text, equal to normalizeExtractedText(mammoth.extractRawText(docx).value). */
  text: string;
}

const CREATOR = "workspace-gateway";
/** Where a raw element stands in docx's document.xml. No text can produce it: docx escapes `<` in text. */
const MARKER = "<wg:raw/>";

/** The one PartContext of the document being written, made when docx first writes a raw element. */
class Parts {
  context: PartContext | undefined;
  readonly slots: Slot[] = [];
}

/** A raw element's place in the body: writes the marker, and keeps the element's XML for the zip. */
class Slot extends FileChild {
  xml: readonly string[] = [];

  constructor(
    private readonly element: RawXml,
    private readonly parts: Parts,
  ) {
    super("w:p");
  }

  override prepForXml(context: IContext): IXmlableObject {
    this.parts.context ??= new PartContext(new DocxNumbering(context.file));
    this.xml = this.element.chunks(this.parts.context);
    // The sole child of an element with no name: docx's writer prints its content and no tag. It
    // writes a non-object child through String() and escapes only strings, so a function whose
    // toString is the marker is the way to hand it markup.
    const marker = Object.assign(() => MARKER, { toString: () => MARKER });
    return { "": [marker] } as unknown as IXmlableObject;
  }
}

/** docx's own compiler: the package's parts by path, before zipping (Packer would zip them with fflate's JavaScript deflate). */
const compile = (document: Document): Map<string, string | Uint8Array> =>
  (Packer as unknown as { compiler: { compile(document: Document): Map<string, string | Uint8Array> } }).compiler.compile(document);

/** document.xml as docx wrote it around the markers, with each slot's strings in its marker's place. */
function documentPart(written: string, slots: readonly Slot[]): PartContent {
  const pieces = written.split(MARKER);
  if (pieces.length !== slots.length + 1) throw new Error(`document.xml has ${pieces.length - 1} raw markers for ${slots.length} elements`);
  const content: (string | readonly string[])[] = [pieces[0]!];
  slots.forEach((slot, i) => content.push(slot.xml, pieces[i + 1]!));
  return content;
}

export type BodyElement = FileChild | RawXml;

/**
 * The .docx package of a body, with the renderer's styles and numbering. Exported for tests, which
 * compare raw elements with docx's own for the same content.
 */
export async function packBody(
  body: readonly BodyElement[],
  properties: Pick<IPropertiesOptions, "title" | "creator" | "footnotes"> = {},
): Promise<Uint8Array> {
  const parts = new Parts();
  const children = body.map((element) => {
    if (!(element instanceof RawXml)) return element;
    const slot = new Slot(element, parts);
    parts.slots.push(slot);
    return slot;
  });
  const document = new Document({ ...properties, styles, numbering, sections: [{ children }] });
  const files = new Map<string, PartContent>(compile(document));
  files.set(DOCUMENT_PART, documentPart(files.get(DOCUMENT_PART) as string, parts.slots));
  const links = parts.context?.relationships();
  if (links) {
    const relationships = files.get(RELATIONSHIPS_PART) as string;
    const end = relationships.lastIndexOf("</Relationships>");
    files.set(RELATIONSHIPS_PART, [relationships.slice(0, end), links, relationships.slice(end)]);
  }
  return zipParts(files);
}

/** An element that writes nothing: the body of the template. */
class Nothing extends RawXml {
  override chunks(): readonly string[] {
    return [];
  }
}

let template: PackageTemplate | undefined;

/** The package template (./package-template.ts), compiled by docx on first use. */
function packageTemplate(): PackageTemplate {
  if (!template) {
    const parts = new Parts();
    const slot = new Slot(new Nothing(), parts);
    const document = new Document({
      title: TITLE_MARKER,
      creator: CREATOR,
      footnotes: {},
      styles,
      numbering,
      sections: [{ children: [slot] }],
    });
    template = templateFrom(compile(document), MARKER, numbering.config);
  }
  return template;
}

/**
 * The .docx package: from the template when the body is raw XML only and every note's paragraphs
 * can be written as strings (no image), else by docx. Exported for tests, which compare the two.
 */
export function packDocument(body: readonly BodyElement[], title: string, notes: NoteParagraphs, viaDocx = false): Promise<Uint8Array> {
  const raw = body.every((element): element is RawXml => element instanceof RawXml);
  const writableNotes = [...notes.values()].every((paragraphs) => paragraphs.every(writable));
  if (raw && writableNotes && !viaDocx) return packFromTemplate(packageTemplate(), body, notes, xmlSafe(title));
  return packBody(body, { title: xmlSafe(title), creator: CREATOR, footnotes: wordFootnotes(notes) });
}

/** Runs of writable paragraphs as raw elements; a paragraph with an image as docx's; tables as they are. */
function bodyElements(blocks: readonly Block[]): BodyElement[] {
  const out: BodyElement[] = [];
  let run: ParagraphProps[] = [];
  const flush = () => {
    if (run.length > 0) out.push(new RawParagraphs(run));
    run = [];
  };
  for (const block of blocks) {
    if (block instanceof RawXml || block instanceof FileChild) {
      flush();
      out.push(block);
    } else if (writable(block)) {
      run.push(block);
    } else {
      flush();
      out.push(new Paragraph(block));
    }
  }
  flush();
  return out;
}

/** A document built from markdown, before packing: its (normalised) text, and how to pack it. */
export interface BuiltDocument {
  text: string;
  /** The .docx package; call once. */
  pack(): Promise<Uint8Array>;
  /** The same package written by docx alone, never from the template (tests compare the two); call once, instead of pack. */
  packViaDocx(): Promise<Uint8Array>;
}

/** Parses and builds the document, without packing it. Exported for benches. */
export function buildDocument(markdown: string, options: RenderOptions): BuiltDocument {
  const front = splitFrontMatter(markdown);
  const builder = new DocumentBuilder(parseMarkdown(front ? front.body : markdown));
  if (front) builder.frontMatter(front.rows);
  const { blocks, text, footnotes } = builder.build();
  const body = bodyElements(blocks);
  const title = front?.title || options.title;
  return {
    text: normalizeExtractedText(text),
    pack: () => packDocument(body, title, footnotes),
    packViaDocx: () => packDocument(body, title, footnotes, true),
  };
}

/** markdown → { .docx bytes, its text }. Pure: no I/O, no network, no shared mutable state. */
export async function renderDocument(markdown: string, options: RenderOptions): Promise<RenderResult> {
  const built = buildDocument(markdown, options);
  return { docx: await built.pack(), text: built.text };
}
