// A .docx download response: the bytes, a safe file name (RFC 6266) and no caching by shared caches.
import contentDisposition from "content-disposition";

export const DOCX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/**
 * The download's file name. A name may contain "/" and "\\" ("Q3/Q4 review"), but content-disposition
 * keeps only path.basename of it ("Q4 review.docx") and browsers treat either as a path separator,
 * so both become "_".
 */
const downloadFilename = (name: string): string => `${name.replace(/[/\\]/g, "_")}.docx`;

/** Plain-ASCII stand-in for old clients; the exact name travels in filename* (RFC 6266). */
const asciiFilename = (name: string): string =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "_")
    .replace(/["\\]/g, "'");

export function downloadResponse(file: { name: string; docx: Uint8Array }, etag: string): Response {
  const filename = downloadFilename(file.name);
  return new Response(file.docx as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      "Content-Type": DOCX_MEDIA_TYPE,
      "Content-Length": String(file.docx.byteLength),
      "Content-Disposition": contentDisposition(filename, { type: "attachment", fallback: asciiFilename(filename) }),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      ETag: etag,
    },
  });
}
