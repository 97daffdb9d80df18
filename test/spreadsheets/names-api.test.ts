// Defined names through the API (docs/spreadsheets-names.md): listed, created or replaced, and
// deleted on REST, GraphQL, tRPC and MCP, each change a new version with If-Match/expectedVersion
// like any write; workbook and sheet scope; refused names, definitions and sheets; a sheet's rename
// carrying its local names; a restored version bringing its names back from the store; formulas
// computing names, recalculated when a name is defined, redefined or deleted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { graphql, mcp, rest, SHEETS_SCOPES, trpc, trpcOutcome, type Mcp, type Rest } from "./surfaces.ts";

interface Name {
  name: string;
  sheet: string | null;
  refersTo: string;
  comment?: string;
}
interface WriteAnswer {
  spreadsheet: { id: string; version: number };
  updatedRange: string | null;
  warnings: string[];
}

let tg: TestGateway;
let api: Rest;
let gql: ReturnType<typeof graphql>;
let client: ReturnType<typeof trpc>;
let agent: Mcp;

beforeAll(async () => {
  tg = await startTestGateway();
  const key = await tg.key({ user: "names", scopes: SHEETS_SCOPES });
  api = rest(tg.url, key);
  gql = graphql(tg.url, key);
  client = trpc(tg.url, key);
  agent = await mcp(tg.url, key);
});
afterAll(async () => {
  await agent?.close();
  await tg?.close();
});

async function workbook(): Promise<string> {
  const created = await api.call<{ id: string }>("POST", "/api/v1/spreadsheets", {
    name: "Rates",
    sheets: [
      { name: "Data", values: [[100, 0.07]] },
      { name: "Other", values: [[1]] },
    ],
  });
  expect(created.status, created.text).toBe(201);
  return created.body.id;
}

const names = async (id: string) => (await api.call<{ names: Name[] }>("GET", `/api/v1/spreadsheets/${id}/names`)).body.names;

describe("defined names over REST", () => {
  it("are created, replaced and deleted as new versions, with If-Match, in the workbook's or a sheet's scope", async () => {
    const id = await workbook();
    expect(await names(id)).toEqual([]);
    const put = await api.call<WriteAnswer>(
      "PUT",
      `/api/v1/spreadsheets/${id}/names/Rate`,
      { refersTo: "=Data!$B$1" },
      { "if-match": '"v1"' },
    );
    expect(put.status, put.text).toBe(200);
    expect(put.headers.get("etag")).toBe('"v2"');
    expect(put.body).toMatchObject({ spreadsheet: { id, version: 2 }, updatedRange: null, updatedCells: 0 });
    const local = await api.call("PUT", `/api/v1/spreadsheets/${id}/names/Rate`, {
      refersTo: "=0.05",
      sheet: "Other",
      comment: "Other's own",
    });
    expect(local.status, local.text).toBe(200);
    expect(await names(id)).toEqual([
      { name: "Rate", sheet: null, refersTo: "=Data!$B$1" },
      { name: "Rate", sheet: "Other", refersTo: "=0.05", comment: "Other's own" },
    ]);
    // Replacing a name is the same PUT; a stale If-Match writes nothing.
    expect((await api.call("PUT", `/api/v1/spreadsheets/${id}/names/Rate`, { refersTo: "=0.08" }, { "if-match": '"v1"' })).status).toBe(
      412,
    );
    expect((await api.call("PUT", `/api/v1/spreadsheets/${id}/names/RATE`, { refersTo: "=0.08" })).status).toBe(200);
    expect((await names(id))[0]).toEqual({ name: "RATE", sheet: null, refersTo: "=0.08" });
    const deleted = await api.call<WriteAnswer>("DELETE", `/api/v1/spreadsheets/${id}/names/Rate?sheet=Other`, undefined, {
      "if-match": '"v4"',
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.spreadsheet.version).toBe(5);
    expect(await names(id)).toEqual([{ name: "RATE", sheet: null, refersTo: "=0.08" }]);
    const versions = (await api.call<{ versions: { version: number; source: string }[] }>("GET", `/api/v1/spreadsheets/${id}/versions`))
      .body;
    expect(versions.versions.slice(0, 4).map((v) => v.source)).toEqual(["edit", "edit", "edit", "edit"]);
    // Version 2's names, from the store (no worker holds that version's model).
    expect((await api.call("POST", `/api/v1/spreadsheets/${id}/versions/2/restore`)).status).toBe(200);
    expect(await names(id)).toEqual([{ name: "Rate", sheet: null, refersTo: "=Data!$B$1" }]);
  });

  it("refuse a name that is a cell reference, a definition that does not parse, an unknown sheet or name, and change nothing", async () => {
    const id = await workbook();
    const refused = async (method: string, path: string, body?: unknown) => {
      const answer = await api.call<{ error: { code: string; message: string } }>(method, `/api/v1/spreadsheets/${id}/names/${path}`, body);
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.error.code).toBe("BAD_USER_INPUT");
      return answer.body.error.message;
    };
    expect(await refused("PUT", "B2", { refersTo: "=1" })).toMatch(/cell reference/);
    expect(await refused("PUT", "Rate", { refersTo: "=SUM(" })).toMatch(/not valid/);
    expect(await refused("PUT", "Rate", { refersTo: "=[1]Sheet1!A1" })).toMatch(/another workbook/);
    expect(await refused("PUT", "Rate", { refersTo: "=1", sheet: "Nope" })).toMatch(/Nope/);
    expect(await refused("DELETE", "Rate")).toMatch(/no name "Rate"/);
    expect(await names(id)).toEqual([]);
    expect((await api.call<{ version: number }>("GET", `/api/v1/spreadsheets/${id}`)).body.version).toBe(1);
  });

  it("compute in formulas: defining, redefining and deleting a name recalculates the cells using it", async () => {
    const id = await workbook();
    const value = async (range: string) =>
      (await api.call<{ values: unknown[][] }>("GET", `/api/v1/spreadsheets/${id}/values/${encodeURIComponent(range)}`)).body.values;
    const warnings = async () =>
      (await api.call<{ warnings: { code: string; name?: string }[] }>("GET", `/api/v1/spreadsheets/${id}`)).body.warnings;
    const written = await api.call<WriteAnswer>("PUT", `/api/v1/spreadsheets/${id}/values/Data!C1:D1`, {
      values: [["=A1*Rate", "=Twice(A1)"]],
    });
    expect(written.status, written.text).toBe(200);
    expect(await value("Data!C1:D1")).toEqual([[{ error: "#NAME?" }, { error: "#NAME?" }]]);
    expect((await warnings()).filter((w) => w.code === "UNKNOWN_NAME").map((w) => w.name)).toEqual(["RATE"]);

    const defined = await api.call<WriteAnswer & { recalculatedCells: number }>("PUT", `/api/v1/spreadsheets/${id}/names/Rate`, {
      refersTo: "=Data!$B$1",
    });
    expect(defined.status, defined.text).toBe(200);
    expect(defined.body.warnings).toEqual([]);
    expect(defined.body.recalculatedCells).toBeGreaterThanOrEqual(1);
    expect(await value("Data!C1")).toEqual([[7]]);
    expect((await warnings()).some((w) => w.code === "UNKNOWN_NAME" && w.name === "RATE")).toBe(false);

    // The name's target changes: the formula follows; a LAMBDA name is called like a function.
    await api.call("PUT", `/api/v1/spreadsheets/${id}/values/Data!B1`, { values: [[0.5]] });
    expect(await value("Data!C1")).toEqual([[50]]);
    await api.call("PUT", `/api/v1/spreadsheets/${id}/names/Twice`, { refersTo: "=LAMBDA(x, x*2)" });
    expect(await value("Data!D1")).toEqual([[200]]);
    await api.call("PUT", `/api/v1/spreadsheets/${id}/names/Rate`, { refersTo: "=0.25" });
    expect(await value("Data!C1")).toEqual([[25]]);

    expect((await api.call("DELETE", `/api/v1/spreadsheets/${id}/names/Rate`)).status).toBe(200);
    expect(await value("Data!C1")).toEqual([[{ error: "#NAME?" }]]);
  });

  it("local to a sheet, follow the sheet's rename and go with its deletion", async () => {
    const id = await workbook();
    await api.call("PUT", `/api/v1/spreadsheets/${id}/names/Local`, { refersTo: "=Other!$A$1", sheet: "Other" });
    await api.call("POST", `/api/v1/spreadsheets/${id}/edit`, { operations: [{ renameSheet: { sheet: "Other", name: "Later" } }] });
    expect((await names(id)).map((n) => n.sheet)).toEqual(["Later"]);
    await api.call("POST", `/api/v1/spreadsheets/${id}/edit`, { operations: [{ deleteSheet: { sheet: "Later" } }] });
    expect(await names(id)).toEqual([]);
  });
});

