// An Upload as the documents service takes a .docx: its bytes and its file name.
import { GatewayError } from "../src/core/errors.ts";
import { DOCX_UPLOAD_LIMIT_BYTES } from "../src/documents/import/limits.ts";
import type { UploadedDocx } from "../src/services/documents.ts";

/**
 * Reads the (spooled, file-backed) upload into memory. The service enforces the .docx limit too;
 * checking the declared size first only avoids buffering a file of up to UPLOAD_LIMIT_BYTES that
 * it would refuse anyway.
 */
export async function uploadedDocx(file: File): Promise<UploadedDocx> {
  if (file.size > DOCX_UPLOAD_LIMIT_BYTES) {
    throw new GatewayError("PAYLOAD_TOO_LARGE", `The file is over the ${DOCX_UPLOAD_LIMIT_BYTES}-byte limit`, {
      details: { limit: DOCX_UPLOAD_LIMIT_BYTES },
    });
  }
  return { bytes: new Uint8Array(await file.arrayBuffer()), ...(file.name ? { filename: file.name } : {}) };
}
