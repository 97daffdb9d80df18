// .xlsx files written by real programs, read back: LibreOffice (from a flat ODS written here, and
// from a CSV), openpyxl (installed into a temporary folder with pip; skipped with a message when
// PyPI cannot be reached) and ExcelJS (installed into a temporary folder with npm, not a
// dependency; skipped with a message when the registry cannot be reached). Without soffice the
// LibreOffice tests are skipped, except under CI=true (test/helpers/external.ts).
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkbookData } from "../../src/spreadsheets/cells/types.ts";
import { readXlsx } from "../../src/spreadsheets/io/xlsx/read.ts";
import { requireProgram } from "../helpers/external.ts";
import { cellsOf } from "./xlsx-fixtures.ts";

const run = promisify(execFile);
const soffice = requireProgram("soffice", {
  envVar: "SOFFICE_PATH",
  install: "apt-get install -y libreoffice-calc",
  purpose: "reading .xlsx files written by LibreOffice (test/spreadsheets/xlsx-read-writers.test.ts)",
});

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "wg-xlsx-writers-"));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const FODS = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:automatic-styles>
<number:date-style style:name="N1"><number:year number:style="long"/><number:text>-</number:text><number:month number:style="long"/><number:text>-</number:text><number:day number:style="long"/></number:date-style>
<style:style style:name="ce1" style:family="table-cell" style:data-style-name="N1"/>
<style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>
<style:style style:name="ta1" style:family="table"><style:table-properties table:display="true"/></style:style>
<style:style style:name="ta2" style:family="table"><style:table-properties table:display="false"/></style:style>
</office:automatic-styles>
<office:body><office:spreadsheet>
<table:table table:name="Data" table:style-name="ta1">
<table:table-row><table:table-cell office:value-type="string"><text:p>Name</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Amount</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Due</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Double</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell office:value-type="string"><text:p>Alpha &amp; co</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="1.5"/><table:table-cell table:style-name="ce1" office:value-type="date" office:date-value="2024-02-29"/><table:table-cell table:formula="of:=[.B2]*2" office:value-type="float" office:value="3"/></table:table-row>
<table:table-row><table:table-cell office:value-type="string"><text:p>a <text:span text:style-name="T1">bold</text:span> word</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="-2"/><table:table-cell/><table:table-cell table:formula="of:=[.B3]*2" office:value-type="float" office:value="-4"/></table:table-row>
</table:table>
<table:table table:name="Hidden sheet" table:style-name="ta2"><table:table-row><table:table-cell office:value-type="string"><text:p>secret</text:p></table:table-cell></table:table-row></table:table>
</office:spreadsheet></office:body></office:document>`;

async function convert(file: string): Promise<WorkbookData> {
  const profile = pathToFileURL(join(dir, "profile")).href;
  await run(soffice!, [`-env:UserInstallation=${profile}`, "--headless", "--convert-to", "xlsx", "--outdir", dir, file], {
    timeout: 120_000,
  });
  return readXlsx(new Uint8Array(await readFile(file.replace(/\.[a-z]+$/, ".xlsx"))));
}

describe.skipIf(!soffice)(".xlsx written by LibreOffice", () => {
  it("from a flat ODS: sheets in order (the hidden one too), strings, rich text, numbers, a date, formulas with their values", async () => {
    await writeFile(join(dir, "book.fods"), FODS);
    const workbook = await convert(join(dir, "book.fods"));
    expect(workbook.sheets.map((s) => s.name)).toEqual(["Data", "Hidden sheet"]);
    const cells = cellsOf(workbook.sheets[0]!);
    expect(cells["A2"]).toEqual({ value: "Alpha & co" });
    expect(cells["A3"]).toEqual({ value: "a bold word" });
    expect(cells["B2"]).toEqual({ value: 1.5 });
    expect(cells["C2"]!.value).toBe(45351);
    expect(cells["C2"]!.numFmt).toMatch(/y+.*m+.*d+/i);
    // LibreOffice writes no dynamic-array flag: its formulas read as saved without dynamic arrays.
    expect(cells["D2"]).toEqual({ value: 3, formula: "B2*2", legacy: true });
    expect(cells["D3"]).toEqual({ value: -4, formula: "B3*2", legacy: true });
    expect(cells["C3"]).toBeUndefined();
    expect(cellsOf(workbook.sheets[1]!)).toEqual({ A1: { value: "secret" } });
  }, 150_000);

  it("from a CSV: a line break inside quotes, numbers as numbers", async () => {
    await writeFile(join(dir, "table.csv"), 'name,amount\n"multi\nline",12.5\nplain,7\n');
    const cells = cellsOf((await convert(join(dir, "table.csv"))).sheets[0]!);
    expect(cells).toEqual({
      A1: { value: "name" },
      B1: { value: "amount" },
      A2: { value: "multi\nline" },
      B2: { value: 12.5 },
      A3: { value: "plain" },
      B3: { value: 7 },
    });
  }, 150_000);
});

/** Installs Python packages into a folder of their own; undefined (and a message) when pip cannot. */
async function pipInstall(target: string, packages: string[]): Promise<boolean> {
  try {
    await run("python3", ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--target", target, ...packages], {
      timeout: 120_000,
    });
    return true;
  } catch (error) {
    console.warn(`skipped: .xlsx written by openpyxl — pip could not install ${packages.join(", ")} (${String(error).split("\n")[0]})`);
    return false;
  }
}

const OPENPYXL = `
import datetime, sys
from openpyxl import Workbook
from openpyxl.utils.datetime import CALENDAR_MAC_1904
from openpyxl.worksheet.formula import ArrayFormula
wb = Workbook()
ws = wb.active
ws.title = "First"
ws.append(["text", 1, 2.5, True, datetime.datetime(2024, 2, 29, 12, 0), "=SUM(B1:C1)"])
ws["A2"] = "00123"
ws["B2"] = ArrayFormula("B2:B3", "=B1:C1*2")
hidden = wb.create_sheet("Hidden")
hidden.sheet_state = "hidden"
hidden["A1"] = "h"
wb.save(sys.argv[1])
mac = Workbook()
mac.epoch = CALENDAR_MAC_1904
mac.active["A1"] = datetime.date(2024, 2, 29)
mac.save(sys.argv[2])
`;

describe(".xlsx written by openpyxl", () => {
  it("strings, numbers, booleans, a date-time, formulas without cached values, an array formula, a hidden sheet; a 1904 workbook's date", async (context) => {
    const site = join(dir, "py");
    if (!(await pipInstall(site, ["openpyxl"]))) return context.skip();
    await writeFile(join(dir, "make.py"), OPENPYXL);
    await run("python3", [join(dir, "make.py"), join(dir, "py.xlsx"), join(dir, "mac.xlsx")], {
      env: { ...process.env, PYTHONPATH: site },
      timeout: 60_000,
    });
    const workbook = readXlsx(new Uint8Array(await readFile(join(dir, "py.xlsx"))));
    expect(workbook.sheets.map((s) => s.name)).toEqual(["First", "Hidden"]);
    const cells = cellsOf(workbook.sheets[0]!);
    expect([cells["A1"], cells["B1"], cells["C1"], cells["D1"]]).toEqual([
      { value: "text" },
      { value: 1 },
      { value: 2.5 },
      { value: true },
    ]);
    expect(cells["E1"]!.value).toBe(45351.5);
    expect(cells["E1"]!.numFmt).toMatch(/yyyy-mm-dd/);
    expect(cells["F1"]).toEqual({ value: null, formula: "SUM(B1:C1)", legacy: true });
    expect(cells["A2"]).toEqual({ value: "00123" });
    expect(cells["B2"]).toEqual({ value: null, formula: "B1:C1*2", array: { ref: "B2:B3", dynamic: false } });
    expect(cellsOf(workbook.sheets[1]!)).toEqual({ A1: { value: "h" } });
    // openpyxl writes 2024-02-29 in a 1904 workbook as 1904-system serial 43889: the same day in the 1900 system is 45351.
    const mac = cellsOf(readXlsx(new Uint8Array(await readFile(join(dir, "mac.xlsx")))).sheets[0]!);
    expect(mac["A1"]!.value).toBe(45351);
  }, 180_000);
});

const EXCELJS = `
const ExcelJS = require("exceljs");
const workbook = new ExcelJS.Workbook();
const sheet = workbook.addWorksheet("Sales");
sheet.getCell("A1").value = 1;
sheet.getCell("A2").value = 2;
sheet.getCell("A3").value = 3;
sheet.getCell("B1").value = { formula: "A1*10", result: 10, shareType: "shared", ref: "B1:B3" };
sheet.getCell("B2").value = { sharedFormula: "B1", result: 20 };
sheet.getCell("B3").value = { sharedFormula: "B1", result: 30 };
sheet.getCell("C1").value = { richText: [{ text: "rich " }, { font: { bold: true }, text: "text" }] };
sheet.getCell("D1").value = new Date(Date.UTC(2024, 1, 29));
workbook.xlsx.writeFile(process.argv[2]);
`;

describe(".xlsx written by ExcelJS", () => {
  it("shared formulas expanded per cell, rich text, a date", async (context) => {
    const prefix = join(dir, "js");
    try {
      await run("npm", ["install", "--silent", "--no-audit", "--no-fund", "--prefix", prefix, "exceljs@4"], { timeout: 180_000 });
    } catch (error) {
      console.warn(
        `skipped: .xlsx written by ExcelJS — npm could not install exceljs into a temporary folder (${String(error).split("\n")[0]})`,
      );
      return context.skip();
    }
    await writeFile(join(prefix, "make.cjs"), EXCELJS);
    await run("node", [join(prefix, "make.cjs"), join(dir, "js.xlsx")], { timeout: 60_000 });
    const cells = cellsOf(readXlsx(new Uint8Array(await readFile(join(dir, "js.xlsx")))).sheets[0]!);
    expect([cells["B1"], cells["B2"], cells["B3"]]).toEqual([
      { value: 10, formula: "A1*10", legacy: true },
      { value: 20, formula: "A2*10", legacy: true },
      { value: 30, formula: "A3*10", legacy: true },
    ]);
    expect(cells["C1"]).toEqual({ value: "rich text" });
    expect(cells["D1"]!.value).toBe(45351);
  }, 240_000);
});
