// .docx packages for import tests: a real one from our renderer, and hostile variants of it made
// by rewriting its entries with fflate.
import { constants as zlibConstants, crc32, deflateRawSync } from "node:zlib";
import { strFromU8, strToU8, unzipSync, Zip, ZipDeflate, zipSync, type ZipInputFile, type Zippable } from "fflate";
import { extractDocx } from "../../../src/documents/import/index.ts";
import { renderDocument } from "../../../src/documents/render/index.ts";

export async function renderedDocx(markdown = "# Title\n\nA paragraph.\n\n- one\n- two\n"): Promise<Uint8Array> {
  return (await renderDocument(markdown, { title: "fixture" })).docx;
}

type Change = ((text: string) => string | Uint8Array) | string | Uint8Array | null;

const bytesOf = (value: string | Uint8Array): Uint8Array => (typeof value === "string" ? strToU8(value) : value);

/** The package with some entries' text rewritten (or added, or removed with null); a change may give raw bytes. */
export function rewrite(docx: Uint8Array, changes: Record<string, Change>): Uint8Array {
  const entries = unzipSync(docx);
  const out: Zippable = {};
  for (const [name, data] of Object.entries(entries)) {
    const change = changes[name];
    if (change === null) continue;
    out[name] = change === undefined ? data : bytesOf(typeof change === "function" ? change(strFromU8(data)) : change);
  }
  for (const [name, change] of Object.entries(changes)) {
    if (!(name in entries) && change !== null && typeof change !== "function") out[name] = bytesOf(change);
  }
  return zipSync(out);
}

/**
 * A zip of one entry that inflates to `bytes` zero bytes, in a fraction of a second: one deflated
 * MiB of zeros, full-flushed so it stands alone, repeated, then the remainder and an empty final
 * block (deflating the whole 200 MB, as fflate would, took seconds per bomb).
 */
export function zeroBomb(bytes: number, name = "word/document.xml"): Uint8Array {
  const MIB = 1024 * 1024;
  const flushed = (size: number) => deflateRawSync(Buffer.alloc(size), { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH });
  const whole = flushed(MIB);
  const parts = Array.from({ length: Math.floor(bytes / MIB) }, () => whole);
  if (bytes % MIB) parts.push(flushed(bytes % MIB));
  const data = Buffer.concat([...parts, Buffer.from([0x03, 0x00])]);
  let crc = 0;
  for (let left = bytes, zeros = Buffer.alloc(MIB); left > 0; left -= MIB) crc = crc32(left >= MIB ? zeros : zeros.subarray(0, left), crc);
  const fileName = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8); // deflate
  local.writeUInt32LE(crc >>> 0, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(bytes, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc >>> 0, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(bytes, 24);
  central.writeUInt16LE(fileName.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + fileName.length, 12);
  end.writeUInt32LE(30 + fileName.length + data.length, 16);
  return new Uint8Array(Buffer.concat([local, fileName, data, central, fileName, end]));
}

/** Sets every declared uncompressed size (local headers and central directory) to `size`: a zip that lies. */
export function lieAboutSizes(zip: Uint8Array, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let i = 0; i + 4 <= out.length; i++) {
    const signature = view.getUint32(i, true);
    if (signature === 0x04034b50 && i + 26 <= out.length) view.setUint32(i + 22, size, true);
    if (signature === 0x02014b50 && i + 28 <= out.length) view.setUint32(i + 24, size, true);
  }
  return out;
}

/**
 * A real Word package whose document.xml inflates to about `bytes` of well-formed paragraphs (the
 * issue 23 upload: 660 KB inflating to 190 MB), built in a fraction of a second: one ~1 MiB run of
 * paragraphs deflated once with a full flush (so it stands alone) and repeated, between a deflated
 * head and tail; the CRC is computed over the real content.
 */
export async function inflatingDocx(bytes: number): Promise<Uint8Array> {
  const entries = unzipSync(await renderedDocx());
  const document = strFromU8(entries["word/document.xml"]!);
  const bodyAt = document.indexOf("<w:body>") + "<w:body>".length;
  const head = Buffer.from(document.slice(0, bodyAt));
  const tail = Buffer.from(document.slice(bodyAt));
  const paragraph = "<w:p><w:r><w:t>All work and no play makes a heavy upload.</w:t></w:r></w:p>";
  const unit = Buffer.from(paragraph.repeat(Math.floor((1 << 20) / paragraph.length)));
  const repeats = Math.max(1, Math.round((bytes - head.length - tail.length) / unit.length));
  const flushed = (data: Buffer) => deflateRawSync(data, { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH });
  const headDeflated = flushed(head);
  const unitDeflated = flushed(unit);
  const tailDeflated = deflateRawSync(tail, { level: 9 });
  let crc = crc32(head);
  for (let i = 0; i < repeats; i++) crc = crc32(unit, crc);
  crc = crc32(tail, crc);
  const out: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    out.push(chunk);
  });
  for (const [name, data] of Object.entries(entries)) {
    if (name !== "word/document.xml") {
      const file = new ZipDeflate(name, { level: 6 });
      zip.add(file);
      file.push(data, true);
      continue;
    }
    const file: ZipInputFile = { filename: name, size: head.length + unit.length * repeats + tail.length, crc, compression: 8 };
    zip.add(file);
    file.ondata?.(null, new Uint8Array(headDeflated), false);
    for (let i = 0; i < repeats; i++) file.ondata?.(null, new Uint8Array(unitDeflated), false);
    file.ondata?.(null, new Uint8Array(tailDeflated), true);
  }
  zip.end();
  return new Uint8Array(Buffer.concat(out));
}

/** What the gateway stores for an uploaded .docx: the package written anew from what its checks parsed (deterministic). */
export async function storedPackage(upload: Uint8Array): Promise<Uint8Array> {
  return (await extractDocx(upload)).docx;
}
