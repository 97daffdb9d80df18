// Importing an uploaded .docx: limits, and extraction (validated text + markdown).
export { DOCX_ENTRY_LIMIT, DOCX_EXPANDED_LIMIT_BYTES, DOCX_UPLOAD_LIMIT_BYTES } from "./limits.ts";
export { extractDocx, extractOnMainThread, type ExtractOptions } from "./extract.ts";
