// An uploaded .docx as the documents service takes it: its bytes and its file name.
import { GatewayError } from "../core/errors.ts";
import type { UploadedFile } from "../contract/files.ts";
import { DOCX_UPLOAD_LIMIT_BYTES } from "../documents/import/limits.ts";
import type { UploadedDocx } from "./document-create.ts";

/**
 * Reads the (spooled, file-backed) upload into memory. The service enforces the .docx limit too;
 * checking the declared size first only avoids buffering a file of up to UPLOAD_LIMIT_BYTES that
 * it would refuse anyway.
 */
export async function docxOf(file: UploadedFile): Promise<UploadedDocx> {
  if (file.size > DOCX_UPLOAD_LIMIT_BYTES) {
    throw new GatewayError("PAYLOAD_TOO_LARGE", `The file is over the ${DOCX_UPLOAD_LIMIT_BYTES}-byte limit`, {
      details: { limit: DOCX_UPLOAD_LIMIT_BYTES },
    });
  }
  const name = file.name;
  return { bytes: new Uint8Array(await file.arrayBuffer()), ...(typeof name === "string" && name ? { filename: name } : {}) };
}
