// A real office suite opens what the .xlsx writer writes: LibreOffice (Debian's
// libreoffice-calc-nogui, which .ci/run installs) converts each written workbook to CSV, one file
// a sheet, and gives back the values; it also saves it as .xlsx again, and that copy converts to
// the same CSV. The shared-strings table is capped low, so that its sheets mix shared and inline
// texts as a large workbook's do. Without soffice the file is skipped (one line says so), except under CI=true
// where that is a failure (test/helpers/external.ts).
import { execFile } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Workbook } from "../../src/spreadsheets/workbook/workbook.ts";
import type { SheetData, SheetRow } from "../../src/spreadsheets/cells/types.ts";
import { writeXlsx } from "../../src/spreadsheets/io/xlsx/write.ts";
import { requireProgram } from "../helpers/external.ts";
import { parseCsv } from "./csv-parse.ts";

const run = promisify(execFile);
const soffice = requireProgram("soffice", {
  envVar: "SOFFICE_PATH",
  install: "apt-get install -y libreoffice-calc-nogui",
  purpose: "the LibreOffice .xlsx test (test/spreadsheets/xlsx-libreoffice.test.ts)",
});
// Comma, double quote, UTF-8, every sheet to its own file (token 12 = -1), values as shown.
const CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1";

const main: SheetRow[] = [
  [0, [{ value: "text" }, { value: "number" }, { value: "date" }, { value: "formula" }, { value: "bool" }, { value: "error" }]],
  [
    1,
    [
      { value: 'comma, "quote"' },
      { value: 1 / 3 },
      { value: 46053, numFmt: "yyyy-mm-dd" },
      { value: 0.5, formula: "B2*1.5" },
      { value: true },
      { value: { error: "#N/A" } },
    ],
  ],
  [
    2,
    [
      { value: "_x0041_ é 📈 a\u0007b" },
      { value: -12.5 },
      { value: 61, numFmt: "yyyy-mm-dd" },
      { value: "x<y", formula: '"x<y"' },
      { value: false },
      { value: { error: "#DIV/0!" }, formula: "1/0" },
    ],
  ],
  [
    3,
    [
      { value: "=not a formula" },
      { value: 1e300 },
      { value: 46053.5, numFmt: "yyyy-mm-dd hh:mm:ss" },
      { value: true, formula: "B3<0" },
      { value: null, numFmt: "0.00" },
      { value: { error: "#VALUE!" } },
    ],
  ],
  [4, [{ value: "line 1\nline 2" }, { value: 123456789012345 }, { value: 1, numFmt: "yyyy-mm-dd" }, { value: 3, formula: "SUM(B2:B2)*9" }]],
  [5, [{ value: "  padded  " }, { value: -0 }, { value: 60, numFmt: "yyyy-mm-dd" }]],
];
/** What LibreOffice shows for `main`; numbers are compared as numbers (it shows 15 significant digits). */
const mainShown: (string | number)[][] = [
  ["text", "number", "date", "formula", "bool", "error"],
  ['comma, "quote"', 1 / 3, "2026-01-31", 0.5, "TRUE", "#N/A"],
  ["_x0041_ é 📈 ab", -12.5, "1900-03-01", "x<y", "FALSE", "#DIV/0!"],
  ["=not a formula", 1e300, "2026-01-31 12:00:00", "TRUE", "", "#VALUE!"],
  // Serials before 61 (1900-03-01) are Excel's, counting its 1900-02-29: LibreOffice, which has
  // no such day, shows them one day earlier (serial 1 is Excel's 1900-01-01).
  ["line 1\nline 2", 123456789012345, "1899-12-31", 3, "", ""],
  ["  padded  ", 0, "1900-02-28", "", "", ""],
];
const big = function* (): Generator<SheetRow> {
  for (let r = 0; r < 5_000; r++) yield [r, [{ value: r }, { value: `row ${r % 37}` }, { value: r * 2, formula: `A${r + 1}*2` }]];
};
const sheets: SheetData[] = [
  { name: "Main", rows: () => main },
  { name: "O'Brien & Co “ü” _x0041_", rows: () => [[0, [{ value: "x" }]]] },
  { name: "Empty", rows: () => [] },
  { name: "Big", rows: big },
];
const sheetFile = (name: string) => `book-${name}.csv`;

function expectShown(actual: string[][], expected: (string | number)[][]): void {
  expect(actual.length).toBe(expected.length);
  expected.forEach((row, r) =>
    row.forEach((want, c) => {
      const got = actual[r]![c] ?? "";
      if (typeof want === "number")
        expect(Number(got), `row ${r + 1} column ${c + 1}`).toBeCloseTo(
          want,
          14 - Math.max(0, Math.floor(Math.log10(Math.abs(want) || 1))),
        );
      else expect(got, `row ${r + 1} column ${c + 1}`).toBe(want);
    }),
  );
}

