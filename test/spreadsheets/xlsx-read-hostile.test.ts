// .xlsx uploads the reader refuses, each with its typed error: 415 (UnsupportedPackage, with its
// reason) for what is not a workbook we import, 413 (PackageTooLarge, naming the limit) past a limit.
import { strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { PackageTooLarge, UnsupportedPackage } from "../../src/ooxml/index.ts";
import { readXlsx, type ReadXlsxOptions } from "../../src/spreadsheets/io/xlsx/read.ts";
import { lieAboutSizes, renderedDocx, zeroBomb } from "../documents/import/docx-fixtures.ts";
import { buildXlsx, sheetXml } from "./xlsx-fixtures.ts";

function refusal(bytes: Uint8Array, options?: ReadXlsxOptions): UnsupportedPackage | PackageTooLarge {
  try {
    const workbook = readXlsx(bytes, options);
    for (const sheet of workbook.sheets) for (const _row of sheet.rows());
  } catch (error) {
    if (error instanceof UnsupportedPackage || error instanceof PackageTooLarge) return error;
    throw error;
  }
  throw new Error("not refused");
}

const one = (data = `<row r="1"><c r="A1"><v>1</v></c></row>`) => ({ sheets: [{ name: "S", data }] });

describe("readXlsx refuses", () => {
  it("an encrypted workbook (an OLE compound file) → 415 encrypted", () => {
    const cfb = new Uint8Array(4096);
    cfb.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const error = refusal(cfb);
    expect(error).toBeInstanceOf(UnsupportedPackage);
    expect({ code: error.code, reason: (error as UnsupportedPackage).reason }).toEqual({
      code: "UNSUPPORTED_MEDIA_TYPE",
      reason: "encrypted",
    });
  });

  it("bytes that are not a zip → 415 not-zip; a zip with no workbook (a .docx) → 415 not-package", async () => {
    expect((refusal(strToU8("a,b\n1,2\n")) as UnsupportedPackage).reason).toBe("not-zip");
    const docx = refusal(await renderedDocx());
    expect({ reason: (docx as UnsupportedPackage).reason, message: docx.message }).toEqual({
      reason: "not-package",
      message: expect.stringMatching(/not a workbook/),
    });
    expect((refusal(zipSync({ "a.txt": strToU8("x") })) as UnsupportedPackage).reason).toBe("not-package");
  });

  it("macros: an .xlsm with xl/vbaProject.bin, a macro-enabled type, a VBA part under another name → 415 macros", () => {
    const vba = buildXlsx({ ...one(), extra: { "xl/vbaProject.bin": new Uint8Array([1, 2, 3]) } });
    expect((refusal(vba) as UnsupportedPackage).reason).toBe("macros");
    const xlsm = buildXlsx({ ...one(), workbookType: "application/vnd.ms-excel.sheet.macroEnabled.main+xml" });
    expect((refusal(xlsm) as UnsupportedPackage).reason).toBe("macros");
    const renamed = buildXlsx({ ...one(), extra: { "xl/code.bin": new Uint8Array([1]) } });
    expect((refusal(renamed) as UnsupportedPackage).reason).toBe("macros");
  });

  it("a binary workbook (.xlsb) → 415", () => {
    const xlsb = buildXlsx({ ...one(), workbookType: "application/vnd.ms-excel.sheet.binary.macroEnabled.main" });
    expect(refusal(xlsb).message).toMatch(/binary workbook/);
  });

  it("a DTD in a sheet, the workbook or the shared strings → 415 hostile, before any entity is read", () => {
    const dtd = `<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY x SYSTEM "file:///etc/passwd">]>`;
    const sheet = buildXlsx({
      sheets: [
        { name: "S", data: sheetXml(`<row r="1"><c r="A1" t="inlineStr"><is><t>&x;</t></is></c></row>`).replace(/^<\?xml[^>]*>/, dtd) },
      ],
    });
    expect((refusal(sheet) as UnsupportedPackage).reason).toBe("hostile");
    const strings = buildXlsx({ ...one(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`), sharedStrings: ["<t>x</t>"] });
    const withDtd = zipSync({
      ...unzipAll(strings),
      "xl/sharedStrings.xml": strToU8(`${dtd}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>`),
    });
    expect(refusal(withDtd).message).toMatch(/sharedStrings\.xml contains a DTD/);
  });

  it("a zip bomb → 413, in a sheet or as a bare zip, whatever sizes it declares", () => {
    const limit = 200 * 1024 * 1024;
    // Declared honestly: the bound on what is inflated.
    expect(refusal(zeroBomb(limit + 1024 * 1024)).details).toEqual({ limit });
    // Declaring 100 bytes: stopped 100 bytes in, where it crosses what it declares.
    const lie = refusal(lieAboutSizes(zeroBomb(limit + 1024 * 1024), 100));
    expect({ details: lie.details, message: lie.message }).toEqual({
      details: { reason: "declared_size", limit: 100 },
      message: "The .xlsx's zip entry word/document.xml inflates past the 100 bytes its zip directory declares",
    });
    const entries = unzipAll(buildXlsx(one()));
    entries["xl/worksheets/sheet1.xml"] = strToU8(sheetXml(" ".repeat(8 * 1024 * 1024)));
    expect(refusal(lieAboutSizes(zipSync(entries), 100)).details).toEqual({ reason: "declared_size", limit: 100 });
    const error = refusal(zipSync(entries), { limits: { xmlBytes: 4 * 1024 * 1024 } });
    expect({ code: error.code, details: error.details }).toEqual({
      code: "PAYLOAD_TOO_LARGE",
      details: { reason: "xml_bytes", limit: 4 * 1024 * 1024 },
    });
  }, 60_000);

  it("more than 10,000 entries → 413", () => {
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i <= 10_000; i++) files[`xl/media/${i}.bin`] = new Uint8Array(0);
    expect(refusal(zipSync(files)).details).toEqual({ limit: 10_000 });
  });

  it("past the workbook's limits → 413 naming it: cells, a cell's text, sheets", () => {
    const rows = `<row r="1"><c r="A1"><v>1</v></c><c r="B1"><v>2</v></c><c r="C1"><v>3</v></c></row>`;
    expect(refusal(buildXlsx(one(rows)), { limits: { cells: 2 } }).details).toEqual({ reason: "cells", limit: 2 });
    const long = buildXlsx(one(`<row r="1"><c r="A1" t="inlineStr"><is><t>${"x".repeat(32_768)}</t></is></c></row>`));
    expect(refusal(long).details).toEqual({ reason: "cell_text", limit: 32_767 });
    const longShared = buildXlsx({
      ...one(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`),
      sharedStrings: [`<t>${"y".repeat(32_768)}</t>`],
    });
    expect(refusal(longShared).details).toEqual({ reason: "cell_text", limit: 32_767 });
    const many = buildXlsx({ sheets: Array.from({ length: 201 }, (_, i) => ({ name: `S${i}`, data: "" })) });
    expect(refusal(many).details).toEqual({ reason: "sheets", limit: 200 });
  });

  it("malformed cells → 415: an address past XFD1048576, a number that is not one, a missing shared string", () => {
    expect(refusal(buildXlsx(one(`<row r="1"><c r="XFE1"><v>1</v></c></row>`))).message).toMatch(/not a cell address/);
    expect(refusal(buildXlsx(one(`<row r="1"><c r="A1"><v>12abc</v></c></row>`))).message).toMatch(/not a number/);
    expect(refusal(buildXlsx(one(`<row r="1"><c r="A1" t="s"><v>5</v></c></row>`))).message).toMatch(/shared string/);
  });
});

const unzipAll = (zip: Uint8Array): Record<string, Uint8Array> => ({ ...unzipSync(zip) });
