// The per-request read budget (REQUEST_READ_BUDGET_CHARS, src/core/read-budget.ts), on every
// surface: one request — a GraphQL query with aliases or a list of versions, a tRPC batch, an MCP
// JSON-RPC batch, a REST read — reads at most that many characters of document text. The reads
// that would go past it fail with PAYLOAD_TOO_LARGE naming the limit; the others are served; the
// next request has a whole budget again. A 390,000-character document against a 1,000,000 budget:
// two reads fit, the third crosses it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { plainText } from "./read-attack.ts";
import { mcpHeaders } from "./surfaces.ts";

const BUDGET = 1_000_000;
const CHARS = 390_000;
const MESSAGE = /^One request may read at most 1000000 characters of document text \(REQUEST_READ_BUDGET_CHARS\)/;

let tg: TestGateway;
let auth: string;
let id: string;

beforeAll(async () => {
  tg = await startTestGateway({ REQUEST_READ_BUDGET_CHARS: String(BUDGET), RENDER_WORKERS: "1" });
  auth = `Bearer ${await tg.key({ user: "budgeted" })}`;
  const created = await fetch(`${tg.url}/api/v1/documents`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json" },
    body: JSON.stringify({ name: "big", markdown: plainText(CHARS) }),
  });
  ({ id } = (await created.json()) as { id: string });
  // Two more versions of the same text.
  for (const version of [1, 2]) {
    await fetch(`${tg.url}/api/v1/documents/${id}`, {
      method: "PUT",
      headers: { authorization: auth, "content-type": "application/json", "if-match": `"v${version}"` },
      body: JSON.stringify({ name: `big ${version + 1}` }),
    });
  }
}, 120_000);
afterAll(() => tg?.close());

const count = <T>(items: T[], match: (item: T) => boolean) => items.filter(match).length;

describe(`REQUEST_READ_BUDGET_CHARS=${BUDGET}`, () => {
  it("GraphQL aliases: two texts are served, the others are PAYLOAD_TOO_LARGE with the limit", async () => {
    const fields = Array.from({ length: 4 }, (_, i) => `d${i}: document(id: "${id}") { text(maxChars: 400000) { totalChars } }`);
    const response = await fetch(`${tg.url}/graphql`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ query: `{ ${fields.join(" ")} }` }),
    });
    const body = (await response.json()) as {
      data: Record<string, { text: { totalChars: number } } | null>;
      errors: { message: string; extensions: { code: string; details: { limit: number } } }[];
    };
    expect(response.status).toBe(200);
    expect(count(Object.values(body.data), (d) => d?.text.totalChars === CHARS)).toBe(2);
    expect(body.errors).toHaveLength(2);
    for (const error of body.errors) {
      expect(error.extensions).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { limit: BUDGET } });
      expect(error.message).toMatch(MESSAGE);
    }
  });

  it("GraphQL versions: a list of three versions' text serves two within one request", async () => {
    const query = `{ document(id: "${id}") { versions(first: 3) { edges { node { version text(maxChars: 400000) { totalChars } } } } } }`;
    const response = await fetch(`${tg.url}/graphql`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    const body = (await response.json()) as { data: { document: null }; errors: { extensions: { code: string } }[] };
    // DocumentVersion.text is non-null: the version it fails on nulls the document, with its error.
    expect(body.data.document).toBeNull();
    expect(body.errors.map((e) => e.extensions.code)).toEqual(["PAYLOAD_TOO_LARGE"]);
    const two = await fetch(`${tg.url}/graphql`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ query: query.replace("first: 3", "first: 2") }),
    });
    expect(((await two.json()) as { errors?: unknown }).errors).toBeUndefined();
  });

  it("a tRPC batch: two reads are served, the others are PAYLOAD_TOO_LARGE", async () => {
    const n = 4;
    const input = Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i), { id, maxChars: 400_000 }]));
    const response = await fetch(
      `${tg.url}/trpc/${Array(n).fill("documents.read").join(",")}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`,
      { headers: { authorization: auth } },
    );
    const body = (await response.json()) as {
      result?: { data: { totalChars: number } };
      error?: { message: string; data: { gatewayCode: string } };
    }[];
    expect(count(body, (item) => item.result?.data.totalChars === CHARS)).toBe(2);
    const errors = body.flatMap((item) => (item.error ? [item.error] : []));
    expect(errors.map((e) => e.data.gatewayCode)).toEqual(["PAYLOAD_TOO_LARGE", "PAYLOAD_TOO_LARGE"]);
    expect(errors[0]?.message).toMatch(MESSAGE);
  });

  it("an MCP JSON-RPC batch of docs_read calls: two are served, the others are PAYLOAD_TOO_LARGE tool errors", async () => {
    const calls = Array.from({ length: 4 }, (_, i) => ({
      jsonrpc: "2.0",
      id: i + 1,
      method: "tools/call",
      params: { name: "docs_read", arguments: { id, maxChars: 400_000, ...(i % 2 ? { version: 2 } : {}) } },
    }));
    const response = await fetch(`${tg.url}/mcp`, {
      method: "POST",
      headers: { ...mcpHeaders, authorization: auth },
      body: JSON.stringify(calls),
    });
    const body = (await response.json()) as { result: { isError?: boolean; content: { text: string }[] } }[];
    expect(body).toHaveLength(4);
    expect(count(body, (m) => !m.result.isError)).toBe(2);
    const refused = body.filter((m) => m.result.isError).map((m) => m.result.content[0]!.text);
    expect(refused).toHaveLength(2);
    for (const text of refused) expect(text.replace(/^PAYLOAD_TOO_LARGE: /, "")).toMatch(MESSAGE);
  });

  it("REST: each request has its own budget — three reads in a row are each served", async () => {
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${tg.url}/api/v1/documents/${id}?maxChars=400000`, { headers: { authorization: auth } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { totalChars: number }).totalChars).toBe(CHARS);
    }
  });
});

describe("REQUEST_READ_BUDGET_CHARS smaller than a document", () => {
  let small: TestGateway;
  let smallAuth: string;
  let smallId: string;
  beforeAll(async () => {
    small = await startTestGateway({ REQUEST_READ_BUDGET_CHARS: "100000", RENDER_WORKERS: "1" });
    smallAuth = `Bearer ${await small.key()}`;
    const created = await fetch(`${small.url}/api/v1/documents`, {
      method: "POST",
      headers: { authorization: smallAuth, "content-type": "application/json" },
      body: JSON.stringify({ name: "big", markdown: plainText(CHARS) }),
    });
    ({ id: smallId } = (await created.json()) as { id: string });
  }, 120_000);
  afterAll(() => small?.close());

  it("REST answers 413 PAYLOAD_TOO_LARGE naming the limit when a read goes past it", async () => {
    const response = await fetch(`${small.url}/api/v1/documents/${smallId}?maxChars=200000`, { headers: { authorization: smallAuth } });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE", details: { limit: 100_000 } } });
  });
});

describe("REQUEST_READ_BUDGET_CHARS", () => {
  it("a value out of range stops the start, naming it", async () => {
    await expect(startTestGateway({ REQUEST_READ_BUDGET_CHARS: "10" })).rejects.toThrow(/REQUEST_READ_BUDGET_CHARS/);
  });
});
