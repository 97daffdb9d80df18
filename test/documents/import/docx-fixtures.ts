// .docx packages for import tests: a real one from our renderer, and hostile variants of it made
// by rewriting its entries with fflate.
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from "fflate";
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

/** A zip of one entry that inflates to `bytes` zero bytes (fflate deflates them to ~0.1% of that). */
export function zeroBomb(bytes: number, name = "word/document.xml"): Uint8Array {
  return zipSync({ [name]: [new Uint8Array(bytes), { level: 1 }] });
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
