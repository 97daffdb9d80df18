// The package's zip writer (src/ooxml/zip-write.ts): what goes in comes out, byte for byte,
// through two independent readers that check every entry's CRC and size; images are stored, text
// deflated; a part of many strings is streamed across batches without being joined; as a web
// stream the same bytes come out, written only as fast as they are read.
import { unzipSync } from "fflate";
import JSZip from "jszip";
import { inflateRawSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { zipParts, zipStream, type PartContent } from "../../../src/ooxml/zip-write.ts";

/** Compression method of each entry, from the central directory (offset 10 of each record). */
function methods(zip: Uint8Array): Map<string, number> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const out = new Map<string, number>();
  for (let at = 0; at + 46 <= zip.byteLength; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(at + 28, true);
    out.set(new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength)), view.getUint16(at + 10, true));
  }
  return out;
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return chunks;
}

describe("zipParts", () => {
  const png = Uint8Array.from({ length: 5_000 }, (_, i) => (i * 7919) % 251);
  // ~3 MB of text in 60,000 strings, with multi-byte characters straddling batch boundaries.
  const strings = Array.from({ length: 60_000 }, (_, i) => `<w:p><w:r><w:t>${i} café ✓ 𝄞</w:t></w:r></w:p>`);
  const parts: [string, string | Uint8Array | (string | string[])[]][] = [
    ["[Content_Types].xml", '<?xml version="1.0"?><Types/>'],
    ["word/document.xml", ["<w:document><w:body>", strings, "</w:body></w:document>"]],
    ["word/media/image1.png", png],
    ["word/empty.xml", ""],
    ["word/fonts/font1.odttf", new Uint8Array([1, 2, 3])],
  ];
  const expected = new Map<string, Uint8Array>(
    parts.map(([path, content]) => [
      path,
      content instanceof Uint8Array ? content : new TextEncoder().encode(typeof content === "string" ? content : content.flat().join("")),
    ]),
  );

  it("gives back every part byte for byte, in order, read by fflate and by JSZip with CRCs checked", async () => {
    const zip = await zipParts(parts);
    const byFflate = unzipSync(zip);
    expect(Object.keys(byFflate)).toEqual([...expected.keys()]);
    for (const [path, bytes] of expected) expect(Buffer.from(byFflate[path]!).equals(Buffer.from(bytes)), path).toBe(true);
    const byJszip = await JSZip.loadAsync(zip, { checkCRC32: true });
    for (const [path, bytes] of expected) {
      expect(Buffer.from(await byJszip.file(path)!.async("uint8array")).equals(Buffer.from(bytes)), path).toBe(true);
    }
  });

  it("writes a part deflated in segments as one stream: strings larger than a segment, multi-byte text at every boundary", async () => {
    // Segments are 256 KB of UTF-8, deflated apart and concatenated: a 1 MB string is a segment of
    // its own, the strings around it fill segments that end wherever their characters fall.
    const huge = "<w:t>".concat("déjà vu ✓ 𝄞 ".repeat(70_000), "</w:t>");
    const around = Array.from({ length: 30_000 }, (_, i) => `<w:r>${i} ${"é".repeat(i % 13)}𝄞</w:r>`);
    const content = [around.slice(0, 12_345), huge, around, "", huge.slice(0, 90_000), around.slice(7)];
    const text = content.flat().join("");
    const zip = await zipParts([["word/document.xml", content]]);
    expect(Buffer.from(unzipSync(zip)["word/document.xml"]!).equals(Buffer.from(text, "utf8"))).toBe(true);
    const byJszip = await JSZip.loadAsync(zip, { checkCRC32: true });
    expect(await byJszip.file("word/document.xml")!.async("string")).toBe(text);
    // Node's own inflate reads the entry's data as one raw deflate stream, to its final block.
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    const start = 30 + view.getUint16(26, true) + view.getUint16(28, true);
    expect(inflateRawSync(zip.subarray(start)).toString("utf8")).toBe(text);
  });

  it("stores images and deflates the rest, and the streamed part is much smaller than its text", async () => {
    const zip = await zipParts(parts);
    const found = methods(zip);
    expect(found.get("word/media/image1.png")).toBe(0);
    expect(found.get("word/document.xml")).toBe(8);
    expect(found.get("word/fonts/font1.odttf")).toBe(8);
    expect(zip.byteLength).toBeLessThan(expected.get("word/document.xml")!.byteLength / 5);
  });

  it("deflates at the level asked (the .xlsx writer's 2), the same parts coming back", async () => {
    const rows = () =>
      Array.from({ length: 20_000 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${(i * 7919) % 10_007}</v></c></row>`);
    const parts = (): [string, PartContent][] => [["xl/worksheets/sheet1.xml", rows()]];
    const fast = await zipParts(parts(), { level: 1 });
    const small = await zipParts(parts(), { level: 9 });
    expect(fast.byteLength).toBeGreaterThan(small.byteLength);
    expect(unzipSync(fast)).toEqual(unzipSync(small));
  });

  it("returns a buffer of its own, safe to transfer to another thread", async () => {
    const zip = await zipParts(parts);
    expect(zip.byteOffset).toBe(0);
    expect(zip.buffer.byteLength).toBe(zip.byteLength);
  });

  it("is a function of its parts: zipped at different times, the same bytes", async () => {
    // fflate stamps an entry with the current time unless told otherwise (this test's neighbour
    // once failed when its two zips straddled a two-second DOS time step).
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(new Date(2026, 0, 1, 9, 0, 0));
      const first = await zipParts(parts);
      vi.setSystemTime(new Date(2027, 5, 30, 17, 45, 3));
      const second = await zipParts(parts);
      expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("streams the same bytes as a web stream, a lazy part iterated once", async () => {
    let iterations = 0;
    function* lazy() {
      iterations++;
      yield* strings;
    }
    const lazyParts = parts.map(([path, content]): [string, PartContent] =>
      path === "word/document.xml" ? [path, ["<w:document><w:body>", ...lazy(), "</w:body></w:document>"]] : [path, content],
    );
    const streamed = Buffer.concat(await readAll(zipStream(lazyParts)));
    expect(iterations).toBe(1);
    expect(streamed.equals(Buffer.from(await zipParts(parts)))).toBe(true);
  });

  it("waits for its reader, and stops writing when the reader cancels", async () => {
    let produced = 0;
    function* endless() {
      for (;;) {
        produced++;
        yield `<row>${produced} ${"x".repeat(produced % 97)}</row>`;
      }
    }
    const stream = zipStream([["xl/worksheets/sheet1.xml", endless()]], { highWaterMark: 64 * 1024 });
    const reader = stream.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const whileUnread = produced;
    // Deflate shrinks this text ~50×: a 64 KB buffer holds a few MB of text, far from endless.
    expect(whileUnread).toBeGreaterThan(0);
    expect(whileUnread).toBeLessThan(500_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(produced).toBe(whileUnread);
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const afterCancel = produced;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(produced).toBe(afterCancel);
  });

  it("errors the stream when a part's content throws", async () => {
    function* failing(): Generator<string> {
      yield "<a>";
      throw new Error("the model went away");
    }
    const stream = zipStream([
      ["a.xml", "<a/>"],
      ["b.xml", failing()],
    ]);
    await expect(readAll(stream)).rejects.toThrow("the model went away");
  });
});
