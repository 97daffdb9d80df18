// A streaming multipart/form-data parser: file parts go straight to disk while being hashed, so a
// 50 MB upload is never held in memory. Fields are collected as strings (up to 1 MB each).
import { createHash, type Hash } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { unlink } from "node:fs/promises";
import { once } from "node:events";
import { join } from "node:path";
import { HttpError } from "./errors.ts";

export interface UploadedPart {
  fieldName: string;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  /** Where the bytes were written; the drive keeps the file, otherwise it is removed after the request. */
  tempPath: string;
}

export interface MultipartResult {
  fields: Record<string, string>;
  files: UploadedPart[];
}

const MAX_FIELD_BYTES = 1024 * 1024;
const MAX_HEADER_BYTES = 16 * 1024;

let counter = 0;

export function boundaryOf(contentType: string): string | null {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

function parseParams(header: string): Record<string, string> {
  const params: Record<string, string> = {};
  const re = /;\s*([^=;\s]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (let m = re.exec(header); m; m = re.exec(header)) {
    const name = (m[1] as string).toLowerCase();
    let value = (m[2] as string).trim();
    if (value.startsWith('"')) value = value.slice(1, -1).replace(/\\(.)/g, "$1");
    if (name.endsWith("*")) {
      const ext = /^[^']*'[^']*'(.*)$/.exec(value);
      try {
        params[name.slice(0, -1)] = decodeURIComponent(ext?.[1] ?? value);
      } catch {
        params[name.slice(0, -1)] = value;
      }
      continue;
    }
    if (!(name in params)) params[name] = value;
  }
  return params;
}

interface PartSink {
  write(data: Buffer): Promise<void>;
  end(): Promise<void>;
  abort(): Promise<void>;
}

function fileSink(dir: string, fieldName: string, filename: string, contentType: string, maxBytes: number, out: UploadedPart[]): PartSink {
  const tempPath = join(dir, `upload-${process.pid}-${++counter}`);
  const stream: WriteStream = createWriteStream(tempPath);
  const hash: Hash = createHash("sha256");
  let size = 0;
  let failed: Error | null = null;
  stream.on("error", (e) => {
    failed = e;
  });
  return {
    async write(data) {
      if (failed) throw failed;
      if (data.length === 0) return;
      size += data.length;
      if (size > maxBytes) throw new HttpError(413, `file is larger than ${maxBytes} bytes`);
      hash.update(data);
      if (!stream.write(data)) await once(stream, "drain");
    },
    async end() {
      stream.end();
      await once(stream, "finish");
      if (failed) throw failed;
      out.push({ fieldName, filename, contentType, size, sha256: hash.digest("hex"), tempPath });
    },
    async abort() {
      stream.destroy();
      await unlink(tempPath).catch(() => undefined);
    },
  };
}

function fieldSink(name: string, fields: Record<string, string>): PartSink {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    async write(data) {
      size += data.length;
      if (size > MAX_FIELD_BYTES) throw new HttpError(413, `field ${name} is larger than ${MAX_FIELD_BYTES} bytes`);
      chunks.push(data);
    },
    async end() {
      fields[name] = Buffer.concat(chunks).toString("utf8");
    },
    async abort() {},
  };
}

/** Parses a multipart body from `source`, writing file parts under `dir`. Throws HttpError 400/413. */
export async function parseMultipart(
  source: AsyncIterable<Buffer>,
  boundary: string,
  dir: string,
  maxFileBytes: number,
): Promise<MultipartResult> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const result: MultipartResult = { fields: {}, files: [] };
  let state: "preamble" | "after-boundary" | "headers" | "body" | "done" = "preamble";
  // A CRLF in front lets the first boundary match the same delimiter as the others.
  let buf: Buffer = Buffer.from("\r\n");
  let sink: PartSink | null = null;

  const startPart = (headerText: string): PartSink => {
    const headers: Record<string, string> = {};
    for (const line of headerText.split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const disposition = headers["content-disposition"];
    if (!disposition || !/^form-data/i.test(disposition)) throw new HttpError(400, "multipart part without Content-Disposition: form-data");
    const params = parseParams(disposition);
    const name = params.name;
    if (name === undefined) throw new HttpError(400, "multipart part without a name");
    if (params.filename !== undefined) {
      return fileSink(dir, name, params.filename, headers["content-type"] ?? "application/octet-stream", maxFileBytes, result.files);
    }
    return fieldSink(name, result.fields);
  };

  try {
    for await (const chunk of source) {
      if (state === "done") continue; // epilogue
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      for (;;) {
        if (state === "preamble") {
          const idx = buf.indexOf(delimiter);
          if (idx < 0) {
            buf = buf.subarray(Math.max(0, buf.length - delimiter.length + 1));
            break;
          }
          buf = buf.subarray(idx + delimiter.length);
          state = "after-boundary";
        } else if (state === "after-boundary") {
          if (buf.length < 2) break;
          if (buf[0] === 0x2d && buf[1] === 0x2d) {
            state = "done";
            break;
          }
          const eol = buf.indexOf("\r\n");
          if (eol < 0) {
            if (buf.length > 1024) throw new HttpError(400, "malformed multipart boundary line");
            break;
          }
          buf = buf.subarray(eol + 2);
          state = "headers";
        } else if (state === "headers") {
          let headerText: string;
          if (buf.length >= 2 && buf[0] === 0x0d && buf[1] === 0x0a) {
            headerText = "";
            buf = buf.subarray(2);
          } else {
            const end = buf.indexOf("\r\n\r\n");
            if (end < 0) {
              if (buf.length > MAX_HEADER_BYTES) throw new HttpError(400, "multipart part headers too large");
              break;
            }
            headerText = buf.subarray(0, end).toString("utf8");
            buf = buf.subarray(end + 4);
          }
          sink = startPart(headerText);
          state = "body";
        } else if (state === "body") {
          const current = sink as PartSink;
          const idx = buf.indexOf(delimiter);
          if (idx >= 0) {
            await current.write(buf.subarray(0, idx));
            await current.end();
            sink = null;
            buf = buf.subarray(idx + delimiter.length);
            state = "after-boundary";
            continue;
          }
          const safe = buf.length - (delimiter.length - 1);
          if (safe > 0) {
            await current.write(buf.subarray(0, safe));
            buf = Buffer.from(buf.subarray(safe));
          }
          break;
        } else {
          break;
        }
      }
    }
    if (state !== "done") throw new HttpError(400, "multipart body ended before its closing boundary");
    return result;
  } catch (error) {
    await sink?.abort();
    await Promise.all(result.files.map((f) => unlink(f.tempPath).catch(() => undefined)));
    throw error;
  }
}
