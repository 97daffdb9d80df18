// Issue 37 F1, F2 and F10 through real HTTP: a formula over a huge range is refused before its
// array is made (promptly, with only sheets:read, naming SHEETS_MAX_ARRAY_CELLS); text past
// Excel's 32,767 characters is #VALUE! on REST evaluate, a cell write and MCP sheets_evaluate,
// never a 500; a budget refusal says which job ran out (the evaluation or the write) and the bound
// that is really in force (SHEETS_MAX_STEPS, 200,000,000 by default, as documented).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

interface Answer {
  status: number;
  body: { value?: unknown; values?: unknown[][]; error?: { code: string; message: string; details?: Record<string, unknown> } };
  ms: number;
}

const F2 = '=LEN(SUBSTITUTE(REPT("a",32767),"a",REPT("b",32767)))';

let tg: TestGateway;
let writer: string;
let reader: string;

async function call(key: string, method: string, path: string, body?: unknown, base = tg): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${base.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Answer["body"], ms: performance.now() - started };
}

async function workbook(key: string, base = tg): Promise<string> {
  const created = await call(
    key,
    "POST",
    "/api/v1/spreadsheets",
    {
      name: "bounds",
      sheets: [
        {
          name: "Sheet1",
          values: [
            [1, 2],
            [3, 4],
          ],
        },
      ],
    },
    base,
  );
  expect(created.status).toBe(201);
  return (created.body as unknown as { id: string }).id;
}

beforeAll(async () => {
  tg = await startTestGateway();
  writer = await tg.key({ user: "owner", scopes: ["sheets:read", "sheets:write"] });
  reader = await tg.key({ user: "owner", scopes: ["sheets:read"] });
});
afterAll(() => tg?.close());

describe("F1: a formula over A1:XFD1000 is refused before its 16,384,000 cells are made", () => {
  it("on evaluate with only sheets:read: 413 naming SHEETS_MAX_ARRAY_CELLS, well within 10 s", async () => {
    const id = await workbook(writer);
    const refused = await call(reader, "POST", `/api/v1/spreadsheets/${id}/evaluate`, { formula: "=SUMPRODUCT(A1:XFD1000*1)" });
    expect(refused.status).toBe(413);
    expect(refused.body.error?.code).toBe("PAYLOAD_TOO_LARGE");
    expect(refused.body.error?.message).toMatch(
      /^The formula's evaluation would make an array of 16,384,000 cells.*SHEETS_MAX_ARRAY_CELLS/,
    );
    expect(refused.ms).toBeLessThan(10_000); // was 24–35 s; generous for a loaded machine
    // The worker is free at once: the next evaluate answers.
    expect((await call(reader, "POST", `/api/v1/spreadsheets/${id}/evaluate`, { formula: "=SUM(A1:B2)" })).body).toEqual({ value: 10 });
  });

  it("on a cell write: 413 naming the write, nothing written", async () => {
    const id = await workbook(writer);
    const refused = await call(writer, "PUT", `/api/v1/spreadsheets/${id}/values/C1`, { values: [["=SUMPRODUCT(A1:XFD1000*1)"]] });
    expect(refused.status).toBe(413);
    expect(refused.body.error?.message).toMatch(/^The write's recalculation would make an array of 16,384,000 cells.*nothing was written/);
    expect(refused.ms).toBeLessThan(10_000); // was 24–35 s; generous for a loaded machine
    expect((await call(reader, "GET", `/api/v1/spreadsheets/${id}/values/C1`)).body.values).toEqual([[null]]);
  });
});

describe("F2: text past 32,767 characters is #VALUE!, never a 500", () => {
  it("on REST evaluate", async () => {
    const id = await workbook(writer);
    const answer = await call(reader, "POST", `/api/v1/spreadsheets/${id}/evaluate`, { formula: F2 });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ value: { error: "#VALUE!" } });
    for (const formula of [
      '=LEN(REPT("ab",16384))',
      '=LEN(REPT("a",32767)&"b")',
      '=LEN(CONCAT(REPT("a",32767),"b"))',
      '=LEN(TEXTJOIN(",",TRUE,REPT("a",20000),REPT("b",20000)))',
    ])
      expect((await call(reader, "POST", `/api/v1/spreadsheets/${id}/evaluate`, { formula })).body, formula).toEqual({
        value: { error: "#VALUE!" },
      });
    expect((await call(reader, "POST", `/api/v1/spreadsheets/${id}/evaluate`, { formula: '=LEN(REPT("a",32767))' })).body).toEqual({
      value: 32767,
    });
  });

  it("on a cell write: 200, and the cell reads #VALUE!", async () => {
    const id = await workbook(writer);
    const written = await call(writer, "PUT", `/api/v1/spreadsheets/${id}/values/C1`, { values: [[F2]] });
    expect(written.status).toBe(200);
    expect((await call(reader, "GET", `/api/v1/spreadsheets/${id}/values/C1`)).body.values).toEqual([[{ error: "#VALUE!" }]]);
  });

  it("on MCP sheets_evaluate", async () => {
    const id = await workbook(writer);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${tg.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${reader}` } } }),
    );
    try {
      const result = await client.callTool({ name: "sheets_evaluate", arguments: { id, formula: F2 } });
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent).toEqual({ value: { error: "#VALUE!" } });
    } finally {
      await client.close();
    }
  });
});

describe("F10: a budget refusal names the job and the bound in force", () => {
  it("by default, 200,000,000 steps (SHEETS_MAX_STEPS), as docs/spreadsheets-engine.md says", async () => {
    const id = await workbook(writer);
    // 7,000 texts of 32,767 characters: 229 million characters made, each a step.
    const formula = '=SUMPRODUCT(LEN(REPT("a",SEQUENCE(7000)*0+32767)))';
    const refused = await call(reader, "POST", `/api/v1/spreadsheets/${id}/evaluate`, { formula });
    expect(refused.status).toBe(413);
    expect(refused.body.error?.message).toBe(
      "The formula's evaluation needs more than 200,000,000 computation steps (SHEETS_MAX_STEPS); nothing was computed.",
    );
  });

  it("SHEETS_MAX_STEPS sets the bound, for an evaluate and for a write", async () => {
    const small = await startTestGateway({ SHEETS_MAX_STEPS: "100000" });
    try {
      const key = await small.key({ user: "owner", scopes: ["sheets:read", "sheets:write"] });
      const id = await workbook(key, small);
      const formula = "=SUMPRODUCT(ROW(A1:A200000)*1)";
      const evaluated = await call(key, "POST", `/api/v1/spreadsheets/${id}/evaluate`, { formula }, small);
      expect(evaluated.status).toBe(413);
      expect(evaluated.body.error?.message).toBe(
        "The formula's evaluation needs more than 100,000 computation steps (SHEETS_MAX_STEPS); nothing was computed.",
      );
      const written = await call(key, "PUT", `/api/v1/spreadsheets/${id}/values/C1`, { values: [[formula]] }, small);
      expect(written.status).toBe(413);
      expect(written.body.error?.message).toBe(
        "The write's recalculation needs more than 100,000 computation steps (SHEETS_MAX_STEPS); nothing was written.",
      );
    } finally {
      await small.close();
    }
  });
});
