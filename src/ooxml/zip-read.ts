// Reads an untrusted zip: its central directory (every offset and length checked against the
// file), and each entry inflated on demand, in small steps, while the real output is counted
// against the package's budget and its CRC checked, so a zip bomb stops a few MB past the bound
// whatever it declares, and nothing is ever inflated whole unless a reader asks to keep it.
//
// Why not fflate's unzipSync: it allocates each entry's *declared* size up front and silently
// truncates at it; its streaming Unzip finds the end of entries written with a data descriptor by
// scanning for a signature. The central directory is what Word, Excel, LibreOffice and mammoth read.
import { crc32, inflateRawSync } from "node:zlib";
import { Inflate, strFromU8 } from "fflate";
import type { Budget } from "./budget.ts";
import { joinBytes } from "./bytes.ts";
import { PackageTooLarge, unsupported, type PackageKind } from "./errors.ts";
import { partKey, partName, printable } from "./part-names.ts";

export interface ZipItem {
  /** The part name (./part-names.ts), e.g. word/_rels/document.xml.rels. */
  name: string;
  /** The name as the zip spells it. */
  entryName: string;
  method: 0 | 8;
  /** CRC-32 the directory declares; checked against the inflated bytes. */
  crc: number;
  /** The size the directory declares the entry inflates to: a hint for refusing early, never trusted. */
  declaredSize: number;
  /** The entry's compressed bytes (a view into the upload). */
  compressed: Uint8Array;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;
/** An OLE compound file: what Office writes for a password-protected file (and the old binary formats). */
const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/**
 * Compressed bytes handed to the inflater at a time: deflate expands at most ~1032×, so one step
 * yields at most ~4 MB past the bound.
 */
const STEP = 4 * 1024;
/**
 * An entry bound by its declared size (declaredSizes "bound") up to this size is inflated by zlib
 * in one call, stopped by zlib itself one byte past that size (or past what the budget has left),
 * then handed on in slices and counted as before: 10× faster than fflate's small steps (a 38 MB
 * sheet: ~1.1–1.9 s → 0.1–0.17 s). The buffer lives only while the part is read; like the steps'
 * pieces it is not counted as held (Budget.hold), and WHOLE bounds it: the price is that much more
 * RSS during the read (bench:sheets:gateway's .xlsx import step: +47–55 MB over the RSS before it,
 * +17–19 with the steps).
 */
const WHOLE = 64 * 1024 * 1024;
const SLICE = 256 * 1024;

class Reader {
  private readonly view: DataView;
  constructor(
    readonly bytes: Uint8Array,
    readonly kind: PackageKind,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  has(offset: number, length: number): boolean {
    return Number.isSafeInteger(offset) && offset >= 0 && length >= 0 && offset + length <= this.bytes.length;
  }
  u16(offset: number): number {
    if (!this.has(offset, 2)) throw this.broken("the zip structure is truncated");
    return this.view.getUint16(offset, true);
  }
  u32(offset: number): number {
    if (!this.has(offset, 4)) throw this.broken("the zip structure is truncated");
    return this.view.getUint32(offset, true);
  }
  u64(offset: number): number {
    const value = this.u32(offset) + this.u32(offset + 4) * 2 ** 32;
    if (!Number.isSafeInteger(value)) throw this.broken("the zip structure is corrupt");
    return value;
  }
  broken(explanation: string) {
    return unsupported("malformed", this.kind, explanation);
  }
}

/** The end-of-central-directory record (and its zip64 form): how many entries, and where they start. */
function directory(reader: Reader): { count: number; offset: number } {
  const { bytes } = reader;
  let end = -1;
  for (let i = bytes.length - 22; i >= 0 && i >= bytes.length - 22 - MAX_COMMENT; i--) {
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && reader.u32(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) {
    if (CFB_MAGIC.every((byte, i) => bytes[i] === byte)) {
      throw unsupported(
        "encrypted",
        reader.kind,
        "it is an encrypted (password-protected) or legacy binary Office file, not a zip package",
      );
    }
    throw unsupported("not-zip", reader.kind, "it is not a zip package");
  }
  let count = reader.u16(end + 10);
  let offset = reader.u32(end + 16);
  if ((count === 0xffff || offset === 0xffffffff) && end >= 20 && reader.u32(end - 20) === ZIP64_LOCATOR) {
    const record = reader.u64(end - 12);
    if (reader.u32(record) !== ZIP64_EOCD) throw reader.broken("the zip64 directory is corrupt");
    count = reader.u64(record + 32);
    offset = reader.u64(record + 48);
  }
  return { count, offset };
}

interface CentralRecord {
  entryName: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
  next: number;
}

function record(reader: Reader, at: number): CentralRecord {
  if (reader.u32(at) !== CENTRAL) throw reader.broken("the zip directory is corrupt");
  const flags = reader.u16(at + 8);
  const method = reader.u16(at + 10);
  const crc = reader.u32(at + 16);
  let compressedSize = reader.u32(at + 20);
  const uncompressed32 = reader.u32(at + 24);
  const nameLength = reader.u16(at + 28);
  const extraLength = reader.u16(at + 30);
  const commentLength = reader.u16(at + 32);
  let localOffset = reader.u32(at + 42);
  let uncompressedSize = uncompressed32;
  if (!reader.has(at + 46, nameLength + extraLength)) throw reader.broken("the zip directory is truncated");
  // Bit 11: the name is UTF-8; otherwise CP437, read as Latin-1 as fflate does.
  const entryName = strFromU8(reader.bytes.subarray(at + 46, at + 46 + nameLength), (flags & 0x800) === 0);
  // The zip64 extra field carries, in this order, whichever 32-bit fields are saturated.
  if (compressedSize === 0xffffffff || localOffset === 0xffffffff || uncompressed32 === 0xffffffff) {
    const extraEnd = at + 46 + nameLength + extraLength;
    for (let p = at + 46 + nameLength; p + 4 <= extraEnd; p += 4 + reader.u16(p + 2)) {
      if (reader.u16(p) !== 1) continue;
      let field = p + 4;
      if (uncompressed32 === 0xffffffff) {
        uncompressedSize = reader.u64(field);
        field += 8;
      }
      if (compressedSize === 0xffffffff) {
        compressedSize = reader.u64(field);
        field += 8;
      }
      if (localOffset === 0xffffffff) localOffset = reader.u64(field);
      break;
    }
  }
  return {
    entryName,
    method,
    flags,
    crc,
    compressedSize,
    uncompressedSize,
    localOffset,
    next: at + 46 + nameLength + extraLength + commentLength,
  };
}

/** The entry's compressed bytes, located through its local header. */
function compressedData(reader: Reader, entry: CentralRecord): Uint8Array {
  const at = entry.localOffset;
  if (reader.u32(at) !== LOCAL) throw reader.broken(`the zip entry ${printable(entry.entryName)} is corrupt`);
  const start = at + 30 + reader.u16(at + 26) + reader.u16(at + 28);
  if (!reader.has(start, entry.compressedSize)) throw reader.broken(`the zip entry ${printable(entry.entryName)} is truncated`);
  return reader.bytes.subarray(start, start + entry.compressedSize);
}

/**
 * The file entries of a zip, in directory order (directory entries are skipped), with their part
 * names. Refuses more than `entryLimit` entries (413), encrypted entries, unknown compression
 * methods, and two entries naming one part (415).
 */
export function openZip(bytes: Uint8Array, entryLimit: number, kind: PackageKind): ZipItem[] {
  const reader = new Reader(bytes, kind);
  const { count, offset } = directory(reader);
  // The declared count bounds the walk: an entry the directory does not list is never read.
  if (count > entryLimit) {
    throw new PackageTooLarge("entries", `The ${kind.name} holds more than ${entryLimit} zip entries`, { limit: entryLimit });
  }
  const keys = new Set<string>();
  const items: ZipItem[] = [];
  for (let i = 0, at = offset; i < count; i++) {
    const entry = record(reader, at);
    at = entry.next;
    if (entry.entryName.endsWith("/") || entry.entryName.endsWith("\\")) continue;
    const name = partName(entry.entryName, kind);
    if (keys.has(partKey(name))) throw unsupported("malformed", kind, `the zip holds the part ${printable(name)} twice`);
    keys.add(partKey(name));
    if (entry.flags & 1) throw unsupported("encrypted", kind, `the zip entry ${printable(name)} is encrypted`);
    if (entry.method !== 0 && entry.method !== 8) {
      throw unsupported("malformed", kind, `the zip entry ${printable(name)} uses compression method ${entry.method}`);
    }
    items.push({
      name,
      entryName: entry.entryName,
      method: entry.method,
      crc: entry.crc,
      declaredSize: entry.uncompressedSize,
      compressed: compressedData(reader, entry),
    });
  }
  return items;
}

const inflatesPastDeclared = (item: ZipItem, budget: Budget): PackageTooLarge =>
  new PackageTooLarge(
    "expanded",
    `The ${budget.kind.name}'s zip entry ${printable(item.name)} inflates past the ${item.declaredSize} bytes its zip directory declares`,
    { reason: "declared_size", limit: item.declaredSize },
  );

/** The entry inflated by zlib, no further than `room` bytes (its declared size, or less when the budget has less left). */
function inflateWhole(item: ZipItem, budget: Budget, room: number): Uint8Array {
  try {
    // One output chunk as large as the entry may be: zlib's pieces are not joined in a second copy.
    return inflateRawSync(item.compressed, { maxOutputLength: room + 1, chunkSize: Math.max(64 * 1024, room + 1) });
  } catch (error) {
    if (error instanceof RangeError && (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      // Past `room`: refused as a stepwise inflation refuses it, the budget's bound first.
      budget.inflate(room + 1);
      throw inflatesPastDeclared(item, budget);
    }
    throw unsupported("malformed", budget.kind, `the zip entry ${printable(item.name)} cannot be inflated`);
  }
}

/**
 * Inflates an entry in small steps, handing each piece to `onChunk` as it comes (nothing is kept
 * here), every byte counted against the budget; checks the CRC at the end. Returns the size.
 * `keepsChunks`: the caller keeps the pieces past its onChunk call (else they may be released after).
 */
export function inflateItem(item: ZipItem, budget: Budget, onChunk: (chunk: Uint8Array) => void, keepsChunks = false): number {
  let crc = 0;
  let size = 0;
  const take = (chunk: Uint8Array) => {
    if (chunk.length === 0) return;
    budget.inflate(chunk.length);
    size += chunk.length;
    // An entry that inflates past the size its directory declares is a lie (every writer records the
    // real size, and every reader stops there): stop at once, rather than inflate and parse up to
    // the package's bound (issue 37: a sheet declaring 1,000 bytes inflated 200 MB, 23-33 s).
    if (size > item.declaredSize && budget.limits.declaredSizes === "bound") throw inflatesPastDeclared(item, budget);
    crc = crc32(chunk, crc);
    onChunk(chunk);
  };
  const data = item.compressed;
  const room = Math.min(item.declaredSize, budget.limits.expandedBytes - budget.usage.inflated);
  if (item.method === 8 && data.length > 0 && budget.limits.declaredSizes === "bound" && item.declaredSize <= WHOLE && room > 0) {
    const whole = inflateWhole(item, budget, room);
    for (let offset = 0; offset < whole.length; offset += SLICE) take(whole.subarray(offset, offset + SLICE));
    // Given back at once rather than when a collection reaches it: read for a while, the buffer is
    // promoted, and a 38 MB sheet's stayed under the rest of the import's peak. Only where no
    // reader keeps a chunk, and never a small buffer (which may share Node's pool).
    if (!keepsChunks && whole.byteLength >= 1024 * 1024)
      (whole.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }).transfer?.(0);
  } else if (item.method === 0) {
    for (let offset = 0; offset < data.length; offset += 64 * STEP) take(data.subarray(offset, offset + 64 * STEP));
  } else {
    const inflater = new Inflate(take);
    try {
      if (data.length === 0) inflater.push(data, true);
      for (let offset = 0; offset < data.length; offset += STEP)
        inflater.push(data.subarray(offset, offset + STEP), offset + STEP >= data.length);
    } catch (error) {
      // A budget or reader refusal passes through; fflate's own errors mean a broken stream.
      if (error instanceof Error && "code" in error && typeof (error as { code: unknown }).code === "number") {
        throw unsupported("malformed", budget.kind, `the zip entry ${printable(item.name)} cannot be inflated`);
      }
      throw error;
    }
  }
  if (crc >>> 0 !== item.crc >>> 0)
    throw unsupported("malformed", budget.kind, `the zip entry ${printable(item.name)} fails its CRC check`);
  return size;
}

/** An entry's bytes, whole: only for parts a reader must hold (bounded by the budget's memory). */
export function readItem(item: ZipItem, budget: Budget): Uint8Array {
  const chunks: Uint8Array[] = [];
  const size = inflateItem(
    item,
    budget,
    (chunk) => {
      budget.hold(chunk.length);
      chunks.push(chunk);
    },
    true,
  );
  return chunks.length === 1 ? chunks[0]! : joinBytes(chunks, size);
}
