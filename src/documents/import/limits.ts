// Bounds on an uploaded .docx (docs/api.md "Living documents"): the upload
// itself, what its zip may expand to, and how many entries it may hold. Checked while reading,
// never taken from what the zip declares.
export const DOCX_UPLOAD_LIMIT_BYTES = 25 * 1024 * 1024;
export const DOCX_EXPANDED_LIMIT_BYTES = 200 * 1024 * 1024;
export const DOCX_ENTRY_LIMIT = 10_000;
