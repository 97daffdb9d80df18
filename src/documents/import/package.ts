// Validates an OOXML WordprocessingML package (ECMA-376 Part 2, Open Packaging Conventions) from
// its inflated entries, trusting nothing in it:
//   - [Content_Types].xml and _rels/.rels exist, the officeDocument relationship names a part
//     that exists, and that part's content type is a Word main document (document, template,
//     macro-enabled either);
//   - no XML part carries a DTD (no entity, internal or external, ever reaches a parser), and
//     every XML part is UTF-8 (what mammoth decodes it as);
//   - no relationship reaches outside the package except hyperlinks: an attached template, a
//     linked image or OLE object, a subdocument or a frame would make a reader fetch something.
import { notDocx } from "./errors.ts";
import { attribute, elementsNamed } from "./xml.ts";
import type { ZipEntry } from "./zip.ts";

const CONTENT_TYPES = "[Content_Types].xml";
const ROOT_RELS = "_rels/.rels";
const OFFICE_DOCUMENT = [
  "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument",
  "http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument",
];
const HYPERLINK = [
  "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink",
  "http://purl.oclc.org/ooxml/officeDocument/relationships/hyperlink",
];
const MAIN_DOCUMENT_TYPES = new Set([
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
  "application/vnd.ms-word.document.macroenabled.main+xml",
  "application/vnd.ms-word.template.macroenabledtemplate.main+xml",
]);

/** Entries whose bytes are kept for parsing: XML by name, or anything that starts like XML. */
export function isXmlPart(name: string, data: Uint8Array): boolean {
  return /\.(xml|rels)$/i.test(name) || startsLikeXml(data);
}

function startsLikeXml(data: Uint8Array): boolean {
  let i = data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf ? 3 : 0;
  while (i < data.length && (data[i] === 0x20 || data[i] === 0x09 || data[i] === 0x0a || data[i] === 0x0d)) i++;
  return data[i] === 0x3c;
}

/** `<!` followed by a letter opens a declaration (DOCTYPE, ENTITY, …); `<!--` and `<![CDATA[` do not. */
function hasDeclaration(data: Uint8Array): boolean {
  for (let i = data.indexOf(0x3c); i >= 0 && i < data.length - 2; i = data.indexOf(0x3c, i + 1)) {
    if (data[i + 1] !== 0x21) continue;
    const next = data[i + 2]! | 0x20;
    if (next >= 0x61 && next <= 0x7a) return true;
  }
  return false;
}

const decoder = new TextDecoder("utf-8", { fatal: false });

/** A part name as the package spells it in a relationship target, resolved from `base` (a folder). */
function resolvePart(base: string, target: string): string {
  let path: string;
  try {
    path = decodeURIComponent(new URL(target, `http://package/${base}`).pathname);
  } catch {
    throw notDocx(`a relationship target (${target.slice(0, 100)}) is not a part name`);
  }
  return path.replace(/^\/+/, "");
}

export interface WordPackage {
  /** The main document part, e.g. word/document.xml. */
  mainPart: string;
  /** Its numbering part, e.g. word/numbering.xml, when it has one. */
  numberingPart: string | undefined;
}

export function validatePackage(entries: readonly ZipEntry[]): WordPackage {
  const parts = new Map<string, Uint8Array>();
  for (const entry of entries) parts.set(entry.name, entry.data);
  const xml = new Map<string, string>();
  for (const entry of entries) {
    if (!isXmlPart(entry.name, entry.data)) continue;
    const data = entry.data;
    if ((data[0] === 0xfe && data[1] === 0xff) || (data[0] === 0xff && data[1] === 0xfe)) throw notDocx(`${entry.name} is not UTF-8`);
    if (hasDeclaration(data)) throw notDocx(`${entry.name} contains a DTD or entity declaration`);
    xml.set(entry.name, decoder.decode(data));
  }

  const contentTypes = xml.get(CONTENT_TYPES);
  if (contentTypes === undefined) throw notDocx(`it has no ${CONTENT_TYPES} (not an Office Open XML package)`);
  const rootRels = xml.get(ROOT_RELS);
  if (rootRels === undefined) throw notDocx(`it has no ${ROOT_RELS} (not an Office Open XML package)`);

  const main = elementsNamed(rootRels, "Relationship").find((r) => OFFICE_DOCUMENT.includes(attribute(r, "Type") ?? ""));
  const target = main && attribute(main, "Target");
  if (!target) throw notDocx("it has no main document (no officeDocument relationship)");
  const mainPart = resolvePart("", target);
  if (!parts.has(mainPart)) throw notDocx(`its main document part ${mainPart} is missing`);
  const type = contentType(contentTypes, mainPart);
  if (!type || !MAIN_DOCUMENT_TYPES.has(type.toLowerCase())) {
    throw notDocx(`its main document is ${type ? `of type ${type}` : "of no declared type"}, not a Word document`);
  }

  for (const [name, text] of xml) {
    if (!/(^|\/)_rels\/[^/]*\.rels$/i.test(name)) continue;
    for (const relationship of elementsNamed(text, "Relationship")) {
      if ((attribute(relationship, "TargetMode") ?? "").toLowerCase() !== "external") continue;
      const relType = attribute(relationship, "Type") ?? "";
      if (!HYPERLINK.includes(relType)) {
        const short = relType.slice(relType.lastIndexOf("/") + 1) || "(untyped)";
        throw notDocx(`it has an external ${short} relationship (${relType || "no type"}); only hyperlinks may point outside the file`);
      }
    }
  }
  return { mainPart, numberingPart: numberingPart(xml, mainPart) };
}

function numberingPart(xml: Map<string, string>, mainPart: string): string | undefined {
  const folder = mainPart.slice(0, mainPart.lastIndexOf("/") + 1);
  const rels = xml.get(`${folder}_rels/${mainPart.slice(folder.length)}.rels`);
  const numbering = rels && elementsNamed(rels, "Relationship").find((r) => /\/numbering$/.test(attribute(r, "Type") ?? ""));
  const target = numbering && attribute(numbering, "Target");
  return target ? resolvePart(folder, target) : undefined;
}

/** A part's content type: its Override, else the Default for its extension (OPC names are case-insensitive). */
function contentType(contentTypes: string, part: string): string | undefined {
  const name = `/${part}`.toLowerCase();
  const override = elementsNamed(contentTypes, "Override").find((o) => (attribute(o, "PartName") ?? "").toLowerCase() === name);
  if (override) return attribute(override, "ContentType");
  const extension = part.slice(part.lastIndexOf(".") + 1).toLowerCase();
  const fallback = elementsNamed(contentTypes, "Default").find((d) => (attribute(d, "Extension") ?? "").toLowerCase() === extension);
  return fallback && attribute(fallback, "ContentType");
}
