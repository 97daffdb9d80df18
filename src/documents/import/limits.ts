// Bounds on an uploaded .docx (docs/api.md "Living documents", docs/rendering-limits.md). The
// upload itself, what its zip may expand to and how many entries it may hold are the contract's.
// The rest bound the work an import does, sized from real files (bench/docx-import.ts measures
// them): the largest document the gateway can hold (400,000 characters of markdown) written by
// our renderer, pandoc or LibreOffice has 1.9–3.6 MB of XML, about 5–10 bytes of XML per character
// of text, 350,000 characters of text and up to 140,000 elements; Word's XML runs to about twice
// LibreOffice's. Each bound is three to four times what such a file needs (XML: twice Word's),
// so no real document comes near it, and a hostile one is refused early instead of holding a
// worker for its whole deadline: at once when the zip's directory declares more XML than the
// bound, else once that much has been inflated and parsed.
// Checked while reading, never taken from what the zip declares.
import type { PackageLimits } from "../../ooxml/index.ts";

export const DOCX_UPLOAD_LIMIT_BYTES = 25 * 1024 * 1024;
export const DOCX_EXPANDED_LIMIT_BYTES = 200 * 1024 * 1024;
export const DOCX_ENTRY_LIMIT = 10_000;
/** XML parsed across all parts: every XML part is parsed and checked before mammoth reads any. */
export const DOCX_XML_LIMIT_BYTES = 12 * 1024 * 1024;
/** Elements across all XML parts: mammoth builds a node for each, so its time and heap follow this. */
export const DOCX_ELEMENT_LIMIT = 600_000;
/** Characters of text (w:t) across all parts: what the markdown and text are built from. */
export const DOCX_TEXT_LIMIT_CHARS = 1_000_000;
/**
 * Bytes an import may hold outside V8's heap at once (the upload, decoded and rewritten parts, the
 * stored and mammoth packages), which the worker's heap cap does not bound.
 */
export const DOCX_MEMORY_LIMIT_BYTES = 160 * 1024 * 1024;

export const DOCX_LIMITS: PackageLimits = {
  entries: DOCX_ENTRY_LIMIT,
  expandedBytes: DOCX_EXPANDED_LIMIT_BYTES,
  xmlBytes: DOCX_XML_LIMIT_BYTES,
  memoryBytes: DOCX_MEMORY_LIMIT_BYTES,
};