describe.skipIf(!soffice)("LibreOffice opens the written .xlsx", () => {
  let dir = "";
  const csv = new Map<string, string>();
  const again = new Map<string, string>();

  const convert = async (to: string, outdir: string, file: string) => {
    const profile = pathToFileURL(join(dir, "profile")).href;
    await run(soffice!, [`-env:UserInstallation=${profile}`, "--headless", "--convert-to", to, "--outdir", outdir, file], {
      timeout: 180_000,
    });
  };
  const readCsvs = async (from: string, into: Map<string, string>) => {
    for (const file of (await readdir(from)).filter((f) => f.endsWith(".csv"))) into.set(file, await readFile(join(from, file), "utf8"));
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "wg-xlsx-libreoffice-"));
    await writeFile(join(dir, "book.xlsx"), await writeXlsx({ sheets }, { title: "LibreOffice check", sharedStrings: 40 }));
    await convert(CSV_FILTER, join(dir, "csv"), join(dir, "book.xlsx"));
    await readCsvs(join(dir, "csv"), csv);
    await convert("xlsx", join(dir, "resaved"), join(dir, "book.xlsx"));
    await convert(CSV_FILTER, join(dir, "resaved-csv"), join(dir, "resaved", "book.xlsx"));
    await readCsvs(join(dir, "resaved-csv"), again);
  }, 600_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("gives one CSV a sheet, named as the sheets are", () => {
    expect([...csv.keys()].sort()).toEqual(sheets.map((s) => sheetFile(s.name)).sort());
  });

  it("gives back every value: texts, numbers, dates in their format, formulas' values, booleans and errors", () => {
    expectShown(parseCsv(csv.get(sheetFile("Main"))!), mainShown);
    expect(parseCsv(csv.get(sheetFile("O'Brien & Co “ü” _x0041_"))!)).toEqual([["x"]]);
    expect(csv.get(sheetFile("Empty"))!.trim()).toBe("");
  });

  it("reads a streamed 5,000-row sheet whole, its formulas computing what was cached", () => {
    const rows = parseCsv(csv.get(sheetFile("Big"))!);
    expect(rows.length).toBe(5_000);
    for (const r of [0, 1, 2_500, 4_999]) expect(rows[r]).toEqual([String(r), `row ${r % 37}`, String(r * 2)]);
  });

  it("saves it as .xlsx again, and that copy gives the same CSV", () => {
    expect(again).toEqual(csv);
  });
});

/** A model with defined names, a table, a 3-D reference, an array (CSE) formula and a spilling dynamic array. */
function semanticsBook(): Workbook {
  const { workbook } = Workbook.create(
    [
      {
        name: "Data",
        values: [
          ["City", "Pop"],
          ["Oslo", 10],
          ["Bergen", 20],
          ["Tromsø", 30],
        ],
      },
      { name: "Calc", values: [[1, 2, 3]] },
      { name: "Last", values: [[100]] },
    ],
    "raw",
  );
  workbook.defineName({ name: "Rate", formula: "Calc!$C$1" });
  workbook.defineName({ name: "Local", formula: "Calc!$A$1:$C$1", sheet: "Calc" });
  workbook.book.tables.add({
    name: "Cities",
    sid: workbook.book.sheet("Data").sid,
    box: { top: 0, left: 0, bottom: 3, right: 1 },
    header: 1,
    totals: 0,
    columns: ["City", "Pop"],
    style: { name: "TableStyleMedium2", firstColumn: false, lastColumn: false, rowStripes: true, columnStripes: false },
    autoFilter: true,
    totalsRow: [null, null],
  });
  workbook.write("Calc!A3:E3", [["=SUM(Cities[Pop])*Rate", "=SUM(Local)", "=SUM(Data:Last!B2)", "=COUNTA(Cities[City])", "=A1:C1*10"]]);
  return workbook;
}

describe.skipIf(!soffice)("LibreOffice computes what names, tables, 3-D references and array formulas in the written .xlsx mean", () => {
  it("gives the engine's values with every cached value removed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "wg-xlsx-semantics-"));
    try {
      const workbook = semanticsBook();
      const xlsx = unzipSync(await writeXlsx(workbook.toData({ xlsx: true }), { title: "semantics" }));
      for (const name of Object.keys(xlsx).filter((n) => /^xl\/worksheets\/sheet\d+\.xml$/.test(n)))
        xlsx[name] = strToU8(strFromU8(xlsx[name]!).replace(/(<f(?:\s[^>]*)?>[^<]*<\/f>)<v>[^<]*<\/v>/g, "$1"));
      await writeFile(join(dir, "sem.xlsx"), zipSync(xlsx));
      const profile = pathToFileURL(join(dir, "profile")).href;
      await run(
        soffice!,
        [`-env:UserInstallation=${profile}`, "--headless", "--convert-to", CSV_FILTER, "--outdir", join(dir, "csv"), join(dir, "sem.xlsx")],
        {
          timeout: 180_000,
        },
      );
      const calc = parseCsv(await readFile(join(dir, "csv", "sem-Calc.csv"), "utf8"));
      const engine = workbook.read("Calc!A3:G3").values[0]!.map((v) => (v === null ? "" : String(v)));
      expect(engine).toEqual(["180", "6", "10", "3", "10", "20", "30"]);
      expect(calc[2]).toEqual(engine);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
