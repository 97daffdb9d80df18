// Packages written from a template. Most documents are text, lists, tables and links only: their
// body is raw XML (./raw-xml.ts) and every other part is the same for each of them but for the
// title, the dates, the list definitions and the link relationships. docx compiles such a package
// once per process (per render worker); each document is then that package with its body, its
// numbering.xml (./numbering-xml.ts), its title and dates and its links put in. docx's compile of
// the parts around the body was a sixth of a 400,000-character render. Footnotes are written the
// same way into footnotes.xml, their links into its relationships. Documents with an image (in
// the body or a note) are still packed by docx (./package.ts). The parts are those docx writes for
// the same document (test/documents/render/package-template.test.ts compares them).
import type { INumberingOptions } from "docx";
import type { NoteParagraphs } from "./footnotes.ts";
import { RawNumbering, type NumberingTemplate } from "./numbering-xml.ts";
import { paragraphXml } from "./paragraph-xml.ts";
import { PartContext, type RawXml } from "./raw-xml.ts";
import { NOTE_MARK_XML, escapeXml } from "./runs.ts";
import { zipParts, type PartContent } from "../../ooxml/zip-write.ts";

export const DOCUMENT_PART = "word/document.xml";
export const RELATIONSHIPS_PART = "word/_rels/document.xml.rels";
const NUMBERING_PART = "word/numbering.xml";
const CORE_PART = "docProps/core.xml";
const FOOTNOTES_PART = "word/footnotes.xml";
const FOOTNOTES_RELATIONSHIPS_PART = "word/_rels/footnotes.xml.rels";

/** The title the template is compiled with: replaced by each document's (no title can produce it: docx escapes `<`). */
export const TITLE_MARKER = "wg-title-\uE000";
const TIMESTAMP = /(<dcterms:(?:created|modified) xsi:type="dcterms:W3CDTF">)[^<]*(<)/g;

export interface PackageTemplate {
  /** Every part of the template, in docx's order. */
  readonly parts: ReadonlyMap<string, string | Uint8Array>;
  /** document.xml before and after the body. */
  readonly document: readonly [string, string];
  /** document.xml.rels before and after the links. */
  readonly relationships: readonly [string, string];
  /** core.xml before and after the title. */
  readonly core: readonly [string, string];
  /** footnotes.xml before and after the notes (docx's separators are before). */
  readonly footnotes: readonly [string, string];
  /** footnotes.xml.rels before and after the notes' links. */
  readonly footnoteRelationships: readonly [string, string];
  readonly numbering: NumberingTemplate;
  readonly numberingConfig: INumberingOptions["config"];
}

function split(text: string, at: string, part: string): [string, string] {
  const index = text.indexOf(at);
  if (index < 0 || text.indexOf(at, index + 1) >= 0) throw new Error(`${part}: expected one ${JSON.stringify(at)}`);
  return [text.slice(0, index), text.slice(index + at.length)];
}

/**
 * The template from docx's parts for a document whose body is one `bodyMarker` and whose title is
 * TITLE_MARKER, with the renderer's numbering configuration and no list used.
 */
export function templateFrom(
  parts: ReadonlyMap<string, string | Uint8Array>,
  bodyMarker: string,
  numberingConfig: INumberingOptions["config"],
): PackageTemplate {
  const text = (name: string) => {
    const value = parts.get(name);
    if (typeof value !== "string") throw new Error(`the template has no ${name}`);
    return value;
  };
  const numbering = text(NUMBERING_PART);
  const firstNum = numbering.indexOf("<w:num ");
  const endFirstNum = numbering.indexOf("</w:num>", firstNum) + "</w:num>".length;
  if (firstNum < 0 || numbering.slice(endFirstNum) !== "</w:numbering>")
    throw new Error("numbering.xml: expected one list instance, docx's default");
  return {
    parts,
    document: split(text(DOCUMENT_PART), bodyMarker, DOCUMENT_PART),
    relationships: split(text(RELATIONSHIPS_PART), "</Relationships>", RELATIONSHIPS_PART),
    core: split(text(CORE_PART), TITLE_MARKER, CORE_PART),
    footnotes: split(text(FOOTNOTES_PART), "</w:footnotes>", FOOTNOTES_PART),
    // Empty, docx writes this part's root as `<Relationships …/>`.
    footnoteRelationships: split(
      text(FOOTNOTES_RELATIONSHIPS_PART).replace(/\/>$/, "></Relationships>"),
      "</Relationships>",
      FOOTNOTES_RELATIONSHIPS_PART,
    ),
    numbering: { head: numbering.slice(0, firstNum), defaultNum: numbering.slice(firstNum, endFirstNum) },
    numberingConfig,
  };
}

