// Reads a request body once, before routing: JSON/text buffered (with a limit), multipart streamed
// to disk. The result is both what the routes see and what the recorder keeps.
import type { IncomingMessage } from "node:http";
import { unlink } from "node:fs/promises";
import { finished } from "node:stream/promises";
import { HttpError } from "./errors.ts";
import { boundaryOf, parseMultipart, type UploadedPart } from "./multipart.ts";

export type BodyState =
  | { kind: "empty" }
  | { kind: "json"; value: unknown }
  | { kind: "invalid-json"; text: string; error: string }
  | { kind: "text"; text: string; contentType: string }
  | { kind: "multipart"; fields: Record<string, string>; files: UploadedPart[] }
  | { kind: "error"; error: HttpError };

export interface BodyLimits {
  maxJsonBytes: number;
  maxUploadBytes: number;
  uploadDir: string;
}

export interface RecordedMultipart {
  fields: Record<string, string>;
  file: { size: number; sha256: string; filename: string; contentType: string } | null;
}

async function drain(req: IncomingMessage): Promise<void> {
  if (req.readableEnded || req.destroyed) return;
  req.resume();
  await finished(req).catch(() => undefined);
}

export async function readBody(req: IncomingMessage, limits: BodyLimits): Promise<BodyState> {
  const contentType = (req.headers["content-type"] ?? "").toLowerCase();
  const source = req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>;
  if (contentType.startsWith("multipart/form-data")) {
    const boundary = boundaryOf(req.headers["content-type"] ?? "");
    if (!boundary) {
      await drain(req);
      return { kind: "error", error: new HttpError(400, "multipart/form-data without a boundary") };
    }
    try {
      const { fields, files } = await parseMultipart(source, boundary, limits.uploadDir, limits.maxUploadBytes);
      return { kind: "multipart", fields, files };
    } catch (error) {
      await drain(req);
      if (error instanceof HttpError) return { kind: "error", error };
      throw error;
    }
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    size += chunk.length;
    if (size > limits.maxJsonBytes) {
      await drain(req);
      return { kind: "error", error: new HttpError(413, `request body is larger than ${limits.maxJsonBytes} bytes`) };
    }
    chunks.push(chunk);
  }
  if (size === 0) return { kind: "empty" };
  const text = Buffer.concat(chunks).toString("utf8");
  const looksJson = contentType === "" || /^application\/([\w.+-]*\+)?json\b/.test(contentType);
  if (!looksJson) return { kind: "text", text, contentType };
  try {
    return { kind: "json", value: JSON.parse(text) as unknown };
  } catch (error) {
    if (contentType === "") return { kind: "text", text, contentType };
    return { kind: "invalid-json", text, error: (error as Error).message };
  }
}

/** What a request record shows as its body. */
export function recordedBody(body: BodyState): unknown {
  switch (body.kind) {
    case "json":
      return body.value;
    case "invalid-json":
    case "text":
      return body.text;
    case "multipart": {
      const file = body.files.find((f) => f.fieldName === "file") ?? body.files[0];
      const recorded: RecordedMultipart = {
        fields: { ...body.fields },
        file: file ? { size: file.size, sha256: file.sha256, filename: file.filename, contentType: file.contentType } : null,
      };
      return recorded;
    }
    default:
      return undefined;
  }
}

/** The parsed JSON body of a JSON route, or the 400/415 a real API would answer. */
export function jsonBody(body: BodyState, options: { optional?: boolean } = {}): unknown {
  switch (body.kind) {
    case "json":
      return body.value;
    case "empty":
      if (options.optional) return {};
      throw new HttpError(400, "request body is required (a JSON object)");
    case "invalid-json":
      throw new HttpError(400, `request body is not valid JSON: ${body.error}`);
    case "text":
      throw new HttpError(415, `expected application/json, got ${body.contentType || "no content type"}`);
    case "multipart":
      throw new HttpError(415, "expected application/json, got multipart/form-data");
    case "error":
      throw body.error;
  }
}

/** Removes uploaded temp files that no route took ownership of. */
export async function discardUploads(body: BodyState, kept: ReadonlySet<string>): Promise<void> {
  if (body.kind !== "multipart") return;
  await Promise.all(body.files.filter((f) => !kept.has(f.tempPath)).map((f) => unlink(f.tempPath).catch(() => undefined)));
}
