// An uploaded .docx checked and written anew (ECMA-376 Part 2 via ../../ooxml/): the package's
// structure (content types, relationships: no external one but hyperlinks), the main part a Word
// document, and every XML part decoded as XML decodes it and parsed by a real XML parser with DTDs
// refused, within the budgets of ./limits.ts. What is stored is the package written back from what
// was parsed, so it says to Word exactly what it said to these checks; mammoth reads a copy of it
// in which the numbering part gets one abstract list per instance (./lists.ts).
import { zipSync, type Zippable } from "fflate";
import {
  DOCX,
  inflateItem,
  isXmlContentType,
  isXmlName,
  looksLikeXml,
  OpcPackage,
  repack,
  XmlPartReader,
  XmlWriter,
  type PackageLimits,
  type RepackPart,
  type XmlElement,
  type ZipItem,
} from "../../ooxml/index.ts";
import { notDocx, tooManyElements, tooMuchText } from "./errors.ts";
import { DOCX_ELEMENT_LIMIT, DOCX_TEXT_LIMIT_CHARS } from "./limits.ts";
import { separateInstances } from "./lists.ts";

const MAIN_DOCUMENT_TYPES = new Set([
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
  "application/vnd.ms-word.document.macroenabled.main+xml",
  "application/vnd.ms-word.template.macroenabledtemplate.main+xml",
]);
const WORD_NS = new Set([
  "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
  "http://purl.oclc.org/ooxml/wordprocessingml/main",
]);
const NUMBERING = [
  "http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering",
  "http://purl.oclc.org/ooxml/officeDocument/relationships/numbering",
];

export interface WordLimits extends PackageLimits {
  elements: number;
  textChars: number;
}

export interface CheckedDocx {
  /** The package written anew from what was parsed: what the gateway stores and serves. */
  stored: Uint8Array;
  /** The package mammoth reads: XML parts only, numbering instances separated. */
  forMammoth: Uint8Array;
}

/** Counts elements and Word text across parts, against the import's bounds. */
class WorkCounter {
  private elements = 0;
  private text = 0;
  private inText = 0;
  constructor(private readonly limits: WordLimits) {}
  open(element: XmlElement): void {
    if (++this.elements > this.limits.elements) throw tooManyElements(this.limits.elements);
    if (element.local === "t" && WORD_NS.has(element.uri)) this.inText++;
  }
  close(local: string): void {
    if (local === "t" && this.inText > 0) this.inText--;
  }
  characters(text: string): void {
    if (this.inText === 0) return;
    this.text += text.length;
    if (this.text > this.limits.textChars) throw tooMuchText(this.limits.textChars);
  }
}

/**
 * One part: an XML part (by content type, by name, or because its bytes start like XML) is parsed
 * and written back, and its text returned; any other part is inflated (counted, CRC checked) and
 * copied as it came.
 */
function readPart(pkg: OpcPackage, item: ZipItem, counter: WorkCounter): { text: string } | { copy: RepackPart } {
  const declaredXml = isXmlContentType(pkg.contentType(item.name)) || isXmlName(item.name);
  // The directory's size is a hint only: the bytes are counted as they come.
  const pieces: string[] = [];
  let held = 0;
  const writer = new XmlWriter((text) => {
    pkg.budget.hold(text.length * 2);
    held += text.length * 2;
    pieces.push(text);
  });
  let reader: XmlPartReader | undefined;
  let decided = false;
  const size = inflateItem(item, pkg.budget, (chunk) => {
    if (!decided) {
      decided = true;
      if (declaredXml || looksLikeXml(chunk)) {
        reader = new XmlPartReader(item.name, pkg.budget, {
          open: (element) => (counter.open(element), writer.open(element)),
          text: (text) => (counter.characters(text), writer.text(text)),
          close: (name, local) => (counter.close(local), writer.close(name)),
        });
      }
    }
    reader?.write(chunk);
  });
  // An empty part has nothing to parse: it is stored empty (a reader that needs it fails on it either way).
  if (!decided) return { copy: { name: item.name, bytes: new Uint8Array(0) } };
  if (!reader) {
    const copy: RepackPart =
      item.method === 8
        ? { name: item.name, deflated: item.compressed, crc: item.crc, size }
        : { name: item.name, bytes: item.compressed, store: true };
    return { copy };
  }
  reader.end();
  writer.end();
  const text = pieces.join("");
  pkg.budget.release(held);
  pkg.budget.hold(text.length * 2);
  return { text };
}

/** Checks an uploaded .docx and writes it anew; throws UnsupportedPackage (415) or PackageTooLarge (413). */
export function checkDocx(bytes: Uint8Array, limits: WordLimits): CheckedDocx {
  const pkg = OpcPackage.open(bytes, { kind: DOCX, limits });
  const main = pkg.mainPart();
  const type = pkg.contentType(main.name);
  if (!type || !MAIN_DOCUMENT_TYPES.has(type.toLowerCase())) {
    throw notDocx(`its main document is ${type ? `of type ${type}` : "of no declared type"}, not a Word document`);
  }
  const numbering = pkg.related(main.name, NUMBERING)?.item?.name;
  const isXml = (item: ZipItem) => isXmlContentType(pkg.contentType(item.name)) || isXmlName(item.name);
  const declared = (items: readonly ZipItem[]) => items.reduce((sum, item) => sum + item.declaredSize, 0);
  pkg.budget.declared(declared(pkg.items), declared(pkg.items.filter(isXml)));
  const counter = new WorkCounter(limits);
  const stored: RepackPart[] = [];
  const mammoth: Zippable = {};
  for (const item of pkg.items) {
    let text = pkg.rewritten.get(item.name) ?? (item === pkg.get("[Content_Types].xml") ? pkg.contentTypes.xml : undefined);
    if (text === undefined) {
      const part = readPart(pkg, item, counter);
      if ("copy" in part) {
        stored.push(part.copy);
        mammoth[item.name] = [new Uint8Array(0), { level: 0 }];
        continue;
      }
      text = part.text;
    }
    stored.push({ name: item.name, text });
    const forMammoth = item.name === numbering ? separateInstances(text) : text;
    mammoth[item.name] = [Buffer.from(forMammoth, "utf8"), { level: 0 }];
  }
  const mammothZip = zipSync(mammoth, { level: 0 });
  pkg.budget.hold(mammothZip.byteLength);
  return { stored: repack(stored, pkg.budget), forMammoth: mammothZip };
}

export const WORD_LIMITS_DEFAULT = (base: PackageLimits): WordLimits => ({
  ...base,
  elements: DOCX_ELEMENT_LIMIT,
  textChars: DOCX_TEXT_LIMIT_CHARS,
});
