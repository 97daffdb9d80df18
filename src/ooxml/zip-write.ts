// The Office packages' zip (.docx from the renderer, .xlsx from the spreadsheet writer). fflate
// writes the container (local headers, data descriptors, the central directory); Node's zlib
// deflates, natively, about 2.4× as fast as fflate's JavaScript deflate at the same level
// (bench/render-compare.ts). A part given as strings is encoded into segments of bytes as it is
// written, each segment deflated on the thread pool while the next is encoded: document.xml or a
// worksheet is never joined into one string or encoded as one buffer. The zip goes to a sink: one
// buffer (zipParts), or a web stream that waits for its reader (zipStream).
import { promisify } from "node:util";
import { constants, crc32, deflateRaw, deflateRawSync } from "node:zlib";
import { Zip, ZipPassThrough, type ZipInputFile } from "fflate";
import { bytesOf, joinBytes } from "./bytes.ts";

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

/**
 * Bytes per deflated segment. Each segment is a deflate of its own (a new zlib stream: its setup
 * cost about 0.2 ms here), so a segment must be large enough for that not to show: at 64 KB the
 * 400k bench document's segments took 12 ms one after another, at 256 KB 7 ms, as one deflate 6.4.
 */
const SEGMENT = 1 << 18;
/**
 * Segments deflating at once, on the thread pool (libuv's default: four threads). Each holds its
 * input and output until the oldest is written.
 */
const IN_FLIGHT = 4;
/**
 * Level 3, not zlib's 6: the renderer's last segments of document.xml are deflated after its last
 * string is encoded, so the deflate is the tail of every create. On the 400k-character bench document (1.58 MB of
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

/** A whole part deflated in one call: small parts, for which a stream's setup costs more than their deflate. */
function addDeflatedSync(zip: Zip, filename: string, content: string | Uint8Array, level: number): void {
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  const file: ZipInputFile = { filename, size: bytes.byteLength, crc: crc32(bytes), compression: 8, mtime: MTIME };
  zip.add(file);
  file.ondata?.(null, bytesOf(deflateRawSync(bytes, { level })), true);
}

const deflateRawAsync = promisify(deflateRaw);

/**
 * One segment of a part's deflate stream: `bytes` deflated alone. A segment that is not the last
 * ends with a sync flush (an empty stored block, on a byte boundary, not final), so the segments'
 * outputs, concatenated, are one valid deflate stream, as pigz writes them: each segment's
 * back-references stay within it, which costs ~2% in size (157 KB for 154 on the bench document).
 */
const deflateSegment = (bytes: Uint8Array, level: number, last: boolean): Promise<Buffer> =>
  // An output buffer that holds the whole segment's deflate: one pass on the thread pool.
  deflateRawAsync(bytes, { level, finishFlush: last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH, chunkSize: bytes.byteLength + 1024 });

/** Bytes a string of `length` UTF-16 units can take in UTF-8, at most. */
const maxUtf8 = (length: number) => length * 3;

/**
 * Deflates `content` into the zip as `filename` as it is encoded, its CRC and size given in its
 * data descriptor. Each string is encoded straight into the segment's buffer: a few thousand
 * Buffer writes cost less than joining the strings first (V8 flattens the joined string, and one
 * character beyond Latin-1 makes all of it two-byte: the bench document's 115 task boxes and image
 * marks did), 3.6 ms against 5.9 for the bench document's 1.6 MB of XML.
 */
async function addDeflated(
  zip: Zip,
  filename: string,
  content: Iterable<string | readonly string[]>,
  sink: ZipSink,
  level: number,
): Promise<void> {
  const file: ZipInputFile = { filename, size: 0, crc: 0, compression: 8, mtime: MTIME };
  zip.add(file);
  const deflating: Promise<Buffer>[] = [];
  const submit = async (bytes: Uint8Array, last: boolean) => {
    file.crc = crc32(bytes, file.crc);
    file.size += bytes.byteLength;
    const deflated = deflateSegment(bytes, level, last);
    // Awaited in order, later: a failure meanwhile is not an unhandled rejection.
    deflated.catch(() => undefined);
    deflating.push(deflated);
    while (deflating.length > (last ? 0 : IN_FLIGHT)) file.ondata?.(null, bytesOf(await deflating.shift()!), false);
    await sink.wait?.();
  };
  let buffer = Buffer.allocUnsafe(SEGMENT);
  let at = 0;
  const submitBuffer = async (last: boolean) => {
    const bytes = buffer.subarray(0, at);
    if (!last) {
      buffer = Buffer.allocUnsafe(SEGMENT);
      at = 0;
    }
    await submit(bytes, last);
  };
  try {
    // Awaits only when a segment is full: a table part can be a million strings.
    for (const segment of content) {
      for (const text of typeof segment === "string" ? [segment] : segment) {
        if (maxUtf8(text.length) > SEGMENT - at) {
          if (at > 0) await submitBuffer(false);
          // A string larger than a segment is a segment of its own.
          if (maxUtf8(text.length) > SEGMENT) {
            await submit(Buffer.from(text, "utf8"), false);
            continue;
          }
        }
        at += buffer.write(text, at);
      }
    }
    await submitBuffer(true);
  } catch (error) {
    // Nothing is left running on the thread pool behind a failed part.
    await Promise.allSettled(deflating);
    throw error;
  }
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
  return joinBytes(
    out,
    out.reduce((size, chunk) => size + chunk.byteLength, 0),
  );
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
