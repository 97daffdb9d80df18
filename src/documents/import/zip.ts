// Reads an untrusted zip: its central directory (every offset and length checked against the
// file) and each entry's data, inflated by fflate's streaming Inflate in small steps while the
// real output is counted, so a zip bomb is stopped a few MB past the bound, whatever it declares.
//
// Why not fflate's unzipSync: it allocates each entry's *declared* size up front and silently
// truncates at it; its streaming Unzip finds the end of entries written with a data descriptor by
// scanning for a signature. The central directory is what Word, LibreOffice and mammoth read.
import { Inflate, strFromU8 } from "fflate";
import { GatewayError } from "../../core/errors.ts";
import { expandsTooFar, notDocx, tooManyEntries } from "./errors.ts";

export interface ZipLimits {
  entries: number;
  expandedBytes: number;
}

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;
/**
 * Compressed bytes handed to the inflater at a time: deflate expands at most ~1032×, so one step
 * yields at most ~4 MB past the bound. (Also the fastest step measured: larger ones grow fflate's
 * output buffer more.)
 */
const STEP = 4 * 1024;

class Reader {
  private readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  has(offset: number, length: number): boolean {
    return Number.isSafeInteger(offset) && offset >= 0 && length >= 0 && offset + length <= this.bytes.length;
  }
  u16(offset: number): number {
    if (!this.has(offset, 2)) throw notDocx("the zip structure is truncated");
    return this.view.getUint16(offset, true);
  }
  u32(offset: number): number {
    if (!this.has(offset, 4)) throw notDocx("the zip structure is truncated");
    return this.view.getUint32(offset, true);
  }
  u64(offset: number): number {
    const value = this.u32(offset) + this.u32(offset + 4) * 2 ** 32;
    if (!Number.isSafeInteger(value)) throw notDocx("the zip structure is corrupt");
    return value;
  }
}

interface Directory {
  count: number;
  offset: number;
}

/** The end-of-central-directory record (and its zip64 form): how many entries, and where they start. */
function directory(reader: Reader): Directory {
  const { bytes } = reader;
  let end = -1;
  for (let i = bytes.length - 22; i >= 0 && i >= bytes.length - 22 - MAX_COMMENT; i--) {
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && reader.u32(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw notDocx("it is not a zip package");
  let count = reader.u16(end + 10);
  let offset = reader.u32(end + 16);
  if ((count === 0xffff || offset === 0xffffffff) && end >= 20 && reader.u32(end - 20) === ZIP64_LOCATOR) {
    const record = reader.u64(end - 12);
    if (reader.u32(record) !== ZIP64_EOCD) throw notDocx("the zip64 directory is corrupt");
    count = reader.u64(record + 32);
    offset = reader.u64(record + 48);
  }
  return { count, offset };
}

/** One central-directory record: the entry's name, method and where its data lies. */
interface CentralRecord {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  localOffset: number;
  next: number;
}

function record(reader: Reader, at: number): CentralRecord {
  if (reader.u32(at) !== CENTRAL) throw notDocx("the zip directory is corrupt");
  const flags = reader.u16(at + 8);
  const method = reader.u16(at + 10);
  let compressedSize = reader.u32(at + 20);
  const uncompressed32 = reader.u32(at + 24);
  const nameLength = reader.u16(at + 28);
  const extraLength = reader.u16(at + 30);
  const commentLength = reader.u16(at + 32);
  let localOffset = reader.u32(at + 42);
  if (!reader.has(at + 46, nameLength + extraLength)) throw notDocx("the zip directory is truncated");
  // Bit 11: the name is UTF-8; otherwise CP437, read as Latin-1 as fflate does.
  const name = strFromU8(reader.bytes.subarray(at + 46, at + 46 + nameLength), (flags & 0x800) === 0);
  // The zip64 extra field carries, in this order, whichever 32-bit fields are saturated.
  if (compressedSize === 0xffffffff || localOffset === 0xffffffff || uncompressed32 === 0xffffffff) {
    const extraEnd = at + 46 + nameLength + extraLength;
    for (let p = at + 46 + nameLength; p + 4 <= extraEnd; p += 4 + reader.u16(p + 2)) {
      if (reader.u16(p) !== 1) continue;
      let field = p + 4;
      if (uncompressed32 === 0xffffffff) field += 8;
      if (compressedSize === 0xffffffff) {
        compressedSize = reader.u64(field);
        field += 8;
      }
      if (localOffset === 0xffffffff) localOffset = reader.u64(field);
      break;
    }
  }
  return { name, method, flags, compressedSize, localOffset, next: at + 46 + nameLength + extraLength + commentLength };
}

/** The entry's compressed bytes, located through its local header. */
function compressedData(reader: Reader, entry: CentralRecord): Uint8Array {
  const at = entry.localOffset;
  if (reader.u32(at) !== LOCAL) throw notDocx(`the zip entry ${entry.name} is corrupt`);
  const start = at + 30 + reader.u16(at + 26) + reader.u16(at + 28);
  if (!reader.has(start, entry.compressedSize)) throw notDocx(`the zip entry ${entry.name} is truncated`);
  return reader.bytes.subarray(start, start + entry.compressedSize);
}

/** Counts every byte the entries expand to, across the whole package. */
class Budget {
  used = 0;
  constructor(private readonly limit: number) {}
  take(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) throw expandsTooFar(this.limit);
  }
}

function inflate(data: Uint8Array, name: string, budget: Budget): Uint8Array {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const inflater = new Inflate((chunk) => {
    budget.take(chunk.length);
    if (chunk.length > 0) chunks.push(chunk);
    length += chunk.length;
  });
  try {
    if (data.length === 0) inflater.push(data, true);
    for (let offset = 0; offset < data.length; offset += STEP) {
      inflater.push(data.subarray(offset, offset + STEP), offset + STEP >= data.length);
    }
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw notDocx(`the zip entry ${name} cannot be inflated`);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/**
 * Every file entry of the zip, inflated, in directory order (directory entries are skipped).
 * `keep` says whether an entry's bytes are wanted; an entry not kept is still inflated and
 * counted, and comes back empty.
 */
export function readZip(bytes: Uint8Array, limits: ZipLimits, keep: (name: string, data: Uint8Array) => boolean): ZipEntry[] {
  const reader = new Reader(bytes);
  const { count, offset } = directory(reader);
  // The declared count bounds the walk: an entry the directory does not list is never read.
  if (count > limits.entries) throw tooManyEntries(limits.entries);
  const budget = new Budget(limits.expandedBytes);
  const names = new Set<string>();
  const entries: ZipEntry[] = [];
  for (let i = 0, at = offset; i < count; i++) {
    const entry = record(reader, at);
    at = entry.next;
    if (names.has(entry.name)) throw notDocx(`the zip holds ${entry.name} twice`);
    names.add(entry.name);
    if (entry.name.endsWith("/")) continue;
    if (entry.flags & 1) throw notDocx(`the zip entry ${entry.name} is encrypted`);
    const raw = compressedData(reader, entry);
    let data: Uint8Array;
    if (entry.method === 0) {
      budget.take(raw.length);
      data = raw;
    } else if (entry.method === 8) {
      data = inflate(raw, entry.name, budget);
    } else {
      throw notDocx(`the zip entry ${entry.name} uses compression method ${entry.method}`);
    }
    entries.push({ name: entry.name, data: keep(entry.name, data) ? data : new Uint8Array(0) });
  }
  return entries;
}
