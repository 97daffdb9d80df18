// The application's spreadsheet pages over HTTP (docs/app.md "Spreadsheets"): the grid of one
// range (ARIA grid, column headers, computed values), sheet tabs, paging by range, a cell written
// as typed with If-Match and the shown range recalculated, a stale write refused, a dynamic array
// spilling into the grid, history and the recipient's read-only grid.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppClient, csrfOf } from "../helpers/app.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

const ALL = ["docs:read", "docs:write", "sheets:read", "sheets:write"];
let tg: TestGateway;
let key: string;
let client: AppClient;

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${tg.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...init.headers } });
const createSheet = async (body: unknown) =>
  (await (await api("/api/v1/spreadsheets", { method: "POST", body: JSON.stringify(body) })).json()) as { id: string; version: number };

beforeAll(async () => {
  tg = await startTestGateway();
  key = await tg.key({ user: "sheet-owner", scopes: ALL });
  client = new AppClient(tg.url);
  await client.signInWithKey(key);
});
afterAll(() => tg.close());

const cellsOf = (html: string) =>
  [...html.matchAll(/data-cell="([A-Z]+\d+)" data-formula="([^"]*)"[^>]*>([^<]*)<\/td>/g)].map((m) => [m[1], m[2], m[3]]);

describe("a spreadsheet", () => {
  it("shows a grid of computed values with column headers, sheet tabs and each cell's formula", async () => {
    const sheet = await createSheet({
      name: "Budget",
      sheets: [
        {
          name: "Costs",
          values: [
            ["Item", "Amount"],
            ["Rent", 1000],
            ["Food", 250.5],
            ["Total", "=SUM(B2:B3)"],
          ],
        },
        { name: "Q1 plan", values: [["x"]] },
      ],
    });
    const page = await client.get(`/app/spreadsheets/${sheet.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('role="grid"');
    expect([...page.text.matchAll(/role="columnheader">([A-Z]+)</g)].map((m) => m[1]).slice(0, 3)).toEqual(["A", "B", "C"]);
    expect(page.text).toMatch(/role="tab" href="[^"]+\?sheet=Costs" aria-selected="true"/);
    expect(page.text).toMatch(/role="tab" href="[^"]+\?sheet=Q1%20plan" aria-selected="false"/);
    const cells = cellsOf(page.text);
    expect(cells).toContainEqual(["B4", "=SUM(B2:B3)", "1250.5"]);
    expect(cells).toContainEqual(["A2", "Rent", "Rent"]);
    expect(page.text).toContain('<label for="formula" class="visually-hidden">Formula</label>');
    const other = await client.get(`/app/spreadsheets/${sheet.id}?sheet=Q1%20plan`);
    expect(cellsOf(other.text)[0]).toEqual(["A1", "x", "x"]);
  });

  it("writes a cell as typed with If-Match; the answer has the dependents recalculated; a stale version is refused", async () => {
    const sheet = await createSheet({ name: "Calc", sheets: [{ name: "Sheet1", values: [[2, "=A1*10"]] }] });
    const page = await client.get(`/app/spreadsheets/${sheet.id}`);
    const write = (body: unknown, ifMatch: string) =>
      client.request(`/app/spreadsheets/${sheet.id}/cells`, {
        method: "POST",
        headers: {
          origin: tg.url,
          "content-type": "application/json",
          accept: "application/json",
          "x-csrf-token": csrfOf(page.text),
          "if-match": ifMatch,
        },
        body: JSON.stringify(body),
      });
    const written = await write({ sheet: "Sheet1", cell: "A1", text: "7", view: "Sheet1!A1:H20" }, '"v1"');
    expect(written.status).toBe(200);
    const answer = JSON.parse(written.text) as { version: number; values: unknown[][] };
    expect(answer.version).toBe(2);
    expect(answer.values[0]!.slice(0, 2)).toEqual([
      { text: "7", kind: "number", formula: "7" },
      { text: "70", kind: "number", formula: "=A1*10" },
    ]);
    const stale = await write({ sheet: "Sheet1", cell: "A1", text: "8", view: "Sheet1!A1:H20" }, '"v1"');
    expect(stale.status).toBe(412);
    const now = (await (await api(`/api/v1/spreadsheets/${sheet.id}/values/A1:B1`)).json()) as { values: unknown[][] };
    expect(now.values).toEqual([[7, 70]]);
    // A formula typed in, and the cells endpoint the grid refreshes from.
    await write({ sheet: "Sheet1", cell: "C1", text: "=B1+1", view: "Sheet1!A1:H20" }, '"v2"');
    const cells = JSON.parse(
      (await client.get(`/app/spreadsheets/${sheet.id}/cells?range=Sheet1!A1:C1`, { accept: "application/json" })).text,
    );
    expect(cells).toEqual({
      version: 3,
      values: [
        [
          { text: "7", kind: "number", formula: "7" },
          { text: "70", kind: "number", formula: "=A1*10" },
          { text: "71", kind: "number", formula: "=B1+1" },
        ],
      ],
    });
  });

  it("shows each cell as Excel does: its number format, General to 11 characters, aligned by kind, the full value as a title", async () => {
    const sheet = await createSheet({
      name: "Shown",
      sheets: [
        {
          name: "S",
          values: [
            ["Region", "2025", "2026", "Growth", "Share", "Big", "Flag", "Oops"],
            ["North", 110, 120, "=C2/B2-1", "12.5%", 123456789012, true, "=1/0"],
            ["Since", "2026-01-31", "'2026", "=B3+1", "=E2*2", 999999999999, "=B2>C2", "#N/A"],
          ],
        },
      ],
    });
    // Formats set as Excel files carry them, through the API's typed input: a date, a percent.
    const page = await client.get(`/app/spreadsheets/${sheet.id}`);
    const td = (address: string) =>
      new RegExp(
        `<td role="gridcell" class="([a-z]+)"(?: title="([^"]*)")? data-cell="${address}" data-formula="([^"]*)"[^>]*>([^<]*)</td>`,
      )
        .exec(page.text)
        ?.slice(1);
    // =C2/B2-1 is 0.0909090909090908 in full; General shows 0.090909091 and the title the 15 digits.
    expect(td("D2")).toEqual(["number", "0.0909090909090908", "=C2/B2-1", "0.090909091"]);
    expect(td("E2")).toEqual(["number", "0.125", "0.125", "12.50%"]);
    expect(td("E3")).toEqual(["number", undefined, "=E2*2", "0.25"]);
    expect(td("F2")).toEqual(["number", "123456789012", "123456789012", "1.23457E+11"]);
    expect(td("F3")).toEqual(["number", "999999999999", "999999999999", "1E+12"]);
    expect(td("B3")).toEqual(["number", undefined, "2026-01-31", "2026-01-31"]);
    expect(td("C3")).toEqual(["text", undefined, "2026", "2026"]);
    expect(td("A2")).toEqual(["text", undefined, "North", "North"]);
    expect(td("G2")).toEqual(["boolean", undefined, "TRUE", "TRUE"]);
    expect(td("G3")).toEqual(["boolean", undefined, "=B2&gt;C2", "FALSE"]);
    expect(td("H2")).toEqual(["error", undefined, "=1/0", "#DIV/0!"]);
    expect(td("H3")).toEqual(["error", undefined, "#N/A", "#N/A"]);
    expect(td("H4")).toEqual(["empty", undefined, "", ""]);
    expect(td("D3")).toEqual(["number", undefined, "=B3+1", "2026-02-01"]);

    // The recipient's read-only grid shows the same text, without the formulas.
    const share = (await (await api(`/api/v1/spreadsheets/${sheet.id}/shares`, { method: "POST", body: "{}" })).json()) as { url: string };
    const recipient = await (await fetch(new URL(share.url, tg.url), { headers: { accept: "text/html" } })).text();
    expect(recipient).toContain('<td role="gridcell" class="number" title="0.0909090909090908">0.090909091</td>');
    expect(recipient).toContain('<td role="gridcell" class="number" title="0.125">12.50%</td>');
    expect(recipient).toContain('<td role="gridcell" class="error">#DIV/0!</td>');
    expect(recipient).not.toContain("data-formula");
    // API clients ask for the same text with render=formatted (REST, on a share link too).
    const formatted = (await (await fetch(new URL(`${share.url}?render=formatted&range=D2:F2`, tg.url))).json()) as { values: unknown };
    expect(formatted.values).toEqual([["0.090909091", "12.50%", "1.23457E+11"]]);
  });

  it("shows a dynamic array's spill in the grid; the spill follows its inputs, and a cell written in its way makes it #SPILL!", async () => {
    const sheet = await createSheet({ name: "Spill", sheets: [{ name: "Sheet1", values: [[3]] }] });
    const page = await client.get(`/app/spreadsheets/${sheet.id}`);
    let version = sheet.version;
    const write = async (cell: string, text: string) => {
      const answer = await client.request(`/app/spreadsheets/${sheet.id}/cells`, {
        method: "POST",
        headers: {
          origin: tg.url,
          "content-type": "application/json",
          accept: "application/json",
          "x-csrf-token": csrfOf(page.text),
          "if-match": `"v${version}"`,
        },
        body: JSON.stringify({ sheet: "Sheet1", cell, text, view: "Sheet1!A1:H20" }),
      });
      expect(answer.status, answer.text).toBe(200);
      const body = JSON.parse(answer.text) as { version: number; values: unknown[][] };
      version = body.version;
      return body.values.slice(0, 5).map((row) => row[1]);
    };
    // Each cell as the grid shows it (src/app/cells.ts): the shown text, its kind, the formula bar's text.
    const cell = (text: string, formula = text) => ({
      text,
      kind: /^#/.test(text) ? "error" : text === "" ? "empty" : /^\d+$/.test(text) ? "number" : "text",
      formula,
    });
    const formula = "=SEQUENCE(A1)*10";
    expect(await write("B1", formula)).toEqual([cell("10", formula), cell("20"), cell("30"), cell(""), cell("")]);
    const shown = cellsOf((await client.get(`/app/spreadsheets/${sheet.id}`)).text);
    expect(shown).toContainEqual(["B1", formula, "10"]);
    expect(shown).toContainEqual(["B3", "30", "30"]);
    expect(await write("A1", "4")).toEqual([cell("10", formula), cell("20"), cell("30"), cell("40"), cell("")]);
    expect(await write("B3", "x")).toEqual([cell("#SPILL!", formula), cell(""), cell("x"), cell(""), cell("")]);
  });

  it("reads only the range shown: 100 rows a page, Next rows moves the range", async () => {
    const csv = Array.from({ length: 1000 }, (_, i) => `${i + 1},=A${i + 1}*2`).join("\n");
    const sheet = await createSheet({ name: "Long", sheets: [{ name: "Data", csv }] });
    const page = await client.get(`/app/spreadsheets/${sheet.id}`);
    expect(page.text.match(/role="rowheader"/g)).toHaveLength(100);
    const next = /href="([^"]+)">Next rows/.exec(page.text)![1]!.replace(/&amp;/g, "&");
    expect(next).toContain("range=A101%3AH200");
    const second = await client.get(next);
    expect(cellsOf(second.text)).toContainEqual(["B150", "=A150*2", "300"]);
    expect(second.text).toContain("Previous rows");
  });

  it("history, share and trash work as for documents; the recipient sees a read-only grid", async () => {
    const sheet = await createSheet({ name: "Shared sheet", sheets: [{ name: "S", values: [[1, "=A1+1"]] }] });
    await api(`/api/v1/spreadsheets/${sheet.id}/values/A1`, { method: "PUT", body: JSON.stringify({ values: [[5]] }) });
    const history = await client.get(`/app/spreadsheets/${sheet.id}/history`);
    expect(history.text.match(/>Restore<\/button>/g)).toHaveLength(2);
    const restored = await client.post(`/app/spreadsheets/${sheet.id}/history/1/restore`, { _csrf: csrfOf(history.text), current: "2" });
    expect(restored.status).toBe(303);
    expect(((await (await api(`/api/v1/spreadsheets/${sheet.id}/values/A1:B1`)).json()) as { values: unknown }).values).toEqual([[1, 2]]);
    const share = await client.get(`/app/spreadsheets/${sheet.id}/share`);
    const created = await client.post(`/app/spreadsheets/${sheet.id}/share`, { _csrf: csrfOf(share.text), expiresIn: "86400" });
    const url = /id="share-link" readonly value="([^"]+)"/.exec(created.text)![1]!;
    const recipient = await (await fetch(url, { headers: { accept: "text/html" } })).text();
    expect(recipient).toContain('aria-readonly="true"');
    expect(recipient).toMatch(/<td role="gridcell" class="number">2<\/td>/);
    expect(recipient).not.toContain("data-formula");
    const download = await client.get(`/app/spreadsheets/${sheet.id}/download`);
    expect(download.headers.get("content-type")).toContain("spreadsheetml");
  });
});
