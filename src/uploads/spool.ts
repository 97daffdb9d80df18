// Streams a multipart/form-data request body to disk: each file part goes chunk by chunk into its
// own temp file (busboy parses, with backpressure), so a 50 MB upload costs disk, not memory.
// The result is an ordinary FormData whose files are file-backed Blobs (`fs.openAsBlob`): reading
// one streams from disk, and wrapping it in a File (to give it a name) references the same
// backing file without copying it. Each File also names its temp file (UploadedFile.path).
import { createWriteStream, openAsBlob } from "node:fs";
import type { IncomingMessage } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream, ReadableStreamDefaultReader } from "node:stream/web";
import busboy from "busboy";
import { GatewayError } from "../core/errors.ts";
import { isValidContentType } from "../contract/products.ts";

export interface UploadLimits {
  /** Most file bytes one request may carry, all its files together (UPLOAD_LIMIT_BYTES). */
  fileBytes: number;
  /** Most bytes of the text fields together (GraphQL `operations` and `map`, tRPC `name`…). */
  fieldBytes: number;
  /** Most file parts in one request (default 10). */
  files?: number;
  /** Most text fields in one request (default 100). */
  fields?: number;
}

export interface SpooledForm {
  form: FormData;
  /** Removes the temp files. Idempotent; call it when the request is over. */
  cleanup(): Promise<void>;
}

/** Part headers, boundaries and CRLFs on top of the files and fields. */
const ENVELOPE_BYTES = 1024 * 1024;
export const TEMP_PREFIX = "wg-upload-";

/** The most body bytes an upload request may have: its files, its fields and the multipart framing. */
export const maxUploadBodyBytes = (limits: UploadLimits): number => limits.fileBytes + limits.fieldBytes + ENVELOPE_BYTES;

const tooLarge = (message: string, details: Record<string, unknown>) => new GatewayError("PAYLOAD_TOO_LARGE", message, { details });

/** Counts bytes on their way through and fails with `error()` past `limit`. */
function byteLimit(limit: number, error: () => GatewayError, count: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      count.bytes += chunk.byteLength;
      if (count.bytes > limit) callback(error());
      else callback(null, chunk);
    },
  });
}

/** busboy for the request's multipart body; a header it cannot read is BAD_USER_INPUT. */
function newParser(request: Request, limits: UploadLimits): busboy.Busboy {
  try {
    return busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      // Browsers send UTF-8 filenames as-is; busboy's default would read them as latin1.
      defParamCharset: "utf8",
      limits: { fieldSize: limits.fieldBytes, fields: limits.fields ?? 100, files: limits.files ?? 10 },
    });
  } catch (error) {
    throw new GatewayError("BAD_USER_INPUT", `multipart/form-data: ${(error as Error).message}`);
  }
}

/**
 * The body as a Node stream read through our own reader (not Readable.fromWeb), so that stopping
 * early does not cancel the body: after a failure the rest is discarded (see `discardRest`) and
 * the connection stays usable.
 */
function bodySource(reader: ReadableStreamDefaultReader<Uint8Array>): Readable {
  return new Readable({
    read() {
      reader.read().then(
        ({ done, value }) => this.push(done ? null : value),
        (error: unknown) => this.destroy(error as Error),
      );
    },
  });
}

/**
 * The body straight off Node's request (src/http/node.ts), when nothing has begun to read it:
 * Fetch's body stream over it (Readable.toWeb) copies every chunk, which for a 21 MB upload is
 * 21 MB more of the event loop's memory until a collection. As with bodySource, stopping early
 * does not destroy the request: the rest is discarded (`discard`).
 */
function nodeSource(incoming: IncomingMessage): { source: Readable; discard(): void } {
  const source = new Readable({ read: () => void incoming.resume() });
  const onData = (chunk: Buffer) => {
    if (!source.push(chunk)) incoming.pause();
  };
  const onEnd = () => source.push(null);
  const onError = (error: Error) => source.destroy(error);
  incoming.on("data", onData).once("end", onEnd).once("error", onError);
  incoming.pause();
  const discard = () => {
    incoming.off("data", onData).off("end", onEnd).off("error", onError);
    discardNodeRest(incoming);
  };
  return { source, discard };
}

/** Whether Node's request is there to read: nobody has read it or attached to it yet. */
const unread = (incoming: IncomingMessage | undefined): incoming is IncomingMessage =>
  incoming !== undefined && !incoming.readableDidRead && incoming.readableFlowing === null && !incoming.readableEnded;

