// Importing an uploaded .docx: limits, and extraction (validated text + markdown + the package rewritten from what was checked).
export {
  DOCX_ELEMENT_LIMIT,
  DOCX_ENTRY_LIMIT,
  DOCX_EXPANDED_LIMIT_BYTES,
  DOCX_MEMORY_LIMIT_BYTES,
  DOCX_TEXT_LIMIT_CHARS,
  DOCX_UPLOAD_LIMIT_BYTES,
  DOCX_XML_LIMIT_BYTES,
} from "./limits.ts";
export { extractDocx, extractOnMainThread, type ExtractOptions } from "./extract.ts";
