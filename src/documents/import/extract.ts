// An uploaded .docx → its text and markdown, and the package to store. Runs in a worker of the
// import pool (../pool/); exported as extractOnMainThread for the bench's baseline, same code path.
//
// The zip is read once, bounded and checked part by part, and written anew from what was parsed
// (./word-package.ts); mammoth then reads a package built from exactly the parts that were checked,
// so it never inflates untrusted data itself and cannot read an entry the checks did not see (two
// zip readers can disagree on a crafted file). Binary parts (images) are counted and copied, not
// decoded: mammoth is told not to read image data.
import type { ExtractedDocument } from "../renderer.ts";
import { DOCX_LIMITS } from "./limits.ts";
import { convert } from "./mammoth.ts";
import { htmlToMarkdown } from "./markdown.ts";
import { checkDocx, WORD_LIMITS_DEFAULT, type WordLimits } from "./word-package.ts";

export interface ExtractOptions {
  /** Tests lower these; the service uses the contract's limits. */
  limits?: Partial<WordLimits>;
}

export async function extractDocx(docx: Uint8Array, options: ExtractOptions = {}): Promise<ExtractedDocument> {
  const limits: WordLimits = { ...WORD_LIMITS_DEFAULT(DOCX_LIMITS), ...options.limits };
  const { stored, forMammoth } = checkDocx(docx, limits);
  const { html, text } = await convert(forMammoth);
  return { text, markdown: htmlToMarkdown(html), docx: stored };
}

/** The same extraction on the calling thread: the bench's baseline, never the service's path. */
export const extractOnMainThread = extractDocx;
