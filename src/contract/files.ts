// Files that cross the API's edge: an upload as a surface hands it over (a File of a multipart form,
// a GraphQL Upload), and a download as the REST routes send it.
import { z } from "zod";

/**
 * An uploaded file: a File of a multipart form (REST, tRPC FormData, spooled to disk) or a GraphQL
 * Upload (yoga's ponyfill File, which is not a Blob to this process). Read it once, when needed.
 */
export interface UploadedFile {
  readonly size: number;
  readonly type: string;
  readonly name?: string;
  /**
   * The temp file a spooled upload is in (src/uploads/spool.ts), there until the request is over:
   * a spreadsheets worker reads it there rather than the event loop reading it and handing it over.
   */
  readonly path?: string;
  arrayBuffer(): Promise<ArrayBuffer>;
  stream(): ReadableStream<Uint8Array>;
}

export const isUploadedFile = (value: unknown): value is UploadedFile =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as UploadedFile).size === "number" &&
  typeof (value as UploadedFile).arrayBuffer === "function" &&
  typeof (value as UploadedFile).stream === "function";

export const uploadedFileSchema = z
  .custom<UploadedFile>(isUploadedFile, "expected a file part")
  .meta({ description: "The file (multipart/form-data part `file`; a GraphQL Upload)", format: "binary" });

/** A stored file the gateway sends: a document's .docx, a workbook's .xlsx or .csv. */
export interface StoredDownload {
  /** The name it is saved under, without its extension (made safe for a header when sent). */
  name: string;
  extension: string;
  contentType: string;
  bytes: Uint8Array;
  /** The version the bytes are: the ETag. */
  version: number;
}

export const storedDownloadSchema = z.custom<StoredDownload>(
  (value) => typeof value === "object" && value !== null && (value as StoredDownload).bytes instanceof Uint8Array,
);

export const DOCX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
