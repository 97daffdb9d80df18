// From the document builder's blocks to the .docx package: body paragraphs as XML strings
// (./paragraph-xml.ts) where they can be, docx for the document around them (styles, numbering,
// footnotes, core properties, media) and for packing.
import { Document, FileChild, Packer, Paragraph } from "docx";
import { parseMarkdown } from "./markdown.ts";
import { RawParagraphs, writable } from "./paragraph-xml.ts";
import { DocumentBuilder, type Block, type ParagraphProps } from "./render.ts";
import { numbering, styles } from "./styles.ts";
import { normalizeExtractedText, xmlSafe } from "./text.ts";

export interface RenderOptions {
  /** The document's title, written to its core properties (docProps/core.xml). */
  title: string;
}

export interface RenderResult {
  /** The .docx package. */
  docx: Uint8Array;
  /** The document's text, equal to normalizeExtractedText(mammoth.extractRawText(docx).value). */
  text: string;
}

/** Runs of paragraphs written as XML (./paragraph-xml.ts); a paragraph with an image through docx; tables as they are. */
function bodyChildren(blocks: readonly Block[]): FileChild[] {
  const out: FileChild[] = [];
  let run: ParagraphProps[] = [];
  const flush = () => {
    if (run.length > 0) out.push(new RawParagraphs(run));
    run = [];
  };
  for (const block of blocks) {
    if (block instanceof FileChild) {
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

/** The docx model of a markdown document and its (normalised) text, before packing. Exported for benches. */
export function buildDocument(markdown: string, options: RenderOptions): { document: Document; text: string } {
  const { blocks, text, footnotes } = new DocumentBuilder(parseMarkdown(markdown)).build();
  const document = new Document({
    title: xmlSafe(options.title),
    creator: "workspace-gateway",
    styles,
    numbering,
    footnotes,
    sections: [{ children: bodyChildren(blocks) }],
  });
  return { document, text: normalizeExtractedText(text) };
}

/** markdown → { .docx bytes, its text }. Pure: no I/O, no network, no shared mutable state. */
export async function renderDocument(markdown: string, options: RenderOptions): Promise<RenderResult> {
  const { document, text } = buildDocument(markdown, options);
  const docx = await Packer.pack(document, "uint8array");
  return { docx, text };
}