describe("defined names on GraphQL, tRPC and MCP", () => {
  it("are the same operations: define, list, delete, with expectedVersion", async () => {
    const id = await workbook();
    const defined = await gql<{ defineSpreadsheetName: { spreadsheet: { version: number } } }>(
      `mutation ($id: ID!) { defineSpreadsheetName(input: { id: $id, name: "Viagql", refersTo: "=1", expectedVersion: 1 }) { spreadsheet { version } } }`,
      { id },
    );
    expect(defined.errors).toBeUndefined();
    expect(defined.data!.defineSpreadsheetName.spreadsheet.version).toBe(2);
    await client.sheets.defineName.mutate({ id, name: "Viatrpc", refersTo: "=2", sheet: "Data", expectedVersion: 2 });
    const stale = await trpcOutcome(() => client.sheets.defineName.mutate({ id, name: "Late", refersTo: "=3", expectedVersion: 2 }));
    expect(stale).toEqual({ ok: false, code: "PRECONDITION_FAILED" });
    const viaMcp = await agent.call("sheets_define_name", { id, name: "Viamcp", refersTo: "=3" });
    expect(viaMcp.isError, viaMcp.text).toBe(false);
    const expected = [
      { name: "Viagql", sheet: null, refersTo: "=1" },
      { name: "Viamcp", sheet: null, refersTo: "=3" },
      { name: "Viatrpc", sheet: "Data", refersTo: "=2" },
    ];
    const listed = await gql<{ spreadsheet: { names: (Name & { hidden: null; comment: null })[] } }>(
      `query ($id: ID!) { spreadsheet(id: $id) { names { name sheet refersTo } } }`,
      { id },
    );
    expect(listed.data!.spreadsheet.names).toEqual(expected);
    expect(await client.sheets.names.query({ id })).toEqual({ names: expected });
    expect((await agent.call("sheets_names", { id })).structured).toEqual({ names: expected });
    const gone = await gql(`mutation ($id: ID!) { deleteSpreadsheetName(id: $id, name: "Viagql") { updatedCells } }`, { id });
    expect(gone.errors).toBeUndefined();
    await client.sheets.deleteName.mutate({ id, name: "Viatrpc", sheet: "Data" });
    expect((await agent.call("sheets_delete_name", { id, name: "Viamcp" })).isError).toBe(false);
    expect(await names(id)).toEqual([]);
    const missing = await agent.call("sheets_delete_name", { id, name: "Viamcp" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/^BAD_USER_INPUT: /);
  });
});