/** What the parser's handlers share while one body is spooled. */
interface Spooling {
  dir: string;
  limits: UploadLimits;
  checkField: ((name: string, value: string) => void) | undefined;
  entries: Array<Promise<[string, string | File]>>;
  openFiles: Set<Readable>;
  fileCount: { bytes: number };
  fieldBytes: number;
  /** Set by the first failure: busboy still emits the parts of the chunk it was parsing. */
  failed: boolean;
  fail(error: GatewayError): void;
}

/** A text field: counted against the limit, checked, kept. */
function onField(state: Spooling, name: string, value: string, info: busboy.FieldInfo): void {
  if (state.failed) return;
  state.fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
  const { limits } = state;
  if (info.nameTruncated || info.valueTruncated || state.fieldBytes > limits.fieldBytes) {
    state.fail(tooLarge(`The form's text fields are over the ${limits.fieldBytes}-byte limit`, { limit: limits.fieldBytes, field: name }));
    return;
  }
  try {
    state.checkField?.(name, value);
  } catch (error) {
    state.fail(asGatewayError(error));
    return;
  }
  state.entries.push(Promise.resolve([name, value]));
}

/** A file part: written to a temp file under the limit, then kept as a file-backed File. */
function onFile(state: Spooling, name: string, stream: Readable, info: busboy.FileInfo): void {
  // A part after the refusal is not spooled: the destroyed parser may never end its stream (Node 24
  // does not), and a pipeline waiting on it held the answer and left its temp file behind.
  if (state.failed) return void stream.on("error", () => undefined).destroy();
  const { limits } = state;
  const path = join(state.dir, String(state.entries.length));
  state.openFiles.add(stream);
  const written = pipeline(
    stream,
    byteLimit(
      limits.fileBytes,
      () => tooLarge(`The upload is larger than the limit of ${limits.fileBytes} bytes`, { limit: limits.fileBytes }),
      state.fileCount,
    ),
    createWriteStream(path),
  ).finally(() => state.openFiles.delete(stream));
  const entry = written.then(async (): Promise<[string, File]> => {
    const type = isValidContentType(info.mimeType) ? info.mimeType : "application/octet-stream";
    const file = new File([await openAsBlob(path)], info.filename ?? "", { type });
    // UploadedFile.path: where the bytes are, for a reader in another thread (not enumerable: a File has no such field).
    Object.defineProperty(file, "path", { value: path });
    return [name, file];
  });
  entry.catch((error: unknown) => state.fail(asGatewayError(error)));
  state.entries.push(entry);
}

function listen(parser: busboy.Busboy, state: Spooling): void {
  // busboy reports a part whose Content-Disposition has no name with name undefined (its types
  // say string); left alone, Buffer.byteLength(undefined) threw out of the parser and took the
  // process down.
  const nameless = () => state.fail(new GatewayError("BAD_USER_INPUT", "multipart/form-data: a part has no name"));
  parser.on("field", (name: string | undefined, value, info) => (name === undefined ? nameless() : onField(state, name, value, info)));
  parser.on("file", (name: string | undefined, stream, info) => {
    if (name !== undefined) return onFile(state, name, stream, info);
    // Nothing reads this stream: drain it, and take the error that destroying the parser gives it.
    stream.on("error", () => undefined).resume();
    nameless();
  });
  const countLimit = (what: string, limit: number) => () =>
    state.fail(tooLarge(`The form has more ${what} than the limit of ${limit}`, { limit }));
  parser.on("filesLimit", countLimit("files", state.limits.files ?? 10));
  parser.on("fieldsLimit", countLimit("fields", state.limits.fields ?? 100));
}

export interface SpoolOptions {
  /** Where the temp files go (default the OS temp dir). */
  tmpRoot?: string | undefined;
  /** Sees each text field as it arrives, before the parts after it; throwing refuses the upload there. */
  checkField?: ((name: string, value: string) => void) | undefined;
  /** Node's request behind `request`: its body is read from it when nobody has begun to. */
  incoming?: IncomingMessage | undefined;
}

/**
 * Reads `request`'s multipart body into temp files under `tmpRoot` (default the OS temp dir).
 * Fails with PAYLOAD_TOO_LARGE past a limit (a declared Content-Length over the total is refused
 * before any byte is read), BAD_USER_INPUT on a malformed or interrupted body; on failure every
 * temp file is already removed.
 */
