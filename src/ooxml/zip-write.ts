// The Office packages' zip (.docx from the renderer, .xlsx from the spreadsheet writer). fflate
// writes the container (local headers, data descriptors, the central directory); Node's zlib
// deflates, natively, about 2.4× as fast as fflate's JavaScript deflate at the same level
// (bench/render-compare.ts). A part given as strings is deflated as it is written, in batches:
// document.xml or a worksheet is never joined into one string or encoded as one buffer. The zip
// goes to a sink: one buffer (zipParts), or a web stream that waits for its reader (zipStream).
import { once } from "node:events";
import { createDeflateRaw, crc32, deflateRawSync, type ZlibOptions } from "node:zlib";
import { Zip, ZipPassThrough, type ZipInputFile } from "fflate";

/**
 * A part's content: bytes, or text as strings and lists of strings, written in order. The text
 * may be lazy (a generator): it is iterated once, when the part is written, after the parts before it.
 */
export type PartContent = Uint8Array | string | Iterable<string | readonly string[]>;

/** Where the zip's bytes go, in order. */
export interface ZipSink {
  write(chunk: Uint8Array): void;
  /** A promise while the reader wants no more bytes for now (it rejects if the reader gave up); undefined when it does. */
  wait?(): Promise<void> | undefined;
}

/** Characters per deflate write: large enough that the stream's per-write cost does not show. */
const BATCH = 1 << 16;
/**
 * Level 3, not zlib's 6: the renderer's document.xml is deflated after its last batch is encoded,
 * so the deflate is the tail of every create. On the 400k-character bench document (1.58 MB of
 * XML) level 6 took 15 ms and level 3 6 ms, for 15% more bytes (135 → 155 KB); a render in the
 * pool went from 77–80 to 67–68 ms (bench/render.ts).
 */
const DEFAULT_LEVEL = 3;

export interface ZipOptions {
  /** zlib's deflate level for the parts (default 3). */
  level?: number;
}
/**
 * Every entry's modification time. fflate stamps the current time otherwise, so the same parts
 * zipped a second apart came out as different bytes; a fixed stamp (the zip format's first day,
 * as reproducible builds use) makes a package a function of its content. Office ignores it.
 */
const MTIME = new Date(1980, 0, 1);

/** Images are compressed already; deflating them again costs time and saves nothing. */
const STORED = /^(?:word|xl)\/media\/.+\.(png|jpe?g|gif)$/i;

const bytesOf = (buffer: Buffer) => new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);

/** A whole part deflated in one call: small parts, for which a stream's setup costs more than their deflate. */
function addDeflatedSync(zip: Zip, filename: string, content: string | Uint8Array, level: number): void {
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  const file: ZipInputFile = { filename, size: bytes.byteLength, crc: crc32(bytes), compression: 8, mtime: MTIME };
  zip.add(file);
  file.ondata?.(null, bytesOf(deflateRawSync(bytes, { level })), true);
}

/** Deflates `content` into the zip as `filename` as it is encoded, its CRC and size given in its data descriptor. */
async function addDeflated(
  zip: Zip,
  filename: string,
  content: Iterable<string | readonly string[]>,
  sink: ZipSink,
  level: number,
): Promise<void> {
  const file: ZipInputFile = { filename, size: 0, crc: 0, compression: 8, mtime: MTIME };
  zip.add(file);
  // A high-water mark above a batch (zlib streams take stream options, which its types leave out):
  // the deflate runs on the thread pool while the next batch is encoded.
  const deflate = createDeflateRaw({ level, writableHighWaterMark: 4 * BATCH } as ZlibOptions);
  deflate.on("data", (chunk: Buffer) => file.ondata?.(null, bytesOf(chunk), false));
  const write = async (bytes: Uint8Array) => {
    file.crc = crc32(bytes, file.crc);
    file.size += bytes.byteLength;
    if (!deflate.write(bytes)) await once(deflate, "drain");
  };
  let batch = "";
  const flush = async () => {
    const bytes = Buffer.from(batch, "utf8");
    batch = "";
    await write(bytes);
    await sink.wait?.();
  };
  try {
    // Awaits only when a batch is full: a table part can be a million strings.
    for (const segment of content) {
      for (const text of typeof segment === "string" ? [segment] : segment) {
        batch += text;
        if (batch.length >= BATCH) await flush();
      }
    }
    if (batch.length > 0) await flush();
  } catch (error) {
    deflate.destroy();
    throw error;
  }
  deflate.end();
  await once(deflate, "end");
  file.ondata?.(null, new Uint8Array(0), true);
}

