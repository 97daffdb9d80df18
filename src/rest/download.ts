// Download responses: a stored file (a document's .docx) with a safe file name (RFC 6266), or a
// product's bytes streamed through; never cached by shared caches.
import { Readable } from "node:stream";
import contentDisposition from "content-disposition";
import type { StoredDownload } from "../contract/files.ts";
import type { Download } from "../services/products.ts";

/**
 * The download's file name. A name may contain "/" and "\\" ("Q3/Q4 review"), but content-disposition
 * keeps only path.basename of it ("Q4 review.docx") and browsers treat either as a path separator,
 * so both become "_".
 */
const downloadFilename = (name: string, extension: string): string => `${name.replace(/[/\\]/g, "_")}.${extension}`;

/** Plain-ASCII stand-in for old clients; the exact name travels in filename* (RFC 6266). */
const asciiFilename = (name: string): string =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "_")
    .replace(/["\\]/g, "'");

export function downloadResponse(file: StoredDownload, etag: string): Response {
  const filename = downloadFilename(file.name, file.extension);
  return new Response(file.bytes as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.bytes.byteLength),
      "Content-Disposition": contentDisposition(filename, { type: "attachment", fallback: asciiFilename(filename) }),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      ETag: etag,
    },
  });
}

/** A product's file, streamed through: a client that hangs up destroys the upstream body (and its request). */
export function streamedResponse(download: Download): Response {
  const headers: Record<string, string> = {
    "Content-Type": download.contentType,
    // The product's own file name when it gave one; the bytes are never rendered inline.
    "Content-Disposition": download.contentDisposition ?? "attachment",
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
  };
  if (download.contentLength !== undefined) headers["Content-Length"] = String(download.contentLength);
  return new Response(Readable.toWeb(download.body) as ReadableStream<Uint8Array>, { status: 200, headers });
}
