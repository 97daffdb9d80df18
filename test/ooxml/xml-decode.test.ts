// XML parts decoded as an XML processor decodes them, piece by piece: BOMs, UTF-16 without a BOM,
// the declared encoding, and refusals where the bytes and the declaration disagree.
import { describe, expect, it } from "vitest";
import { DOCX } from "../../src/ooxml/index.ts";
import { XmlDecoder } from "../../src/ooxml/xml-decode.ts";

/** Decodes `bytes` handed over in pieces of `step` bytes. */
function decode(bytes: Uint8Array, step = 3): string {
  const decoder = new XmlDecoder("part.xml", DOCX);
  let out = "";
  for (let i = 0; i < bytes.length; i += step) out += decoder.write(bytes.subarray(i, i + step));
  return out + decoder.end();
}

const text = '<?xml version="1.0" encoding="UTF-16"?><a>é€😀</a>';
const le = Buffer.from(text, "utf16le");
const be = Buffer.from(text, "utf16le").swap16();

describe("XmlDecoder", () => {
  it("UTF-16 with and without a BOM, little- and big-endian, split anywhere", () => {
    for (const step of [1, 3, 4096]) {
      expect(decode(new Uint8Array(le), step)).toBe(text);
      expect(decode(new Uint8Array(be), step)).toBe(text);
      expect(decode(new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), le])), step)).toBe(text);
      expect(decode(new Uint8Array(Buffer.concat([Buffer.from([0xfe, 0xff]), be])), step)).toBe(text);
    }
  });

  it("UTF-8 with or without a BOM; a declared single-byte encoding", () => {
    expect(decode(new Uint8Array(Buffer.from("\ufeff<a>é</a>")))).toBe("<a>é</a>");
    expect(
      decode(new Uint8Array([...Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><a>'), 0xe9, ...Buffer.from("</a>")])),
    ).toMatch(/<a>é<\/a>$/);
  });

  it("refuses bytes that contradict their declaration, unknown encodings and malformed UTF-8", () => {
    expect(() =>
      decode(new Uint8Array(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<?xml version="1.0" encoding="UTF-16"?><a/>')]))),
    ).toThrow(/declares utf-16 but is in UTF-8/);
    expect(() => decode(new Uint8Array(Buffer.from('<?xml version="1.0" encoding="Shift_JIS"?><a/>')))).toThrow(/encoding we do not read/);
    expect(() => decode(new Uint8Array([0x3c, 0x61, 0x3e, 0xff, 0x3c, 0x2f, 0x61, 0x3e]))).toThrow(/not valid UTF-8/);
  });
});
