// A package written anew from parts a reader has checked, so that what is stored is what was
// checked: XML parts as they were written back from the parser (./xml-write.ts), deflated here;
// other parts as the bytes the upload's entry inflated to, copied compressed as they came (the
// CRC and size are the ones measured while inflating them), so no second copy is made.
import { crc32, deflateRawSync } from "node:zlib";
import { Zip, ZipPassThrough, type ZipInputFile } from "fflate";
import type { Budget } from "./budget.ts";
import { bytesOf, joinBytes } from "./bytes.ts";

export type RepackPart =
  | { name: string; text: string }
  | { name: string; bytes: Uint8Array; store?: boolean }
  | { name: string; deflated: Uint8Array; crc: number; size: number };

/** Every entry's time: a package written from the same parts is the same bytes. */
const MTIME = new Date(1980, 0, 1);

function add(zip: Zip, part: RepackPart, budget: Budget): void {
  if ("deflated" in part) {
    const file: ZipInputFile = { filename: part.name, size: part.size, crc: part.crc, compression: 8, mtime: MTIME };
    zip.add(file);
    file.ondata?.(null, part.deflated as Uint8Array<ArrayBuffer>, true);
    return;
  }
  const bytes = "text" in part ? bytesOf(Buffer.from(part.text, "utf8")) : part.bytes;
  if ("store" in part && part.store) {
    const file = new ZipPassThrough(part.name);
    file.mtime = MTIME;
    zip.add(file);
    file.push(bytes, true);
    return;
  }
  const deflated = bytesOf(deflateRawSync(bytes, { level: 6 }));
  budget.hold(deflated.byteLength);
  const file: ZipInputFile = { filename: part.name, size: bytes.byteLength, crc: crc32(bytes), compression: 8, mtime: MTIME };
  zip.add(file);
  file.ondata?.(null, deflated, true);
}

/** The zip of `parts`, in order; every byte it holds is counted against the budget's memory. */
export function repack(parts: Iterable<RepackPart>, budget: Budget): Uint8Array {
  const out: Uint8Array[] = [];
  let size = 0;
  let failure: Error | undefined;
  const zip = new Zip((error, chunk) => {
    if (error) failure ??= error;
    else {
      out.push(chunk);
      size += chunk.byteLength;
    }
  });
  for (const part of parts) add(zip, part, budget);
  zip.end();
  if (failure) throw failure;
  budget.hold(size);
  return joinBytes(out, size);
}
