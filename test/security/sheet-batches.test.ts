// Issue 37 F4: a tRPC batch of 40 × sheets.read of 100,000 cells (and the same as one MCP JSON-RPC
// batch) answered 18.7 MB / 37.5 MB with /healthz held for seconds. A batch now carries at most
// BATCH_MAX_CALLS calls (default 20; over it, none runs: PAYLOAD_TOO_LARGE), and one request's range
// reads share REQUEST_READ_BUDGET_CELLS (a read is cut to what is left, then refused), on tRPC, MCP
// and GraphQL (which takes no array of operations at all). Through real HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { SHEETS_SCOPES } from "../spreadsheets/surfaces.ts";
import { graphqlReadArray, mcpReadBatch, trpcReadBatch } from "./sheet-attacks.ts";
import { mcpHeaders } from "./surfaces.ts";

let tg: TestGateway;
let auth: string;
let id: string;

/** 10 rows × 100 columns: 1,000 cells. */
const csv = Array.from({ length: 10 }, (_, r) => Array.from({ length: 100 }, (_, c) => r * 100 + c).join(",")).join("\n");

beforeAll(async () => {
  tg = await startTestGateway({ REQUEST_READ_BUDGET_CELLS: "2500" });
  auth = `Bearer ${await tg.key({ user: "batcher", scopes: SHEETS_SCOPES })}`;
  const created = await fetch(`${tg.url}/api/v1/spreadsheets`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json" },
    body: JSON.stringify({ name: "batched", sheets: [{ name: "Sheet1", csv }] }),
  });
  expect(created.status).toBe(201);
  ({ id } = (await created.json()) as { id: string });
}, 60_000);
afterAll(() => tg?.close());

interface TrpcItem {
  result?: { data: { values: unknown[][]; truncated: boolean; nextCursor: string | null } };
  error?: { message: string; data: { gatewayCode: string; details?: unknown } };
}

async function trpcBatch(calls: number, maxCells: number): Promise<{ status: number; items: TrpcItem[] }> {
  const input = Object.fromEntries(Array.from({ length: calls }, (_, i) => [String(i), { id, range: "A1:CV10", maxCells }]));
  const response = await fetch(
    `${tg.url}/trpc/${Array(calls).fill("sheets.read").join(",")}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`,
    { headers: { authorization: auth } },
  );
  return { status: response.status, items: (await response.json()) as TrpcItem[] };
}

/** How many reads answered whole, cut short (and by how much), and refused. */
function tally(reads: ({ cells: number; truncated: boolean } | "refused")[]) {
  const answered = reads.filter((r) => r !== "refused");
  return {
    whole: answered.filter((r) => !r.truncated).length,
    cut: answered.filter((r) => r.truncated).map((r) => r.cells),
    refused: reads.length - answered.length,
  };
}

describe("BATCH_MAX_CALLS (default 20)", () => {
  it("a tRPC batch of 40 sheets.read (the finding) runs none of them: PAYLOAD_TOO_LARGE on each, naming the limit", async () => {
    const answer = await trpcReadBatch(tg.url, auth, id, 40);
    expect(answer.status).toBe(413);
    const items = JSON.parse(answer.body) as TrpcItem[];
    expect(items).toHaveLength(40);
    for (const item of items) {
      expect(item.error?.data).toMatchObject({ gatewayCode: "PAYLOAD_TOO_LARGE" });
      expect(item.error?.message).toMatch(/at most 20 calls \(BATCH_MAX_CALLS\); this batch has 40/);
    }
    // 20 is allowed (each within the cell budget or refused by it, never the batch bound).
    const twenty = await trpcBatch(20, 10);
    expect(twenty.items.every((item) => item.result)).toBe(true);
  });

  it("an MCP JSON-RPC batch of 40 sheets_read is one JSON-RPC error, HTTP 413, and no tool runs", async () => {
    const answer = await mcpReadBatch(tg.url, auth, id, 40);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({
      jsonrpc: "2.0",
      error: { code: -32600, data: { code: "PAYLOAD_TOO_LARGE", details: { limit: 20, calls: 40 } } },
      id: null,
    });
  });

  it("GraphQL takes no array of operations", async () => {
    const answer = await graphqlReadArray(tg.url, auth, id, 40);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ errors: [{ extensions: { code: "BAD_USER_INPUT" } }] });
    expect(answer.bytes).toBeLessThan(500);
  });
});

