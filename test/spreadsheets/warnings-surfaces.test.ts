// An import's warnings as callers meet them (docs/spreadsheets-import.md "Warnings"): the answer of
// an .xlsx import names the function the gateway does not compute, the cells whose value differs
// from the one the file saved and what the file had that is not kept — on REST (multipart), GraphQL
// (multipart request), tRPC (FormData) and MCP (sheets_import from the drive) alike; describe gives
// them again; a write that replaces the formulas updates them; render=raw and render=formatted on
// every surface. The
// gateway runs against the sandbox upstream (the drive holds the file MCP imports).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductsEnv, type ProductsEnv } from "../products/harness.ts";
import { excelLike } from "./report-fixtures.ts";
import { graphql, mcp, rest, trpc, type Mcp, type Rest } from "./surfaces.ts";

interface Warning {
  code: string;
  function?: string | null;
  count: number;
  cells: string[];
  differences?: { cell: string; formula: string; expected: unknown; got: unknown }[] | null;
}
interface WithWarnings {
  id: string;
  version: number;
  warnings: Warning[];
}

const SCOPES = "docs:read docs:write sheets:read sheets:write";
const WARNING_FIELDS = "code message count cells function name feature checked links differences { cell formula expected got }";

let env: ProductsEnv;
let api: Rest;
let gql: ReturnType<typeof graphql>;
let client: ReturnType<typeof trpc>;
let agent: Mcp;

beforeAll(async () => {
  env = await startProductsEnv({ scope: SCOPES });
  api = rest(env.gateway.url, env.token);
  gql = graphql(env.gateway.url, env.token);
  client = trpc(env.gateway.url, env.token);
  agent = await mcp(env.gateway.url, env.token);
});
afterAll(async () => {
  await agent?.close();
  await env?.close();
});

const xlsxFile = (name: string) => new File([excelLike() as Uint8Array<ArrayBuffer>], name);

/** GraphQL's multipart request: the file as variables.file. */
async function importOverGraphql(query: string): Promise<{ data?: Record<string, WithWarnings>; errors?: unknown[] }> {
  const form = new FormData();
  form.append("operations", JSON.stringify({ query, variables: { file: null } }));
  form.append("map", JSON.stringify({ 0: ["variables.file"] }));
  form.append("0", xlsxFile("graphql.xlsx"), "graphql.xlsx");
  const response = await fetch(`${env.gateway.url}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${env.token}`, "apollo-require-preflight": "true" },
    body: form,
  });
  return (await response.json()) as { data?: Record<string, WithWarnings>; errors?: unknown[] };
}

