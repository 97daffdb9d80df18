// Reading a rendered .docx back for assertions: its parts, its body paragraphs, and mammoth's text.
import JSZip from "jszip";
import mammoth from "mammoth";
import { renderDocument, normalizeExtractedText } from "../../../src/documents/render/index.ts";

export interface RenderedParts {
  text: string;
  docx: Uint8Array;
  zip: JSZip;
  document: string;
  numbering: string;
  styles: string;
  rels: string;
  core: string;
  /** Each top-level or table-cell w:p element of the body, in order. */
  paragraphs: string[];
}

export async function part(zip: JSZip, name: string): Promise<string> {
  const file = zip.file(name);
  return file ? file.async("string") : "";
}

export async function render(markdown: string, title = "Test document"): Promise<RenderedParts> {
  const { docx, text } = await renderDocument(markdown, { title });
  return readDocx(docx, text);
}

/** The parts of a .docx from anywhere (a download, say), with the text the caller was given for it. */
export async function readDocx(docx: Uint8Array, text: string): Promise<RenderedParts> {
  const zip = await JSZip.loadAsync(docx);
  const document = await part(zip, "word/document.xml");
  return {
    text,
    docx,
    zip,
    document,
    numbering: await part(zip, "word/numbering.xml"),
    styles: await part(zip, "word/styles.xml"),
    rels: await part(zip, "word/_rels/document.xml.rels"),
    core: await part(zip, "docProps/core.xml"),
    paragraphs: document.match(/<w:p\/>|<w:p(?:\s[^>]*)?>[\s\S]*?<\/w:p>/g) ?? [],
  };
}

export async function mammothText(docx: Uint8Array): Promise<string> {
  const { value } = await mammoth.extractRawText({ buffer: Buffer.from(docx) });
  return normalizeExtractedText(value);
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'" };

/** The visible text of one w:p (its w:t runs joined). */
export function paragraphText(paragraph: string): string {
  let out = "";
  for (const match of paragraph.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)) out += match[1] ?? "";
  return out.replace(/&(?:amp|lt|gt|quot|apos);/g, (entity) => ENTITIES[entity] ?? entity);
}

/** The one paragraph whose text is exactly `text` (fails loudly when there is none or several). */
export function paragraph(parts: RenderedParts, text: string): string {
  const found = parts.paragraphs.filter((p) => paragraphText(p) === text);
  if (found.length !== 1) throw new Error(`expected one paragraph with text ${JSON.stringify(text)}, found ${found.length}`);
  return found[0]!;
}

export function styleOf(paragraph: string): string | undefined {
  return /<w:pStyle w:val="([^"]+)"\/>/.exec(paragraph)?.[1];
}

export function numberingOf(paragraph: string): { level: number; numId: number } | undefined {
  const match = /<w:numPr><w:ilvl w:val="(\d+)"\/><w:numId w:val="(\d+)"\/><\/w:numPr>/.exec(paragraph);
  return match ? { level: Number(match[1]), numId: Number(match[2]) } : undefined;
}

/** The start value a w:num gives level 0 (its startOverride), read from numbering.xml. */
export function startOf(numbering: string, numId: number): number | undefined {
  const num = new RegExp(`<w:num w:numId="${numId}">([\\s\\S]*?)</w:num>`).exec(numbering)?.[1];
  const start = num && /<w:lvlOverride w:ilvl="0"><w:startOverride w:val="(\d+)"\/>/.exec(num)?.[1];
  return start ? Number(start) : undefined;
}

/** The w:numFmt of level 0 of the abstract numbering behind a w:num. */
export function formatOf(numbering: string, numId: number): string | undefined {
  const abstractId = new RegExp(`<w:num w:numId="${numId}"><w:abstractNumId w:val="(\\d+)"/>`).exec(numbering)?.[1];
  if (!abstractId) return undefined;
  const abstract = new RegExp(`<w:abstractNum [^>]*w:abstractNumId="${abstractId}"[^>]*>([\\s\\S]*?)</w:abstractNum>`).exec(numbering)?.[1];
  return abstract && /<w:lvl [^>]*w:ilvl="0"[^>]*>[\s\S]*?<w:numFmt w:val="([^"]+)"\/>/.exec(abstract)?.[1];
}