describe("REQUEST_READ_BUDGET_CELLS=2500 across one request's reads", () => {
  it("tRPC: four reads of 1,000 cells → two whole, one cut to the 500 left (with its cursor), one refused", async () => {
    const { items } = await trpcBatch(4, 1000);
    const reads = items.map((item) =>
      item.result ? { cells: item.result.data.values.flat().length, truncated: item.result.data.truncated } : ("refused" as const),
    );
    expect(tally(reads)).toEqual({ whole: 2, cut: [500], refused: 1 });
    const refused = items.find((item) => item.error)!;
    expect(refused.error?.data.gatewayCode).toBe("PAYLOAD_TOO_LARGE");
    expect(refused.error?.message).toMatch(/at most 2500 spreadsheet cells \(REQUEST_READ_BUDGET_CELLS\)/);
    // The next request has a whole budget again.
    expect(tally((await trpcBatch(2, 1000)).items.map((i) => ({ cells: 0, truncated: i.result!.data.truncated })))).toEqual({
      whole: 2,
      cut: [],
      refused: 0,
    });
  });

  it("MCP: the same batch as JSON-RPC: two whole, one cut, one refused tool result", async () => {
    const batch = Array.from({ length: 4 }, (_, i) => ({
      jsonrpc: "2.0",
      id: i + 1,
      method: "tools/call",
      params: { name: "sheets_read", arguments: { id, range: "A1:CV10", maxCells: 1000 } },
    }));
    const response = await fetch(`${tg.url}/mcp`, {
      method: "POST",
      headers: { ...mcpHeaders, authorization: auth },
      body: JSON.stringify(batch),
    });
    const answers = (await response.json()) as {
      result: { isError?: boolean; content: { text: string }[]; structuredContent?: { values: unknown[][]; truncated: boolean } };
    }[];
    const reads = answers.map((a) =>
      a.result.isError
        ? ("refused" as const)
        : { cells: a.result.structuredContent!.values.flat().length, truncated: a.result.structuredContent!.truncated },
    );
    expect(tally(reads)).toEqual({ whole: 2, cut: [500], refused: 1 });
    expect(answers.find((a) => a.result.isError)?.result.content[0]?.text).toMatch(/^PAYLOAD_TOO_LARGE: .*REQUEST_READ_BUDGET_CELLS/);
  });

  it("GraphQL: four aliases of a range → two whole, one cut, one PAYLOAD_TOO_LARGE field error", async () => {
    const fields = Array.from({ length: 4 }, (_, i) => `r${i}: range(range: "A1:CV10", maxCells: 1000) { values truncated }`);
    const response = await fetch(`${tg.url}/graphql`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ query: `{ spreadsheet(id: "${id}") { ${fields.join(" ")} } }` }),
    });
    const body = (await response.json()) as {
      data: { spreadsheet: Record<string, { values: unknown[][]; truncated: boolean } | null> | null };
      errors?: { extensions: { code: string } }[];
    };
    expect(body.errors?.map((e) => e.extensions.code)).toEqual(["PAYLOAD_TOO_LARGE"]);
    // CellRange is non-null: the refused alias nulls the spreadsheet, as any failed non-null field does.
    if (body.data.spreadsheet) {
      const reads = Object.values(body.data.spreadsheet).map((r) =>
        r ? { cells: r.values.flat().length, truncated: r.truncated } : ("refused" as const),
      );
      expect(tally(reads)).toEqual({ whole: 2, cut: [500], refused: 1 });
    }
  });
});