/** core.xml with the title (none when empty, as docx writes it) and the time of writing. */
function coreXml([head, tail]: readonly [string, string], title: string): string {
  const now = new Date().toISOString();
  const dated = tail.replace(TIMESTAMP, (_, open: string, close: string) => `${open}${now}${close}`);
  if (title !== "") return `${head}${escapeXml(title)}${dated}`;
  return `${head.slice(0, head.lastIndexOf("<dc:title>"))}${dated.slice(dated.indexOf("</dc:title>") + "</dc:title>".length)}`;
}

/** footnotes.xml's notes: each note's paragraphs, the first starting with the note's own mark, as docx writes them. */
function notesXml(notes: NoteParagraphs, context: PartContext): string[] {
  const out: string[] = [];
  for (const id of [...notes.keys()].sort((a, b) => a - b)) {
    const paragraphs = notes.get(id)!;
    out.push(`<w:footnote w:id="${id}">`);
    paragraphs.forEach((options, i) => out.push(paragraphXml(options, context, i === 0 ? NOTE_MARK_XML : "")));
    out.push("</w:footnote>");
  }
  return out;
}

/**
 * The .docx of a body of raw elements and notes of writable paragraphs, from the template.
 * `title` is XML-safe (xmlSafe).
 */
export function packFromTemplate(
  template: PackageTemplate,
  body: readonly RawXml[],
  notes: NoteParagraphs,
  title: string,
): Promise<Uint8Array> {
  return zipParts(templateParts(template, body, notes, title));
}

/**
 * The package's parts in docx's order but for document.xml.rels, which follows document.xml. Each
 * is made when the zip writer comes to it: document.xml's body is written as it is deflated (the
 * deflate of one segment runs while the next is written), and the parts that depend on the body
 * come after it: its links (document.xml.rels), the notes, whose lists follow the body's, and
 * numbering.xml, which holds both.
 */
function* templateParts(
  template: PackageTemplate,
  body: readonly RawXml[],
  notes: NoteParagraphs,
  title: string,
): Generator<[string, PartContent]> {
  const numbering = new RawNumbering(template.numbering, template.numberingConfig);
  const context = new PartContext(numbering);
  const noteContext = new PartContext(numbering);
  for (const [name, content] of template.parts) {
    if (name === RELATIONSHIPS_PART) continue;
    if (name === DOCUMENT_PART) {
      yield [name, documentXml(template.document, body, context)];
      // Resumed once document.xml is written: its links are all known.
      yield [RELATIONSHIPS_PART, withLinks(template.relationships, context) ?? template.parts.get(RELATIONSHIPS_PART)!];
    } else if (name === FOOTNOTES_PART && notes.size > 0) {
      // The notes' links are relationships of footnotes.xml; their lists are the document's.
      yield [name, [template.footnotes[0], notesXml(notes, noteContext), `</w:footnotes>${template.footnotes[1]}`]];
    } else if (name === FOOTNOTES_RELATIONSHIPS_PART) {
      yield [name, withLinks(template.footnoteRelationships, noteContext) ?? content];
    } else if (name === NUMBERING_PART) {
      yield [name, numbering.xml()];
    } else if (name === CORE_PART) {
      yield [name, coreXml(template.core, title)];
    } else {
      yield [name, content];
    }
  }
}

/** document.xml: the template's head, each element's XML as the zip writer asks for it, the tail. */
function* documentXml(
  [head, tail]: readonly [string, string],
  body: readonly RawXml[],
  context: PartContext,
): Generator<string | readonly string[]> {
  yield head;
  for (const element of body) yield element.chunks(context);
  yield tail;
}

/** A relationships part with the links `context` gave out, or undefined when it gave none (the template's part as it is). */
function withLinks([head, tail]: readonly [string, string], context: PartContext): PartContent | undefined {
  const links = context.relationships();
  return links ? [head, links, `</Relationships>${tail}`] : undefined;
}
