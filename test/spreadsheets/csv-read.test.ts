// The .csv reader: delimiters sniffed, BOMs, RFC 4180 quoting with line breaks in quotes, raw
// strings per cell (leading zeros and formulas kept as text for the engine to judge), limits.
import { describe, expect, it } from "vitest";
import { PackageTooLarge } from "../../src/ooxml/index.ts";
import { readCsv, sniffDelimiter } from "../../src/spreadsheets/io/csv-read.ts";

const rowsOf = (input: Uint8Array | string, options?: Parameters<typeof readCsv>[1]) => [...readCsv(input, options).sheets[0]!.rows()];
const utf8 = (text: string) => new Uint8Array(Buffer.from(text, "utf8"));

describe("readCsv", () => {
  it("comma-separated, RFC 4180: quotes, doubled quotes, delimiters and line breaks inside quotes, CRLF", () => {
    expect(rowsOf(utf8('name,note,amount\r\n"Smith, Jo","said ""hi""\r\nthen left",00123\r\nplain,=1+2,\r\n'))).toEqual([
      [0, [{ value: "name" }, { value: "note" }, { value: "amount" }]],
      [1, [{ value: "Smith, Jo" }, { value: 'said "hi"\r\nthen left' }, { value: "00123" }]],
      [2, [{ value: "plain" }, { value: "=1+2" }]],
    ]);
  });

  it("semicolons and tabs are sniffed; a comma inside a semicolon file's numbers does not fool it", () => {
    expect(sniffDelimiter("a;b;c\n1,5;2,5;3\n4;5;6\n")).toBe(";");
    expect(sniffDelimiter("a\tb\n1,2\t3\n")).toBe("\t");
    expect(sniffDelimiter("a,b\n1,2\n")).toBe(",");
    expect(sniffDelimiter("just one column\nsecond\n")).toBe(",");
    expect(rowsOf(utf8("x;y\n1,5;2\n"))).toEqual([
      [0, [{ value: "x" }, { value: "y" }]],
      [1, [{ value: "1,5" }, { value: "2" }]],
    ]);
  });

  it("a UTF-8 BOM is dropped; UTF-16 with a BOM is read; bytes that are not UTF-8 are read as Windows-1252", () => {
    expect(rowsOf(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8("é,ü\n")]))).toEqual([[0, [{ value: "é" }, { value: "ü" }]]]);
    expect(rowsOf(new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("a\tb\n", "utf16le")])))).toEqual([
      [0, [{ value: "a" }, { value: "b" }]],
    ]);
    expect(rowsOf(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x2c, 0x80, 0x0a]))).toEqual([[0, [{ value: "café" }, { value: "€" }]]]);
  });

  it("empty fields are empty cells; blank lines keep their row numbers and are left out; no trailing newline needed", () => {
    expect(rowsOf("a,,c\n\n,,\nd")).toEqual([
      [0, [{ value: "a" }, undefined, { value: "c" }]],
      [3, [{ value: "d" }]],
    ]);
  });

  it("past its limits → 413: cells, a field's length", () => {
    const cells = (() => {
      try {
        readCsv("a,b,c\n", { maxCells: 2 });
      } catch (error) {
        return error;
      }
    })();
    expect(cells).toBeInstanceOf(PackageTooLarge);
    expect((cells as PackageTooLarge).details).toEqual({ reason: "cells", limit: 2 });
    expect(() => readCsv(`"${"x".repeat(32_768)}"\n`)).toThrow(/over 32767 characters/);
  });

  it("100,000 rows × 10 columns come back cell for cell", () => {
    const lines: string[] = [];
    for (let r = 0; r < 100_000; r++)
      lines.push(Array.from({ length: 10 }, (_, c) => (c === 0 ? `"r${r}, q"` : `${r * 10 + c}`)).join(","));
    let count = 0;
    let last: unknown;
    for (const row of readCsv(utf8(lines.join("\n"))).sheets[0]!.rows()) {
      count += row[1].length;
      last = row;
    }
    expect(count).toBe(1_000_000);
    expect(last).toEqual([99_999, [{ value: "r99999, q" }, ...Array.from({ length: 9 }, (_, c) => ({ value: String(999_990 + c + 1) }))]]);
  }, 60_000);
});