export async function spoolForm(request: Request, limits: UploadLimits, options: SpoolOptions = {}): Promise<SpooledForm> {
  const { tmpRoot = tmpdir(), checkField, incoming } = options;
  const maxBody = maxUploadBodyBytes(limits);
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > maxBody) {
    throw tooLarge(`The upload is ${declared} bytes; the limit is ${limits.fileBytes} bytes of files`, {
      limit: limits.fileBytes,
      size: declared,
    });
  }
  const node = unread(incoming) ? incoming : undefined;
  if (!node && !request.body) throw new GatewayError("BAD_USER_INPUT", "multipart/form-data: the request has no body");
  const parser = newParser(request, limits);

  const dir = await mkdtemp(join(tmpRoot, TEMP_PREFIX));
  let removed: Promise<void> | undefined;
  const cleanup = () => (removed ??= rm(dir, { recursive: true, force: true }).catch(() => undefined));
  const { source, discard } = node ? nodeSource(node) : webSource(request.body as NodeReadableStream<Uint8Array>);
  let failure: GatewayError | undefined;
  const state: Spooling = {
    dir,
    limits,
    checkField,
    entries: [],
    openFiles: new Set(),
    fileCount: { bytes: 0 },
    fieldBytes: 0,
    failed: false,
    // Stop at once: parsing and any file being written; the rest of the body is discarded.
    fail(error) {
      if (failure) return;
      failure = error;
      state.failed = true;
      source.destroy(error);
      parser.destroy(error);
      for (const stream of state.openFiles) stream.destroy(error);
      discard();
    },
  };
  listen(parser, state);

  try {
    await pipeline(
      source,
      byteLimit(maxBody, () => tooLarge(`The upload body is over the ${maxBody}-byte limit`, { limit: limits.fileBytes }), { bytes: 0 }),
      parser,
    ).catch((error: unknown) => state.fail(asGatewayError(error)));
    const settled = await Promise.allSettled(state.entries);
    if (failure) throw failure;
    const form = new FormData();
    for (const result of settled) {
      if (result.status === "rejected") throw asGatewayError(result.reason);
      const [name, value] = result.value;
      form.append(name, value);
    }
    return { form, cleanup };
  } catch (error) {
    await Promise.allSettled(state.entries);
    await cleanup();
    throw error;
  }
}

/** After a failure, how much of the rest of the body is read and thrown away, and for how long. */
const DISCARD_BYTES = 64 * 1024 * 1024;
const DISCARD_MS = 2_000;

function webSource(body: NodeReadableStream<Uint8Array>): { source: Readable; discard(): void } {
  const reader = body.getReader();
  return { source: bodySource(reader), discard: () => discardRest(reader) };
}

/** discardRest for Node's request: past the bounds it is destroyed (the server closes the connection). */
function discardNodeRest(incoming: IncomingMessage): void {
  let discarded = 0;
  const stop = () => incoming.destroy();
  const timer = setTimeout(stop, DISCARD_MS);
  timer.unref();
  incoming.on("error", () => undefined).once("close", () => clearTimeout(timer));
  incoming.on("data", (chunk: Buffer) => {
    discarded += chunk.byteLength;
    if (discarded > DISCARD_BYTES) stop();
  });
  incoming.resume();
}

/**
 * Reads and drops the rest of a refused body (bounded), so the client, still sending, gets to read
 * the error answer and its connection stays usable ("lingering close"). Past the bounds the body
 * is cancelled and the server closes the connection.
 */
function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  let discarded = 0;
  const stop = () => void reader.cancel().catch(() => undefined);
  const timer = setTimeout(stop, DISCARD_MS);
  timer.unref();
  const next = (): Promise<void> =>
    reader.read().then(({ done, value }) => {
      if (done) return;
      discarded += value.byteLength;
      if (discarded > DISCARD_BYTES) return stop();
      return next();
    });
  next()
    .catch(() => undefined)
    .finally(() => clearTimeout(timer));
}

/** Our own limit errors pass through; a cut-off or malformed body is the caller's; disk trouble is ours. */
function asGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === "string" && /^E[A-Z]+$/.test(code) && code !== "ECONNRESET" && code !== "EPIPE") {
    return new GatewayError("INTERNAL", "Internal error", { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new GatewayError("BAD_USER_INPUT", `multipart/form-data: ${message}`, { cause: error });
}
