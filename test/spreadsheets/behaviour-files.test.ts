// The files other programs make of the gateway's workbooks, and the gateway of theirs, through the
// real gateway: a workbook built and changed through REST, tRPC and MCP is downloaded as .xlsx and
// LibreOffice Calc (`soffice --headless --convert-to csv`) shows the values the API reads — both as
// downloaded (the computed values are in the file) and with every formula's cached value removed,
// so that Calc computes each formula itself; Calc's own .xlsx of it imports back with the same
// values; and a workbook written by Python's openpyxl (formulas without cached values) imports with
// the values the formulas give. Without soffice, or without a Python that has openpyxl
// (`apt-get install python3-openpyxl`), the part is skipped with one line saying so, except under
// CI=true where a missing program is a failure (test/helpers/external.ts; .ci/run installs both).
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireProgram } from "../helpers/external.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { parseCsv } from "./csv-parse.ts";
import { mcp, rest, SHEETS_SCOPES, trpc, type Rest } from "./surfaces.ts";

const run = promisify(execFile);
const soffice = requireProgram("soffice", {
  envVar: "SOFFICE_PATH",
  install: "apt-get install -y libreoffice-calc-nogui",
  purpose: "LibreOffice opening the gateway's .xlsx downloads (test/spreadsheets/behaviour-files.test.ts)",
});
// Comma, double quote, UTF-8, every sheet to its own file (token 12 = -1), values as shown.
const CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1";

type Cell = string | number | boolean | null | { error: string };

let tg: TestGateway;
let key: string;
let api: Rest;
let dir: string;

