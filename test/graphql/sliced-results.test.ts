// Large GraphQL answers are written in slices, not by one JSON.stringify (issue 37 F5;
// src/graphql/sliced-results.ts), through real HTTP: while the gateway answers a query of three
// 20,000-cell ranges, no single JSON.stringify call on the gateway's thread writes more than a
// small piece of it, and the bytes are exactly those JSON.stringify writes. A small answer is
// written at once, and an answer with errors beside its data keeps yoga's status and errors.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

let tg: TestGateway;
let auth: string;
let id: string;

beforeAll(async () => {
  tg = await startTestGateway({ RETENTION_INTERVAL_MS: "0" });
  auth = `Bearer ${await tg.key({ scopes: ["sheets:read", "sheets:write"] })}`;
  const values = Array.from({ length: 200 }, (_, r) => Array.from({ length: 100 }, (_, c) => (c % 2 ? `t${r}.${c}` : r * 100 + c + 0.5)));
  const made = await fetch(`${tg.url}/api/v1/spreadsheets`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json" },
    body: JSON.stringify({ name: "grid", sheets: [{ name: "Sheet1", values }] }),
  });
  expect(made.status).toBe(201);
  id = ((await made.json()) as { id: string }).id;
});
afterAll(() => tg.close());

/** The longest text any JSON.stringify call on this thread (the gateway's) returned until stopped. */
let longest = 0;
const original = JSON.stringify;
function watchStringify(): void {
  longest = 0;
  JSON.stringify = ((...args: Parameters<typeof original>) => {
    const text = original(...args);
    if (typeof text === "string") longest = Math.max(longest, text.length);
    return text;
  }) as typeof JSON.stringify;
}
afterEach(() => {
  JSON.stringify = original;
});

const post = async (body: unknown, accept = "application/json") => {
  const text = original(body);
  watchStringify();
  const response = await fetch(`${tg.url}/graphql`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json", accept },
    body: text,
  });
  const answer = await response.text();
  JSON.stringify = original;
  return { response, answer };
};

const ranges = (aliases: string[], range = "A1:CV200") =>
  `{ ${aliases.map((alias) => `${alias}: spreadsheet(id: "${id}") { range(range: "${range}", maxCells: 100000) { values truncated } }`).join(" ")} }`;

describe("GraphQL answers in slices", () => {
  it("three 20,000-cell ranges: no single JSON.stringify writes the answer, and its bytes are JSON.stringify's", async () => {
    const { response, answer } = await post({ query: ranges(["a", "b", "c"]) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(answer.length).toBeGreaterThan(500_000);
    const parsed = JSON.parse(answer) as { data: { a: { range: { values: unknown[][] } } } };
    expect(parsed.data.a.range.values).toHaveLength(200);
    expect(original(parsed)).toBe(answer);
    // Pieces of a row at most: the whole answer (or one range of it) was never one call's work.
    expect(longest).toBeLessThan(20_000);
  });

  it("with application/graphql-response+json, errors beside large data: yoga's status, headers and errors, the same bytes", async () => {
    const query = `{ a: spreadsheet(id: "${id}") { range(range: "A1:CV200", maxCells: 100000) { values } } b: spreadsheet(id: "${id}") { range(range: "A1:ZZZZ9") { values } } }`;
    const { response, answer } = await post({ query }, "application/graphql-response+json");
    expect(response.headers.get("content-type")).toBe("application/graphql-response+json; charset=utf-8");
    const parsed = JSON.parse(answer) as { data: { a: unknown; b: unknown }; errors: { path: string[] }[] };
    expect(parsed.errors[0]?.path).toEqual(["b", "range"]);
    expect(parsed.data.b).toBeNull();
    expect(original(parsed)).toBe(answer);
    expect(longest).toBeLessThan(20_000);
  });

  it("a small answer is written at once, as before", async () => {
    const { response, answer } = await post({ query: ranges(["a"], "A1:B2") });
    expect(response.status).toBe(200);
    expect(longest).toBe(answer.length);
  });
});
