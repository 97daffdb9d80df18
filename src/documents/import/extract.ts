// An uploaded .docx → its text and markdown. Runs in a render worker (../pool/render-worker.ts);
// exported as extractOnMainThread for the bench's baseline, same code path.
//
// The zip is read once, bounded (./zip.ts), and validated (./package.ts); mammoth then reads a
// package rebuilt (stored, uncompressed) from exactly the entries that were validated, so it never
// inflates untrusted data itself and cannot read an entry the checks did not see (two zip readers
// can disagree on a crafted file). Binary parts (images) are counted but not kept: mammoth is told
// not to read image data.
import { zipSync, type Zippable } from "fflate";
import type { ExtractedDocument } from "../renderer.ts";
import { separateInstances } from "./lists.ts";
import { DOCX_ENTRY_LIMIT, DOCX_EXPANDED_LIMIT_BYTES } from "./limits.ts";
import { convert } from "./mammoth.ts";
import { htmlToMarkdown } from "./markdown.ts";
import { isXmlPart, validatePackage } from "./package.ts";
import { readZip, type ZipLimits } from "./zip.ts";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

export interface ExtractOptions {
  /** Tests lower these; the service uses the contract's limits. */
  limits?: Partial<ZipLimits>;
}

export async function extractDocx(docx: Uint8Array, options: ExtractOptions = {}): Promise<ExtractedDocument> {
  const limits: ZipLimits = { entries: DOCX_ENTRY_LIMIT, expandedBytes: DOCX_EXPANDED_LIMIT_BYTES, ...options.limits };
  const entries = readZip(docx, limits, isXmlPart);
  const { numberingPart } = validatePackage(entries);
  const files: Zippable = {};
  for (const entry of entries) {
    const data = entry.name === numberingPart ? encoder.encode(separateInstances(decoder.decode(entry.data))) : entry.data;
    files[entry.name] = [data, { level: 0 }];
  }
  const { html, text } = await convert(zipSync(files, { level: 0 }));
  return { text, markdown: htmlToMarkdown(html) };
}

/** The same extraction on the calling thread: the bench's baseline, never the service's path. */
export const extractOnMainThread = extractDocx;
