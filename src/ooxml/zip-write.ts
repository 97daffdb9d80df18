// The .docx package's zip. fflate writes the container (local headers, data descriptors, the
// central directory); Node's zlib deflates, natively, about 2.4× as fast as fflate's JavaScript
// deflate at the same level (bench/render-compare.ts). A part given as strings is deflated as it
// is written, in batches: document.xml is never joined into one string or encoded as one buffer.
import { once } from "node:events";
import { createDeflateRaw, crc32, deflateRawSync, type ZlibOptions } from "node:zlib";
import { Zip, ZipPassThrough, type ZipInputFile } from "fflate";

/** A part's content: bytes, or text as strings and lists of strings, written in order. */
export type PartContent = Uint8Array | string | readonly (string | readonly string[])[];

/** Characters per deflate write: large enough that the stream's per-write cost does not show. */
const BATCH = 1 << 16;
/** zlib's default: the size docx's own packing gave, at native speed. */
const LEVEL = 6;
/** Images are compressed already; deflating them again costs time and saves nothing. */
const STORED = /^word\/media\/.+\.(png|jpe?g|gif)$/i;

const bytesOf = (buffer: Buffer) => new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);

/** A whole part deflated in one call: small parts, for which a stream's setup costs more than their deflate. */
function addDeflatedSync(zip: Zip, filename: string, content: string | Uint8Array): void {
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  const file: ZipInputFile = { filename, size: bytes.byteLength, crc: crc32(bytes), compression: 8 };
  zip.add(file);
  file.ondata?.(null, bytesOf(deflateRawSync(bytes, { level: LEVEL })), true);
}

/** Deflates `content` into the zip as `filename` as it is encoded, its CRC and size given in its data descriptor. */
async function addDeflated(zip: Zip, filename: string, content: readonly (string | readonly string[])[]): Promise<void> {
  const file: ZipInputFile = { filename, size: 0, crc: 0, compression: 8 };
  zip.add(file);
  // A high-water mark above a batch (zlib streams take stream options, which its types leave out):
  // the deflate runs on the thread pool while the next batch is encoded.
  const deflate = createDeflateRaw({ level: LEVEL, writableHighWaterMark: 4 * BATCH } as ZlibOptions);
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
  };
  // Awaits only when a batch is full: a table part can be a million strings.
  for (const segment of content) {
    for (const text of typeof segment === "string" ? [segment] : segment) {
      batch += text;
      if (batch.length >= BATCH) await flush();
    }
  }
  if (batch.length > 0) await flush();
  deflate.end();
  await once(deflate, "end");
  file.ondata?.(null, new Uint8Array(0), true);
}

/** The zip of `parts` (path → content), in the order given. */
export async function zipParts(parts: Iterable<readonly [string, PartContent]>): Promise<Uint8Array> {
  const out: Uint8Array[] = [];
  let failure: Error | undefined;
  const zip = new Zip((error, chunk) => {
    if (error) failure ??= error;
    else out.push(chunk);
  });
  for (const [path, content] of parts) {
    if (content instanceof Uint8Array && STORED.test(path)) {
      const file = new ZipPassThrough(path);
      zip.add(file);
      file.push(content, true);
    } else if (typeof content === "string" || content instanceof Uint8Array) {
      addDeflatedSync(zip, path, content);
    } else {
      await addDeflated(zip, path, content);
    }
  }
  zip.end();
  if (failure) throw failure;
  // A fresh buffer of its own: the caller may transfer it to another thread.
  const zipped = new Uint8Array(out.reduce((size, chunk) => size + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of out) {
    zipped.set(chunk, at);
    at += chunk.byteLength;
  }
  return zipped;
}
