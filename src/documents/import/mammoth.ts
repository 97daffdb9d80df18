// One mammoth pass over a validated package: its HTML (for markdown) and, from the very document
// tree mammoth read, its raw text by mammoth.extractRawText's rules (lib/raw-text.js): every
// paragraph is its text and "\n\n", a tab "\t", a line break a space (see rawText). That is the
// text shape the renderer derives for markdown documents (../render/text.ts), without parsing the
// file twice.
import mammoth from "mammoth";
import { normalizeExtractedText } from "../render/text.ts";
import { notDocx } from "./errors.ts";
import { markListStarts, type DocElement } from "./lists.ts";

/**
 * Styles that carry structure mammoth's default map does not know. Our renderer's (and pandoc's)
 * code blocks are "Source Code" paragraphs, inline code "Verbatim Char" runs, quotes "Quote";
 * Word's and LibreOffice's equivalents are listed too. A run in a monospace font with no style of
 * its own is marked as code by markCodeRuns below.
 */
const MONOSPACE_STYLE = "gateway monospace";
const STYLE_MAP = [
  "p[style-name='Source Code'] => pre:separator('\\n')",
  "p.SourceCode => pre:separator('\\n')",
  "p[style-name='Preformatted Text'] => pre:separator('\\n')",
  "p[style-name='HTML Preformatted'] => pre:separator('\\n')",
  "p[style-name='Quote'] => blockquote > p:fresh",
  "p[style-name='Intense Quote'] => blockquote > p:fresh",
  "p[style-name='Block Text'] => blockquote > p:fresh",
  "p[style-name='Quotations'] => blockquote > p:fresh",
  "p[style-name='Title'] => h1:fresh",
  "r[style-name='Verbatim Char'] => code",
  "r.VerbatimChar => code",
  "r[style-name='Source Text'] => code",
  "r[style-name='HTML Code'] => code",
  `r[style-name='${MONOSPACE_STYLE}'] => code`,
];
const MONOSPACE = /mono|courier|consolas|menlo|monaco|lucida console|source code|fira code|cascadia/i;

/** mammoth's document model, as far as this module walks it. */
interface Element {
  type: string;
  value?: string;
  children?: Element[];
  font?: string | null;
  styleName?: string | null;
  styleId?: string | null;
}

/**
 * mammoth's raw text, with one difference: mammoth gives a line break (w:br) no text, which glues
 * the words on either side together ("npm install" ⏎ "npm run build" in one pandoc code paragraph).
 * Here a break is a space unless a space is already there: our renderer writes a space before
 * each break it makes, so its documents' text is unchanged.
 */
function rawText(element: Element, out: string[] = []): string[] {
  if (element.type === "text") out.push(element.value ?? "");
  else if (element.type === "tab") out.push("\t");
  else if (element.type === "break") {
    const last = out[out.length - 1] ?? "";
    if (last !== "" && !/\s$/.test(last)) out.push(" ");
  } else {
    for (const child of element.children ?? []) rawText(child, out);
    if (element.type === "paragraph") out.push("\n\n");
  }
  return out;
}

/** Direct monospace formatting is how most editors write inline code: such a run maps to <code>. */
function markCodeRuns(element: Element): void {
  if (element.type === "run" && !element.styleName && !element.styleId && element.font && MONOSPACE.test(element.font)) {
    element.styleName = MONOSPACE_STYLE;
  }
  for (const child of element.children ?? []) markCodeRuns(child);
}

export interface MammothResult {
  html: string;
  text: string;
}

/** Images come out as their alt text only: their bytes are never read (nor kept, see ./extract.ts). */
const noImageData = mammoth.images.imgElement(() => Promise.resolve({ src: "" }));

export async function convert(docx: Uint8Array): Promise<MammothResult> {
  let text: string | undefined;
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(docx.buffer, docx.byteOffset, docx.byteLength) },
      {
        styleMap: STYLE_MAP,
        convertImage: noImageData,
        externalFileAccess: false,
        transformDocument: (document: Element & DocElement) => {
          text = rawText(document).join("");
          markCodeRuns(document);
          markListStarts(document);
          return document;
        },
      },
    );
    html = result.value;
  } catch (error) {
    throw notDocx(`its content could not be read (${error instanceof Error ? error.message.slice(0, 200) : "unreadable"})`);
  }
  return { html, text: normalizeExtractedText(text ?? "") };
}