/** The file in the sandbox's drive, for sheets_import {name, driveFileId}. */
async function driveFile(): Promise<string> {
  const form = new FormData();
  form.append("file", xlsxFile("drive.xlsx"), "drive.xlsx");
  const response = await fetch(`${env.sandbox.url}/drive/v1/files`, {
    method: "POST",
    headers: { authorization: `Bearer ${env.token}` },
    body: form,
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** What every surface must say of the fixture: FOOBAR not computed, three cells differing from the writer's. */
function expectTheWarnings(warnings: Warning[], surface: string): void {
  const unsupported = warnings.find((w) => w.code === "UNSUPPORTED_FUNCTION");
  expect(unsupported, surface).toMatchObject({ function: "FOOBAR", count: 1, cells: ["Data!C1"] });
  const differs = warnings.find((w) => w.code === "VALUE_DIFFERS");
  expect(differs, surface).toMatchObject({ count: 3, cells: ["Data!C1", "Data!D1", "Data!H1"] });
  expect(differs!.differences![1], surface).toEqual({ cell: "Data!D1", formula: "=A1/3", expected: 0.5, got: 2 / 3 });
  expect(
    warnings.map((w) => w.code),
    surface,
  ).toEqual(expect.arrayContaining(["EXTERNAL_LINK", "FORMULA_REFUSED", "DATA_TABLE", "NOT_CHECKED", "NOT_KEPT"]));
}

/** GraphQL answers every field of a type, absent ones as null: compared without them. */
const withoutNulls = (warnings: Warning[]) =>
  warnings.map((w) => Object.fromEntries(Object.entries(w).filter(([, value]) => value !== null && value !== undefined)));

describe("an .xlsx import's warnings on every surface", () => {
  it("name the unknown function and the differing cells on REST, GraphQL, tRPC and MCP, and describe gives them again", async () => {
    const viaRest = await api.upload("/api/v1/spreadsheets", xlsxFile("rest.xlsx"), { name: "rest" });
    expect(viaRest.status, viaRest.text).toBe(201);
    const restBody = viaRest.body as WithWarnings;
    expectTheWarnings(restBody.warnings, "REST import");

    const viaGraphql = await importOverGraphql(
      `mutation ($file: Upload!) { importSpreadsheet(file: $file, name: "graphql") { id warnings { ${WARNING_FIELDS} } } }`,
    );
    expect(viaGraphql.errors).toBeUndefined();
    const graphqlBody = viaGraphql.data!["importSpreadsheet"]!;
    expectTheWarnings(graphqlBody.warnings, "GraphQL import");

    const form = new FormData();
    form.append("file", xlsxFile("trpc.xlsx"));
    form.append("name", "trpc");
    const trpcBody = (await client.sheets.import.mutate(form)) as WithWarnings;
    expectTheWarnings(trpcBody.warnings, "tRPC import");

    const viaMcp = await agent.call("sheets_import", { name: "mcp", driveFileId: await driveFile() });
    expect(viaMcp.isError, viaMcp.text).toBe(false);
    const mcpBody = viaMcp.structured as unknown as WithWarnings;
    expectTheWarnings(mcpBody.warnings, "MCP sheets_import");
    expect(viaMcp.text).toContain("FOOBAR");

    // One answer on every surface, and describe's is the import's.
    expect(withoutNulls(graphqlBody.warnings)).toEqual(restBody.warnings);
    expect(trpcBody.warnings).toEqual(restBody.warnings);
    expect(mcpBody.warnings).toEqual(restBody.warnings);
    const described = await api.call<WithWarnings>("GET", `/api/v1/spreadsheets/${restBody.id}`);
    expect(described.body.warnings).toEqual(restBody.warnings);
    const queried = await gql<{ spreadsheet: WithWarnings }>(
      `query ($id: ID!) { spreadsheet(id: $id) { warnings { ${WARNING_FIELDS} } } }`,
      {
        id: graphqlBody.id,
      },
    );
    expect(withoutNulls(queried.data!.spreadsheet.warnings)).toEqual(restBody.warnings);
    expect(((await client.sheets.get.query({ id: trpcBody.id })) as WithWarnings).warnings).toEqual(restBody.warnings);
    const describe_ = await agent.call("sheets_describe", { id: mcpBody.id });
    expect((describe_.structured as unknown as WithWarnings).warnings).toEqual(restBody.warnings);
  });

  it("are updated by a write that replaces the offending formulas, and a plain workbook has none", async () => {
    const imported = (await api.upload("/api/v1/spreadsheets", xlsxFile("fix.xlsx"), { name: "fix" })).body as WithWarnings;
    const write = await api.call("PUT", `/api/v1/spreadsheets/${imported.id}/values/${encodeURIComponent("Data!C1:D1")}`, {
      values: [["=A1*21", "=A1/4"]],
    });
    expect(write.status, write.text).toBe(200);
    const after = (await api.call<WithWarnings>("GET", `/api/v1/spreadsheets/${imported.id}`)).body.warnings;
    expect(after.map((w) => w.code)).not.toContain("UNSUPPORTED_FUNCTION");
    expect(after.map((w) => w.code)).not.toContain("VALUE_DIFFERS");
    expect(after.map((w) => w.code)).toContain("NOT_KEPT");
    // The version before still says what it said.
    const restored = await api.call<WithWarnings>("POST", `/api/v1/spreadsheets/${imported.id}/versions/1/restore`);
    expect(restored.status, restored.text).toBe(200);
    expectTheWarnings((await api.call<WithWarnings>("GET", `/api/v1/spreadsheets/${imported.id}`)).body.warnings, "restored");

    // An import retried with its idempotency key answers the first import, warnings included.
    const retry = () => {
      const form = new FormData();
      form.append("file", xlsxFile("retried.xlsx"));
      form.append("idempotencyKey", "warnings-retry");
      return client.sheets.import.mutate(form) as Promise<WithWarnings>;
    };
    const first = await retry();
    const again = await retry();
    expect(again.id).toBe(first.id);
    expect(again).toEqual(first);
    expectTheWarnings(again.warnings, "replayed import");

    const plain = await api.call<WithWarnings>("POST", "/api/v1/spreadsheets", {
      name: "plain",
      sheets: [{ name: "S", values: [[1, "=A1*2"]] }],
    });
    expect(plain.body.warnings).toEqual([]);
    const unknown = await api.call<WithWarnings>("POST", "/api/v1/spreadsheets", {
      name: "typed",
      sheets: [{ name: "S", values: [["=NOPE(1)"]] }],
    });
    expect(unknown.body.warnings).toEqual([expect.objectContaining({ code: "UNSUPPORTED_FUNCTION", function: "NOPE", cells: ["S!A1"] })]);
  });
});

describe("render=raw", () => {
  it("gives the number under a date format on REST, GraphQL, tRPC and MCP", async () => {
    const created = await api.call<WithWarnings>("POST", "/api/v1/spreadsheets", {
      name: "dates",
      sheets: [{ name: "S", values: [["2026-01-31", "2026-01-31", 0.1]] }],
    });
    const id = created.body.id;
    // A formula written over a date cell keeps its date format, as in Excel.
    await api.call("PUT", `/api/v1/spreadsheets/${id}/values/A1`, { values: [["=2/3"]] });
    const raw = [[2 / 3, 46053, 0.1]];
    const read = (query: string) =>
      api.call<{ values: unknown[][] }>("GET", `/api/v1/spreadsheets/${id}/values/${encodeURIComponent("S!A1:C1")}${query}`);
    expect((await read("")).body.values).toEqual([["1899-12-31", "2026-01-31", 0.1]]);
    expect((await read("?render=raw")).body.values).toEqual(raw);
    const viaGraphql = await gql<{ spreadsheet: { range: { values: unknown[][] } } }>(
      `query ($id: ID!) { spreadsheet(id: $id) { range(range: "S!A1:C1", render: RAW) { values } } }`,
      { id },
    );
    expect(viaGraphql.data!.spreadsheet.range.values).toEqual(raw);
    expect(((await client.sheets.read.query({ id, range: "S!A1:C1", render: "raw" })) as { values: unknown[][] }).values).toEqual(raw);
    const viaMcp = await agent.call("sheets_read", { id, range: "S!A1:C1", render: "raw" });
    expect(viaMcp.structured!["values"]).toEqual(raw);
    expect((await read("?render=raw&format=csv")).text).toBe("0.6666666666666666,46053,0.1\r\n");
  });
});

describe("render=formatted", () => {
  it("gives the text each cell shows in Excel on REST, GraphQL, tRPC and MCP", async () => {
    const created = await api.call<WithWarnings>("POST", "/api/v1/spreadsheets", {
      name: "shown",
      sheets: [{ name: "S", values: [[110, 120, "=B1/A1-1", "12.5%", "2026-01-31", 123456789012, true, "=1/0", "text", null]] }],
    });
    const id = created.body.id;
    const shown = [["110", "120", "0.090909091", "12.50%", "2026-01-31", "1.23457E+11", "TRUE", "#DIV/0!", "text", null]];
    const range = "S!A1:J1";
    const read = (query: string) =>
      api.call<{ values: unknown[][] }>("GET", `/api/v1/spreadsheets/${id}/values/${encodeURIComponent(range)}${query}`);
    expect((await read("?render=formatted")).body.values).toEqual(shown);
    const viaGraphql = await gql<{ spreadsheet: { range: { values: unknown[][] } } }>(
      `query ($id: ID!) { spreadsheet(id: $id) { range(range: "S!A1:J1", render: FORMATTED) { values } } }`,
      { id },
    );
    expect(viaGraphql.data!.spreadsheet.range.values).toEqual(shown);
    expect(((await client.sheets.read.query({ id, range, render: "formatted" })) as { values: unknown[][] }).values).toEqual(shown);
    const viaMcp = await agent.call("sheets_read", { id, range, render: "formatted" });
    expect(viaMcp.structured!["values"]).toEqual(shown);
    // As Excel saves a sheet as CSV: the shown text.
    expect((await read("?render=formatted&format=csv")).text).toBe(
      "110,120,0.090909091,12.50%,2026-01-31,1.23457E+11,TRUE,#DIV/0!,text,\r\n",
    );
  });
});
