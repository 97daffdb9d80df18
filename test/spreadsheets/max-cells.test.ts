// Issue 37 F8: `maxCells` bounds cells, on every surface, through real HTTP. Whole rows and whole
// columns stop at the used range (`1:1048576` on a 2-row sheet answered 33,333 rows of nulls); a
// page may end inside a row and its cursor continues there (`A1:XFD1?maxCells=1` answered 16,384
// cells, `maxCells=5` on 6 columns answered 6); CSV and markdown answers say they were cut
// (`X-Truncated`, `Link: <…>; rel="next"`, markdown's last line), and every other surface says it
// in `truncated`/`nextCursor`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { graphql, mcp, rest, SHEETS_SCOPES, trpc, type Rest } from "./surfaces.ts";

let tg: TestGateway;
let key: string;
let api: Rest;
let small: string;
let wide: string;

const ROWS = [
  [1, 2, 3, 4, 5, 6],
  [7, 8, 9, 10, 11, 12],
];

beforeAll(async () => {
  tg = await startTestGateway();
  key = await tg.key({ user: "pager", scopes: SHEETS_SCOPES });
  api = rest(tg.url, key);
  const create = async (values: unknown[][]) => {
    const created = await api.call<{ id: string }>("POST", "/api/v1/spreadsheets", { name: "paged", sheets: [{ name: "Sheet1", values }] });
    expect(created.status).toBe(201);
    return created.body.id;
  };
  small = await create([
    ["a", "b", "c"],
    [1, 2, 3],
  ]);
  wide = await create(ROWS);
}, 60_000);
afterAll(() => tg?.close());

interface RangeBody {
  range: string;
  values: unknown[][];
  truncated: boolean;
  nextCursor: string | null;
}

const values = (id: string, range: string, query = "") =>
  api.call<RangeBody>("GET", `/api/v1/spreadsheets/${id}/values/${encodeURIComponent(range)}${query}`);

describe("maxCells bounds cells (REST)", () => {
  it("whole rows and whole columns stop at the used range: 1:1048576 and A:XFD on a 2-row sheet answer its 2 rows", async () => {
    for (const range of ["1:1048576", "A:XFD", "1:5", "A1:XFD"]) {
      const read = await values(small, range, "?maxCells=100000");
      expect({ range, status: read.status }).toEqual({ range, status: 200 });
      expect(read.body).toEqual({
        range: "Sheet1!A1:C2",
        values: [
          ["a", "b", "c"],
          [1, 2, 3],
        ],
        truncated: false,
        nextCursor: null,
      });
    }
  });

  it("A1:XFD1 with maxCells=1 answers one cell, and its cursor goes on from B1", async () => {
    const first = await values(wide, "A1:XFD1", "?maxCells=1");
    expect(first.body).toMatchObject({ range: "Sheet1!A1", values: [[1]], truncated: true });
    const second = await values(wide, "A1:XFD1", `?maxCells=1&cursor=${first.body.nextCursor}`);
    expect(second.body).toMatchObject({ range: "Sheet1!B1", values: [[2]], truncated: true });
  });

  it("maxCells=5 on a 6-column range answers 5 cells; the pages, followed, give every cell once", async () => {
    const first = await values(wide, "A1:F2", "?maxCells=5");
    expect(first.body).toMatchObject({ range: "Sheet1!A1:E1", values: [[1, 2, 3, 4, 5]], truncated: true });
    const seen: unknown[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { body: RangeBody } = await values(wide, "A1:F2", `?maxCells=5${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.body.values.flat().length).toBeLessThanOrEqual(5);
      seen.push(...page.body.values.flat());
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual(ROWS.flat());
    // Whole rows when they fit: maxCells=12 is both rows at once.
    expect((await values(wide, "A1:F2", "?maxCells=12")).body).toMatchObject({ range: "Sheet1!A1:F2", truncated: false });
  });

  it("CSV and markdown say they were cut: X-Truncated and a Link to the next page; markdown's last line too", async () => {
    const csv = await values(wide, "A1:F2", "?format=csv&maxCells=6");
    expect(csv.status).toBe(200);
    expect(csv.text).toBe("1,2,3,4,5,6\r\n");
    expect(csv.headers.get("x-truncated")).toBe("true");
    const link = /^<([^>]+)>; rel="next"$/.exec(csv.headers.get("link") ?? "");
    expect(link).not.toBeNull();
    const next = await api.call("GET", link![1]!);
    expect(next.text).toBe("7,8,9,10,11,12\r\n");
    expect(next.headers.get("x-truncated")).toBeNull();
    expect(next.headers.get("link")).toBeNull();

    const markdown = await values(wide, "A1:F2", "?format=markdown&maxCells=6");
    expect(markdown.headers.get("x-truncated")).toBe("true");
    expect(markdown.headers.get("link")).toMatch(/rel="next"$/);
    expect(markdown.text.trimEnd().split("\n").at(-1)).toMatch(/^_Truncated after 6 cells: more remain; read again with cursor r3\.\S+_$/);
    const whole = await values(wide, "A1:F2", "?format=markdown");
    expect(whole.headers.get("x-truncated")).toBeNull();
    expect(whole.text).not.toMatch(/Truncated/);
  });
});

describe("maxCells on the other surfaces: truncated and nextCursor in the result", () => {
  it("GraphQL: a range cut inside a row", async () => {
    const answer = await graphql(
      tg.url,
      key,
    )<{ spreadsheet: { range: RangeBody } }>(
      `{ spreadsheet(id: "${wide}") { range(range: "A1:F2", maxCells: 5) { range values truncated nextCursor } } }`,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.spreadsheet.range).toMatchObject({ range: "Sheet1!A1:E1", values: [[1, 2, 3, 4, 5]], truncated: true });
    expect(answer.data?.spreadsheet.range.nextCursor).toMatch(/^r3\./);
  });

  it("tRPC: CSV cut at maxCells says truncated, with the cursor", async () => {
    const read = (await trpc(tg.url, key).sheets.read.query({ id: wide, range: "A1:XFD1", format: "csv", maxCells: 2 })) as {
      text: string;
      truncated: boolean;
      nextCursor: string | null;
    };
    expect(read).toMatchObject({ text: "1,2\r\n", truncated: true, nextCursor: expect.stringMatching(/^r3\./) });
  });

  it("MCP: markdown cut at maxCells says so in the result and on its last line", async () => {
    const client = await mcp(tg.url, key);
    try {
      const answer = await client.call("sheets_read", { id: wide, range: "A1:F2", format: "markdown", maxCells: 3 });
      expect(answer.isError).toBe(false);
      expect(answer.structured).toMatchObject({ range: "Sheet1!A1:C1", truncated: true, nextCursor: expect.stringMatching(/^r3\./) });
      expect(String(answer.structured?.["text"]).trimEnd().split("\n").at(-1)).toMatch(/^_Truncated after 3 cells/);
      expect(answer.text).toMatch(/more cells remain/);
    } finally {
      await client.close();
    }
  });
});
