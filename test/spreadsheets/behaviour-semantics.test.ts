// Workbook semantics through the real gateway, as callers see them: an .xlsx with defined names, a
// table, a formula saved before dynamic arrays and an array formula imports with Excel's values;
// a dynamic array written over REST spills, and its cells read over HTTP straight from the stored
// tiles; the .xlsx download keeps names, tables and array formulas, and imports back the same.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { buildXlsx } from "./xlsx-fixtures.ts";
import { mcp, rest, SHEETS_SCOPES, type Mcp, type Rest } from "./surfaces.ts";

const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

interface Created {
  id: string;
  version: number;
}
interface RangeBody {
  values: unknown[][];
}

let tg: TestGateway;
let api: Rest;
let agent: Mcp;

beforeAll(async () => {
  tg = await startTestGateway();
  const key = await tg.key({ user: "sheets-semantics", scopes: SHEETS_SCOPES });
  api = rest(tg.url, key);
  agent = await mcp(tg.url, key);
});
afterAll(async () => {
  await agent?.close();
  await tg?.close();
});

const str = (v: string) => `<is><t>${v}</t></is>`;
const CITIES = [
  "Oslo",
  "Bergen",
  "Trondheim",
  "Stavanger",
  "Drammen",
  "Kristiansand",
  "Fredrikstad",
  "Tromsø",
  "Sandnes",
  "Sarpsborg",
  "Skien",
  "Ålesund",
];

function workbookXlsx(): Uint8Array {
  const rows = [`<row r="1"><c r="A1" t="inlineStr">${str("City")}</c><c r="B1" t="inlineStr">${str("Pop")}</c></row>`];
  CITIES.forEach((city, i) =>
    rows.push(`<row r="${i + 2}"><c r="A${i + 2}" t="inlineStr">${str(city)}</c><c r="B${i + 2}"><v>${i + 1}</v></c></row>`),
  );
  const report =
    `<row r="1"><c r="A1"><f>COUNTA(BigCity[City])</f><v>1</v></c><c r="B1"><f>SUM(BigCity[Pop])*Rate</f><v>0</v></c><c r="C1"><f>SUM(Data:Extra!A1)</f><v>0</v></c></row>` +
    `<row r="3"><c r="C3"><v>1</v></c><c r="D3"><v>2</v></c><c r="E3"><v>3</v></c></row>` +
    `<row r="4"><c r="D4"><f>C3+C3:E3</f><v>0</v></c><c r="E4"><f t="array" ref="E4:E5">TRANSPOSE(C3:D3)*10</f><v>10</v></c></row>` +
    `<row r="5"><c r="E5"><v>20</v></c></row>`;
  return buildXlsx({
    sheets: [
      { name: "Data", data: rows.join("") },
      { name: "Report", data: report },
      { name: "Extra", data: `<row r="1"><c r="A1"><v>100</v></c></row>` },
    ],
    workbookExtra: `<definedNames><definedName name="Rate">0.5</definedName></definedNames>`,
    extra: {
      "xl/worksheets/_rels/sheet1.xml.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/table" Target="../tables/table1.xml"/></Relationships>`,
      "xl/tables/table1.xml":
        `<?xml version="1.0" encoding="UTF-8"?><table xmlns="${MAIN}" id="1" name="BigCity" displayName="BigCity" ref="A1:B13">` +
        `<autoFilter ref="A1:B13"/><tableColumns count="2"><tableColumn id="1" name="City"/><tableColumn id="2" name="Pop"/></tableColumns></table>`,
    },
  });
}

const read = async (id: string, range: string, render = "value") =>
  (await api.call<RangeBody>("GET", `/api/v1/spreadsheets/${id}/values/${encodeURIComponent(range)}?render=${render}`)).body.values;

describe("workbook semantics over HTTP", () => {
  let id = "";

  it("an imported .xlsx computes names, tables, 3-D references, implicit intersection and array formulas as Excel does", async () => {
    const answer = await api.upload("/api/v1/spreadsheets", new File([workbookXlsx() as Uint8Array<ArrayBuffer>], "cities.xlsx"), {
      name: "cities",
    });
    expect(answer.status, answer.text).toBe(201);
    id = (answer.body as Created).id;
    // The span Data:Extra holds Report too: "City" is text, Report!A1 is 12.
    expect(await read(id, "Report!A1:C1")).toEqual([[12, 39, 112]]);
    expect(await read(id, "Report!D4:E5", "both")).toEqual([
      [
        { value: 3, formula: "=C3+@C3:E3" },
        { value: 10, formula: "=TRANSPOSE(C3:D3)*10" },
      ],
      [null, 20],
    ]);
  });

  it("a dynamic array written over REST spills, read from the stored tiles; a blocked one is #SPILL!", async () => {
    const written = await api.call("PUT", `/api/v1/spreadsheets/${id}/values/Report!G1:H1`, {
      values: [["=SORT(FILTER(Data!A2:A13,Data!B2:B13>9),,-1)", "=ROWS(G1#)"]],
    });
    expect(written.status, written.text).toBe(200);
    expect(await read(id, "Report!G1:H4")).toEqual([
      ["Ålesund", 3],
      ["Skien", null],
      ["Sarpsborg", null],
      [null, null],
    ]);
    const blocked = await agent.call("sheets_write", { id, range: "Report!G3", values: [["in the way"]] });
    expect(blocked.isError, blocked.text).toBe(false);
    expect(await read(id, "Report!G1:H2")).toEqual([
      [{ error: "#SPILL!" }, { error: "#SPILL!" }],
      [null, null],
    ]);
  });

  it("the .xlsx download keeps names, tables and array formulas, and imports back with the same values", async () => {
    await api.call("PUT", `/api/v1/spreadsheets/${id}/values/Report!G3`, { values: [[null]] });
    const download = await api.bytes(`/api/v1/spreadsheets/${id}/content?format=xlsx`);
    expect(download.status).toBe(200);
    const again = await api.upload("/api/v1/spreadsheets", new File([download.bytes as Uint8Array<ArrayBuffer>], "again.xlsx"), {
      name: "again",
    });
    expect(again.status, again.text).toBe(201);
    const copy = (again.body as Created).id;
    for (const range of ["Report!A1:C1", "Report!D4:E5", "Report!G1:H4"])
      expect(await read(copy, range, "both"), range).toEqual(await read(id, range, "both"));
  });
});