/** Writes the zip of `parts` (path → content), in the order given, to `sink`. */
export async function writeZip(parts: Iterable<readonly [string, PartContent]>, sink: ZipSink, options: ZipOptions = {}): Promise<void> {
  const level = options.level ?? DEFAULT_LEVEL;
  let failure: Error | undefined;
  const zip = new Zip((error, chunk) => {
    if (error) failure ??= error;
    else sink.write(chunk);
  });
  for (const [path, content] of parts) {
    if (content instanceof Uint8Array && STORED.test(path)) {
      const file = new ZipPassThrough(path);
      file.mtime = MTIME;
      zip.add(file);
      file.push(content, true);
    } else if (typeof content === "string" || content instanceof Uint8Array) {
      addDeflatedSync(zip, path, content, level);
    } else {
      await addDeflated(zip, path, content, sink, level);
    }
    if (failure) throw failure;
    await sink.wait?.();
  }
  zip.end();
  if (failure) throw failure;
}

/** The zip of `parts` (path → content), in the order given, as one buffer. */
export async function zipParts(parts: Iterable<readonly [string, PartContent]>, options: ZipOptions = {}): Promise<Uint8Array> {
  const out: Uint8Array[] = [];
  await writeZip(parts, { write: (chunk) => out.push(chunk) }, options);
  // A fresh buffer of its own: the caller may transfer it to another thread.
  const zipped = new Uint8Array(out.reduce((size, chunk) => size + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of out) {
    zipped.set(chunk, at);
    at += chunk.byteLength;
  }
  return zipped;
}

/** Bytes a zip stream holds for a slow reader before the writer waits. */
const STREAM_HIGH_WATER = 1 << 20;

/**
 * The zip of `parts` as a web stream (a REST handler returns it as a Response body). Parts are
 * written as the reader reads: the writer waits while more than `highWaterMark` bytes are unread,
 * and stops, its deflate freed, when the reader cancels.
 */
export function zipStream(
  parts: Iterable<readonly [string, PartContent]>,
  options: ZipOptions & { highWaterMark?: number } = {},
): ReadableStream<Uint8Array> {
  const highWaterMark = options.highWaterMark ?? STREAM_HIGH_WATER;
  let control: ReadableStreamDefaultController<Uint8Array> | undefined;
  let waiting: { resolve: () => void; reject: (error: Error) => void } | undefined;
  let cancelled: Error | undefined;
  const sink: ZipSink = {
    write: (chunk) => {
      if (!cancelled) control?.enqueue(chunk);
    },
    wait: () => {
      if (cancelled) return Promise.reject(cancelled);
      if ((control?.desiredSize ?? 1) > 0) return undefined;
      return new Promise((resolve, reject) => (waiting = { resolve, reject }));
    },
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        control = controller;
        writeZip(parts, sink, options).then(
          () => cancelled ?? controller.close(),
          (error: unknown) => cancelled ?? controller.error(error),
        );
      },
      pull() {
        waiting?.resolve();
        waiting = undefined;
      },
      cancel(reason) {
        cancelled = new Error("the zip's reader cancelled the stream", { cause: reason });
        waiting?.reject(cancelled);
        waiting = undefined;
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark }),
  );
}