beforeAll(async () => {
  tg = await startTestGateway();
  key = await tg.key({ user: "files", scopes: SHEETS_SCOPES });
  api = rest(tg.url, key);
  dir = await mkdtemp(join(tmpdir(), "wg-sheets-files-"));
});
afterAll(async () => {
  await tg?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Created {
  id: string;
  sheets: { name: string; usedRange: string | null }[];
}

/** Every sheet's used range as the API reads it, by sheet name. */
async function apiValues(id: string): Promise<Map<string, Cell[][]>> {
  const record = (await api.call<Created>("GET", `/api/v1/spreadsheets/${id}`)).body;
  const out = new Map<string, Cell[][]>();
  for (const sheet of record.sheets) {
    if (!sheet.usedRange) continue;
    const range = `'${sheet.name.replaceAll("'", "''")}'!A1:${sheet.usedRange.split(":").pop()}`;
    const answer = await api.call<{ values: Cell[][]; truncated: boolean }>(
      "GET",
      `/api/v1/spreadsheets/${id}/values/${encodeURIComponent(range)}?maxCells=100000`,
    );
    expect(answer.body.truncated).toBe(false);
    out.set(sheet.name, answer.body.values);
  }
  return out;
}

/** How Calc shows a value in its CSV ("values as shown"). */
function shown(cell: Cell): string | number {
  if (cell === null) return "";
  if (typeof cell === "boolean") return cell ? "TRUE" : "FALSE";
  if (typeof cell === "object") return cell.error;
  return cell;
}

const closeEnough = (got: string, want: number) => Math.abs(Number(got) - want) <= Math.max(1e-12, Math.abs(want) * 1e-13);

/** The cells (A1 addresses) where Calc's CSV differs from the API's values, with both sides. */
function differences(csvText: string, values: Cell[][]): Record<string, string> {
  const rows = parseCsv(csvText);
  const out: Record<string, string> = {};
  const height = Math.max(rows.length, values.length);
  for (let r = 0; r < height; r++) {
    const width = Math.max(rows[r]?.length ?? 0, values[r]?.length ?? 0);
    for (let c = 0; c < width; c++) {
      const got = rows[r]?.[c] ?? "";
      const want = shown(values[r]?.[c] ?? null);
      const same = typeof want === "number" ? closeEnough(got, want) : got === want;
      if (!same) out[`${String.fromCharCode(65 + c)}${r + 1}`] = `Calc ${JSON.stringify(got)}, API ${JSON.stringify(want)}`;
    }
  }
  return out;
}

async function soffice_(to: string, outdir: string, file: string): Promise<void> {
  const profile = pathToFileURL(join(dir, "profile")).href;
  await run(soffice!, [`-env:UserInstallation=${profile}`, "--headless", "--convert-to", to, "--outdir", outdir, file], {
    timeout: 180_000,
  });
}

/** Calc's CSV of every sheet of `file`, by sheet name (Calc names each `<file>-<sheet>.csv`). */
async function calcCsv(file: string, outdir: string): Promise<Map<string, string>> {
  await soffice_(CSV_FILTER, outdir, file);
  const base = file
    .split("/")
    .pop()!
    .replace(/\.xlsx$/, "");
  const out = new Map<string, string>();
  for (const name of await readdir(outdir)) {
    if (name.startsWith(`${base}-`) && name.endsWith(".csv"))
      out.set(name.slice(base.length + 1, -4), await readFile(join(outdir, name), "utf8"));
  }
  return out;
}

/** The package with every formula cell's cached value removed: whoever opens it must compute them. */
function withoutCachedValues(xlsx: Uint8Array): Uint8Array {
  const entries = unzipSync(xlsx);
  let removed = 0;
  for (const [name, bytes] of Object.entries(entries)) {
    if (!/^xl\/worksheets\/sheet\d+\.xml$/.test(name)) continue;
    const xml = strFromU8(bytes).replace(/(<f(?:\s[^>]*)?(?:\/>|>[^<]*<\/f>))<v>[^<]*<\/v>/g, (_, f: string) => {
      removed++;
      return f;
    });
    entries[name] = strToU8(xml);
  }
  expect(removed, "formula cells whose cached value was removed").toBeGreaterThan(20);
  return zipSync(entries);
}

const SALES = [
  ["region", "month", "units", "price", "revenue", "label"],
  ["North", "2026-01-31", 120, 2.5, "=C2*D2", '=A2&" "&TEXT(B2,"yyyy-mm")'],
  ["South", "2026-02-28", 80, 3.25, "=C3*D3", '=A3&" "&TEXT(B3,"yyyy-mm")'],
  ["East", "2026-03-31", 0, 4, "=C4*D4", '=A4&" "&TEXT(B4,"yyyy-mm")'],
  ["West", "2026-04-30", 45, 1.75, "=C5*D5", '=A5&" "&TEXT(B5,"yyyy-mm")'],
];
const SUMMARY = "Q1 O'Brien Summary";
const SUMMARY_FORMULAS = [
  ["total", "=SUM(Sales!E2:E5)"],
  ["mean price", "=ROUND(AVERAGE(Sales!D2:D5),3)"],
  ["north+south", '=SUMIF(Sales!A2:A5,"North",Sales!E2:E5)+SUMIF(Sales!A2:A5,"South",Sales!E2:E5)'],
  ["regions over 50", '=COUNTIF(Sales!C2:C5,">50")'],
  ["lookup", '=VLOOKUP("West",Sales!A2:E5,5,FALSE)'],
  ["index/match", '=INDEX(Sales!D2:D5,MATCH("East",Sales!A2:A5,0))'],
  ["revenue per unit", "=IFERROR(Sales!E4/Sales!C4,-1)"],
  ["division by zero", "=Sales!E4/Sales!C4"],
  ["last month end", "=EOMONTH(Sales!B5,1)"],
  ["months", '=DATEDIF(Sales!B2,Sales!B5,"m")'],
  ["any big", "=OR(Sales!C2>100,Sales!C3>100)"],
  ["upper", "=UPPER(Sales!A3)&LEN(Sales!A3)"],
  ["median", "=MEDIAN(Sales!C2:C5)"],
  ["stdev", "=ROUND(STDEV.S(Sales!C2:C5),6)"],
  ["payment", "=ROUND(PMT(0.05/12,36,10000),2)"],
  ["weekday", "=WEEKDAY(Sales!B2)"],
  ["xlookup", '=XLOOKUP("South",Sales!A2:A5,Sales!C2:C5)'],
  ["textjoin", '=TEXTJOIN("-",TRUE,Sales!A2:A5)'],
  ["sumproduct", "=SUMPRODUCT(Sales!C2:C5,Sales!D2:D5)"],
  ["date", "=DATE(2026,2,29)"],
];

describe.skipIf(!soffice)("LibreOffice opens the gateway's .xlsx and agrees with the API", () => {
  let id = "";
  let expected = new Map<string, Cell[][]>();
  let downloaded = "";

  beforeAll(async () => {
    const agent = await mcp(tg.url, key);
    try {
      const created = await agent.call("sheets_create", { name: "Calc check", sheets: [{ name: "Sales", values: SALES }] });
      expect(created.isError, created.text).toBe(false);
      id = created.structured!["id"] as string;
      await trpc(tg.url, key).sheets.edit.mutate({
        id,
        operations: [
          { addSheet: { name: "Q1 O'Brien Summary" } },
          { write: { range: "'Q1 O''Brien Summary'!A1:B20", values: SUMMARY_FORMULAS } },
        ],
      });
      // A row inserted inside the summed range after the formulas were written: references move, and Calc must agree.
      const edited = await api.call("POST", `/api/v1/spreadsheets/${id}/edit`, {
        operations: [
          { insertRows: { sheet: "Sales", at: 3, count: 1 } },
          { write: { range: "Sales!A3:F3", values: [["Centre", "2026-01-15", 10, 10, "=C3*D3", '=A3&" "&TEXT(B3,"yyyy-mm")']] } },
        ],
      });
      expect(edited.status, edited.text).toBe(200);
      const appended = await agent.call("sheets_append", {
        id,
        sheet: "Sales",
        values: [["Errors", "n/a", "=1/0", "=NA()", "=C7*D7", "=TRUE"]],
      });
      expect(appended.isError, appended.text).toBe(false);
    } finally {
      await agent.close();
    }
    expected = await apiValues(id);
    const file = await api.bytes(`/api/v1/spreadsheets/${id}/content`);
    expect(file.status).toBe(200);
    downloaded = join(dir, "downloaded.xlsx");
    await writeFile(downloaded, file.bytes);
    await writeFile(join(dir, "computed-by-calc.xlsx"), withoutCachedValues(file.bytes));
  }, 300_000);

  it("the API's own values are what the formulas should give (a spot check of the fixture)", () => {
    const summary = expected.get(SUMMARY)!;
    expect(summary[0]).toEqual(["total", 300 + 260 + 0 + 78.75 + 100]);
    expect(summary[4]).toEqual(["lookup", 78.75]);
    expect(summary[7]).toEqual(["division by zero", { error: "#DIV/0!" }]);
    expect(summary[8]).toEqual(["last month end", "2026-05-31"]);
    expect(summary[19]).toEqual(["date", "2026-03-01"]);
    expect(expected.get("Sales")![6]).toEqual(["Errors", "n/a", { error: "#DIV/0!" }, { error: "#N/A" }, { error: "#DIV/0!" }, true]);
  });

  it("as downloaded: Calc shows every value the API reads, on every sheet", async () => {
    const csv = await calcCsv(downloaded, join(dir, "as-downloaded"));
    expect([...csv.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [sheet, values] of expected) expect(differences(csv.get(sheet)!, values), sheet).toEqual({});
  }, 300_000);

  it("without the cached values: Calc's own computation of every formula equals the API's", async () => {
    const csv = await calcCsv(join(dir, "computed-by-calc.xlsx"), join(dir, "computed"));
    expect(differences(csv.get("Sales")!, expected.get("Sales")!)).toEqual({});
    // Calc 7.4 (Debian 12's) has no XLOOKUP (it arrived in Calc 24.8): left to compute it, it shows
    // #NAME?. The downloaded file carries the gateway's value, which Calc shows (the test above).
    expect(differences(csv.get(SUMMARY)!, expected.get(SUMMARY)!)).toEqual({ B17: 'Calc "#NAME?", API 80' });
  }, 300_000);

  it("Calc's own .xlsx of it imports back into the gateway with the same values", async () => {
    await soffice_("xlsx", join(dir, "resaved"), downloaded);
    const bytes = await readFile(join(dir, "resaved", "downloaded.xlsx"));
    const imported = await api.upload("/api/v1/spreadsheets", new File([bytes], "from-calc.xlsx"), { name: "from Calc" });
    expect(imported.status, imported.text).toBe(201);
    const again = await apiValues((imported.body as Created).id);
    expect([...again.keys()]).toEqual([...expected.keys()]);
    for (const [sheet, values] of expected) {
      const got = again.get(sheet)!;
      values.forEach((row, r) =>
        row.forEach((cell, c) => {
          const where = `${sheet} row ${r + 1} column ${c + 1}`;
          if (typeof cell === "number") expect(got[r]![c] as number, where).toBeCloseTo(cell, 9);
          else expect(got[r]![c], where).toEqual(cell);
        }),
      );
    }
  }, 300_000);
});

// ---- openpyxl ------------------------------------------------------------------------------------

/** A Python that imports openpyxl: python3 on PATH, else the system's (Debian's python3-openpyxl). */
async function pythonWithOpenpyxl(): Promise<string | undefined> {
  for (const python of ["python3", "/usr/bin/python3"]) {
    try {
      await run(python, ["-c", "import openpyxl"], { timeout: 30_000 });
      return python;
    } catch {
      // try the next one
    }
  }
  const how = "apt-get install -y python3-openpyxl";
  if (process.env["CI"] === "true")
    throw new Error(`No python3 with openpyxl, and CI=true requires it for the openpyxl import test: ${how}`);
  console.warn(`skipped: .xlsx written by openpyxl imported through the gateway — no python3 with openpyxl; ${how}`);
  return undefined;
}

const OPENPYXL = `
import datetime, sys
from openpyxl import Workbook
wb = Workbook()
ws = wb.active
ws.title = "Orders"
ws.append(["customer", "placed", "qty", "unit", "total", "paid"])
ws.append(["Ada", datetime.date(2026, 1, 5), 3, 9.99, "=C2*D2", True])
ws.append(["Linus", datetime.datetime(2026, 2, 1, 9, 30), 1, 120, "=C3*D3", False])
ws.append(["Grace", datetime.date(2024, 2, 29), 12, 0.5, "=C4*D4", True])
ws["A6"] = "sum"
ws["E6"] = "=SUM(E2:E4)"
ws["F6"] = '=COUNTIF(F2:F4,TRUE)'
ws["A7"] = "00123"
other = wb.create_sheet("Rates & Notes")
other["A1"] = "vat"
other["B1"] = 0.2
other["A2"] = "gross"
other["B2"] = "=Orders!E6*(1+B1)"
other["A3"] = "late"
other["B3"] = '=IF(Orders!B3>DATE(2026,1,31),"yes","no")'
wb.save(sys.argv[1])
`;

describe("a workbook written by openpyxl imports through the gateway", () => {
  it("with its texts, numbers, dates, booleans, and formulas (written without cached values) computed", async (context) => {
    const python = await pythonWithOpenpyxl();
    if (!python) return context.skip();
    await writeFile(join(dir, "make.py"), OPENPYXL);
    await run(python, [join(dir, "make.py"), join(dir, "py.xlsx")], { timeout: 60_000 });
    const bytes = await readFile(join(dir, "py.xlsx"));
    const imported = await api.upload("/api/v1/spreadsheets", new File([bytes], "orders.xlsx"), { name: "from openpyxl" });
    expect(imported.status, imported.text).toBe(201);
    const created = imported.body as Created;
    expect(created.sheets.map((s) => [s.name, s.usedRange])).toEqual([
      ["Orders", "A1:F7"],
      ["Rates & Notes", "A1:B3"],
    ]);
    const values = await apiValues(created.id);
    expect(values.get("Orders")).toEqual([
      ["customer", "placed", "qty", "unit", "total", "paid"],
      ["Ada", "2026-01-05", 3, 9.99, 29.97, true],
      ["Linus", "2026-02-01T09:30:00", 1, 120, 120, false],
      ["Grace", "2024-02-29", 12, 0.5, 6, true],
      [null, null, null, null, null, null],
      ["sum", null, null, null, 155.97, 2],
      ["00123", null, null, null, null, null],
    ]);
    expect(values.get("Rates & Notes")).toEqual([
      ["vat", 0.2],
      ["gross", 187.164],
      ["late", "yes"],
    ]);
    // The formulas are kept, and they go on computing: a change to an input recalculates the other sheet.
    const client = trpc(tg.url, key);
    const write = await client.sheets.write.mutate({ id: created.id, range: "Orders!C2", values: [[4]] });
    expect(write.recalculatedCells).toBe(3);
    expect(await client.sheets.evaluate.query({ id: created.id, formula: "='Rates & Notes'!B2" })).toEqual({ value: 199.152 });
  }, 120_000);
});
