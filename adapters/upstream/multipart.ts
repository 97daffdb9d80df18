// A multipart/form-data request body that streams: the file's bytes flow from the caller's
// source to the upstream socket chunk by chunk, so a 50 MB upload is never held in memory.
// Field names follow the WHATWG HTML form-data rules (`"`, CR, LF percent-encoded). A filename
// that is not plain printable ASCII is sent as an ASCII fallback plus an RFC 5987 `filename*`
// (UTF-8, percent-encoded), which common multipart parsers prefer.
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { AdapterError } from "../errors.ts";

/** What an upload's bytes may come from. */
export type UploadData = Blob | Uint8Array | ReadableStream<Uint8Array> | NodeJS.ReadableStream | AsyncIterable<Uint8Array | string>;

export interface UploadFile {
  data: UploadData;
  filename: string;
  contentType: string;
  /** Declared size in bytes; known sizes give the upstream a Content-Length. */
  size?: number | undefined;
}

export interface MultipartBody {
  contentType: string;
  /** Total bytes when every size is known. */
  length: number | undefined;
  body: Readable;
}

const escapeName = (value: string) => value.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");

const PLAIN_FILENAME = /^[\x20-\x7e]*$/;

function filenameParams(filename: string): string {
  if (PLAIN_FILENAME.test(filename) && !/["\\%]/.test(filename)) return `filename="${filename}"`;
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

// A MIME type token/subtype with optional parameters; anything else (CR, LF, quotes in odd
// places) could inject part headers.
const CONTENT_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(\s*;\s*[A-Za-z0-9!#$&^_.+-]+=("[^"\r\n]*"|[A-Za-z0-9!#$&^_.+-]+))*$/;

export function isValidContentType(value: string): boolean {
  return value.length <= 255 && CONTENT_TYPE.test(value);
}

export function sizeOf(data: UploadData): number | undefined {
  if (data instanceof Uint8Array) return data.byteLength;
  if (typeof Blob !== "undefined" && data instanceof Blob) return data.size;
  return undefined;
}

async function* chunksOf(data: UploadData): AsyncGenerator<Uint8Array> {
  if (data instanceof Uint8Array) {
    yield data;
    return;
  }
  if (typeof Blob !== "undefined" && data instanceof Blob) {
    yield* chunksOf(data.stream());
    return;
  }
  if (typeof (data as ReadableStream<Uint8Array>).getReader === "function") {
    const reader = (data as ReadableStream<Uint8Array>).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      // Stopped early (limit, upstream error): let the producer know.
      reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
  }
  for await (const chunk of data as AsyncIterable<Uint8Array | string>) {
    yield typeof chunk === "string" ? Buffer.from(chunk) : chunk;
  }
}

/**
 * Builds the streaming body. `limit` caps the file's bytes (PAYLOAD_TOO_LARGE); a declared size
 * that the data does not match is BAD_USER_INPUT. Errors are thrown inside the stream, which
 * makes undici abort the upstream request; `onError` records the first one for the caller.
 */
export function multipartBody(
  fields: ReadonlyArray<readonly [string, string]>,
  file: UploadFile & { fieldName?: string },
  limit: number,
  onError: (error: AdapterError) => void,
): MultipartBody {
  const boundary = `----workspace-gateway-${randomBytes(16).toString("hex")}`;
  let head = "";
  for (const [name, value] of fields) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(name)}"\r\n\r\n${value}\r\n`;
  }
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(file.fieldName ?? "file")}"; ` +
    `${filenameParams(file.filename)}\r\nContent-Type: ${file.contentType}\r\n\r\n`;
  const headBytes = Buffer.from(head);
  const tailBytes = Buffer.from(`\r\n--${boundary}--\r\n`);
  const declared = file.size ?? sizeOf(file.data);

  if (declared !== undefined && declared > limit) {
    throw new AdapterError("PAYLOAD_TOO_LARGE", `The file is ${declared} bytes; the limit is ${limit}`, {
      details: { limit, size: declared },
    });
  }

  const fail = (error: AdapterError): AdapterError => {
    onError(error);
    return error;
  };

  async function* generate(): AsyncGenerator<Uint8Array> {
    yield headBytes;
    let sent = 0;
    for await (const chunk of chunksOf(file.data)) {
      if (chunk.byteLength === 0) continue;
      sent += chunk.byteLength;
      if (sent > limit) {
        throw fail(new AdapterError("PAYLOAD_TOO_LARGE", `The file is larger than the limit of ${limit} bytes`, { details: { limit } }));
      }
      if (declared !== undefined && sent > declared) {
        throw fail(new AdapterError("BAD_USER_INPUT", `size: the file is larger than its declared size of ${declared} bytes`));
      }
      yield chunk;
    }
    if (declared !== undefined && sent !== declared) {
      throw fail(new AdapterError("BAD_USER_INPUT", `size: the file has ${sent} bytes, not the declared ${declared}`));
    }
    yield tailBytes;
  }

  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: declared === undefined ? undefined : headBytes.byteLength + declared + tailBytes.byteLength,
    body: Readable.from(generate(), { objectMode: false }),
  };
}
