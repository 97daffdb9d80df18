// The CSV writer: RFC 4180 quoting and CRLF, values as render=value shows them, formula-injection
// prefixes on text (never on numbers), a whole sheet from A1 with its places kept, and the UTF-8
// stream with or without a byte-order mark.
import { describe, expect, it } from "vitest";
import { csvField, csvLines, sheetCsv, type ShowCell } from "../../src/spreadsheets/io/csv-write.ts";
import { joinText, textStream } from "../../src/spreadsheets/io/text-stream.ts";
import type { CellValue, SheetRow } from "../../src/spreadsheets/cells/types.ts";
import { parseCsv } from "./csv-parse.ts";

/** A stand-in for the model's render=value: date-formatted serials as ISO dates (1900 system, from 1900-03-01). */
const show: ShowCell = (cell) =>
  typeof cell.value === "number" && cell.numFmt === "yyyy-mm-dd"
    ? new Date(Date.UTC(1899, 11, 30) + cell.value * 86_400_000).toISOString().slice(0, 10)
    : cell.value;

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return Buffer.concat(chunks);
}

describe("csvField", () => {
  it("writes numbers as numbers, booleans and errors as Excel shows them, empty as nothing", () => {
    const cases: [CellValue | undefined, string][] = [
      [-5, "-5"],
      [-0, "0"],
      [0.1 + 0.2, "0.30000000000000004"],
      [1e21, "1E+21"],
      [-1.5e-300, "-1.5E-300"],
      [NaN, "#NUM!"],
      [Infinity, "#NUM!"],
      [true, "TRUE"],
      [false, "FALSE"],
      [{ error: "#DIV/0!" }, "#DIV/0!"],
      [null, ""],
      [undefined, ""],
      ["", ""],
    ];
    for (const [value, field] of cases) expect(csvField(value), String(value)).toBe(field);
  });

  it("quotes a field holding a comma, a quote or a line break, doubling quotes", () => {
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("line 1\nline 2")).toBe('"line 1\nline 2"');
    expect(csvField("a\r\nb")).toBe('"a\r\nb"');
    expect(csvField("plain text; with semicolons")).toBe("plain text; with semicolons");
    expect(csvField("  spaced  ")).toBe("  spaced  ");
    expect(csvField("été 📈")).toBe("été 📈");
  });

  it("prefixes text beginning with = + - @, tab or CR with an apostrophe; never a number", () => {
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvField("+44 20 7946 0958")).toBe("'+44 20 7946 0958");
    expect(csvField("-5")).toBe("'-5");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\t=1")).toBe("'\t=1");
    expect(csvField("\r=1")).toBe(`"'\r=1"`);
    expect(csvField("=cmd|' /C calc'!A0,")).toBe(`"'=cmd|' /C calc'!A0,"`);
    expect(csvField("a=1")).toBe("a=1");
    expect(csvField("#N/A text")).toBe("#N/A text");
    expect(csvField(-5)).toBe("-5");
  });
});

describe("csvLines", () => {
  it("ends every line in CRLF and pads rows to the width", () => {
    const text = joinText(csvLines([["a", 1], ["b"], [], [null, null, true]], 2));
    expect(text).toBe("a,1\r\nb,\r\n,\r\n,,TRUE\r\n");
    expect(parseCsv(text)).toEqual([
      ["a", "1"],
      ["b", ""],
      ["", ""],
      ["", "", "TRUE"],
    ]);
  });
});

describe("sheetCsv", () => {
  it("writes the sheet from A1, empty rows and columns kept, every line as wide as the widest", () => {
    const rows: SheetRow[] = [
      [1, [undefined, { value: "name" }, { value: "when" }, { value: "total" }]],
      [2, [undefined, { value: 'Zoë, "Z"' }, { value: 46053, numFmt: "yyyy-mm-dd" }, { value: 12.5, formula: "C3*2" }]],
      [4, [undefined, { value: "=2+2" }, { value: null, numFmt: "yyyy-mm-dd" }, { value: { error: "#DIV/0!" }, formula: "1/0" }]],
      [5, [{ value: null }, undefined, undefined, { value: null }]],
    ];
    const text = joinText(sheetCsv({ name: "S", rows: () => rows }, show));
    expect(text).toBe(',,,\r\n,name,when,total\r\n,"Zoë, ""Z""",2026-01-31,12.5\r\n,,,\r\n,\'=2+2,,#DIV/0!\r\n');
    expect(parseCsv(text)).toEqual([
      ["", "", "", ""],
      ["", "name", "when", "total"],
      ["", 'Zoë, "Z"', "2026-01-31", "12.5"],
      ["", "", "", ""],
      ["", "'=2+2", "", "#DIV/0!"],
    ]);
  });

  it("writes nothing for an empty sheet, or one of empty cells only", () => {
    expect(joinText(sheetCsv({ name: "E", rows: () => [] }, show))).toBe("");
    expect(joinText(sheetCsv({ name: "E", rows: () => [[3, [{ value: null, numFmt: "0.00" }]]] }, show))).toBe("");
  });

  it("keeps a 32,767-character cell and control characters whole", () => {
    const long = "x".repeat(32_766) + ",";
    const text = joinText(sheetCsv({ name: "L", rows: () => [[0, [{ value: long }, { value: "a\u0007b" }]]] }, show));
    expect(parseCsv(text)).toEqual([[long, "a\u0007b"]]);
  });
});

describe("textStream", () => {
  it("encodes UTF-8, with a byte-order mark when asked, the same text as joined", async () => {
    const lines = () => csvLines(Array.from({ length: 20_000 }, (_, i) => [`naïve ${i} 𝄞`, i, i % 3 === 0]));
    const plain = await bytesOf(textStream(lines()));
    expect(plain.toString("utf8")).toBe(joinText(lines()));
    expect([...plain.subarray(0, 3)]).not.toEqual([0xef, 0xbb, 0xbf]);
    const marked = await bytesOf(textStream(lines(), { bom: true }));
    expect([...marked.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(marked.subarray(3).equals(plain)).toBe(true);
    expect(new TextDecoder().decode(marked)).toBe(joinText(lines()));
  });

  it("produces only as the reader reads, and stops the producer when the reader cancels", async () => {
    let produced = 0;
    let closed = false;
    function* endless(): Generator<string> {
      try {
        for (;;) {
          produced++;
          yield `${produced},row\r\n`;
        }
      } finally {
        closed = true;
      }
    }
    const reader = textStream(endless()).getReader();
    await reader.read();
    const afterOne = produced;
    expect(afterOne).toBeLessThan(30_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(produced).toBeLessThan(3 * afterOne);
    await reader.cancel();
    expect(closed).toBe(true);
  });

  it("errors the stream when the producer throws", async () => {
    function* failing(): Generator<string> {
      yield "a\r\n";
      throw new Error("the model went away");
    }
    await expect(bytesOf(textStream(failing()))).rejects.toThrow("the model went away");
  });
});
