// GraphQL specifics: GraphQL-over-HTTP audits, limits, CSRF, masking, lazy text.
import { serverAudits } from "graphql-http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { graphqlLimits } from "../../src/graphql/surface.ts";
import { generateMarkdown } from "../fixtures/gen-markdown.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { graphqlRequest } from "../documents/graphql-driver.ts";

let tg: TestGateway;
let auth: string;

beforeAll(async () => {
  // No retention passes: the first runs 5 s after start, and on a loaded machine that can fall inside
  // a storeCallsDuring window below (a pruneIdempotency call that no request made).
  tg = await startTestGateway({ RETENTION_INTERVAL_MS: "0" });
  auth = `Bearer ${await tg.key()}`;
});
afterAll(() => tg.close());

describe("GraphQL over HTTP compliance (graphql-http serverAudits)", () => {
  // SHOULD/MAY audits that fail are listed, with the reason, in docs/guide.md ("GraphQL").
  const audits = serverAudits({ url: () => `${tg.url}/graphql` });
  for (const audit of audits.filter((a) => a.name.startsWith("MUST"))) {
    it(audit.name, async () => {
      const result = await audit.fn();
      expect(result.status, "response" in result ? String(result.reason) : "").toBe("ok");
    });
  }

  it("every SHOULD passes too; only the three GET MAYs docs/guide.md names do not", async () => {
    const notOk: string[] = [];
    for (const audit of audits) if ((await audit.fn()).status !== "ok") notOk.push(audit.name);
    expect(notOk.sort()).toEqual([
      "MAY accept application/x-www-form-urlencoded formatted GET requests",
      "MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting application/graphql-response+json",
      "MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting application/json",
    ]);
  });
});

describe("limits are enforced before execution, without touching the store", () => {
  const codeOf = (body: { errors?: { extensions?: { code?: string } }[] }) => body.errors?.[0]?.extensions?.code;

  // Every store method: authentication (findApiKeyByHash) and every read or write would show here.
  const storeMethods = [
    "documents.create",
    "findIdempotent",
    "documents.get",
    "documents.readText",
    "documents.readContent",
    "documents.list",
    "insertApiKey",
    "findApiKeyByHash",
    "listApiKeys",
    "revokeApiKey",
    "pruneIdempotency",
    "ping",
  ] as const;

  /** The spy on one of storeMethods: on the store, or on its documents. */
  function spyOn(method: (typeof storeMethods)[number]) {
    const [part, name] = method.split(".") as [string, string | undefined];
    const target = (name ? tg.gateway.store[part as "documents"] : tg.gateway.store) as unknown as Record<string, () => unknown>;
    return vi.spyOn(target, name ?? part);
  }

  /** Runs `request` and returns the store methods it called. */
  async function storeCallsDuring(request: () => Promise<unknown>): Promise<string[]> {
    const spies = storeMethods.map((method) => [method, spyOn(method)] as const);
    try {
      await request();
      return spies.filter(([, spy]) => spy.mock.calls.length > 0).map(([method]) => method);
    } finally {
      for (const [, spy] of spies) spy.mockRestore();
    }
  }

  it("(the spy sees a query that does run: authentication and the list)", async () => {
    const calls = await storeCallsDuring(() => graphqlRequest(tg.url, auth, "{ documents(first: 1) { edges { cursor } } }"));
    expect(calls).toEqual(["documents.list", "findApiKeyByHash"]);
  });

  it("a query nested 30 deep is refused", async () => {
    // Depth is counted before field resolution, so the nesting need not exist in the schema.
    const query = "{ " + "documents { edges { node { ".repeat(10) + "id" + " } } }".repeat(10) + " }";
    let result: Awaited<ReturnType<typeof graphqlRequest>> | undefined;
    expect(await storeCallsDuring(async () => (result = await graphqlRequest(tg.url, auth, query)))).toEqual([]);
    const { status, body } = result!;
    expect(status).toBe(400);
    expect(codeOf(body)).toBe("BAD_USER_INPUT");
    // Depth and cost both grow with nesting; whichever limit trips first refuses it.
    expect(
      body.errors?.some((e) => /depth|cost/i.test(e.message)),
      JSON.stringify(body.errors),
    ).toBe(true);
  });

  it("500 aliases are refused", async () => {
    const query = `{ ${Array.from({ length: 500 }, (_, i) => `a${i}: viewer { id }`).join(" ")} }`;
    let result: Awaited<ReturnType<typeof graphqlRequest>> | undefined;
    expect(await storeCallsDuring(async () => (result = await graphqlRequest(tg.url, auth, query)))).toEqual([]);
    const { status, body } = result!;
    expect(status).toBe(400);
    expect(codeOf(body)).toBe("BAD_USER_INPUT");
    expect(body.errors?.[0]?.message).toMatch(/alias/i);
  });

  it("a 1 MB body is refused with PAYLOAD_TOO_LARGE, as a GraphQL error, before parsing", async () => {
    const query = `{ viewer { id } } # ${"x".repeat(1_000_000)}`;
    let response: Response | undefined;
    const calls = await storeCallsDuring(async () => {
      response = await fetch(`${tg.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/graphql-response+json", authorization: auth },
        body: JSON.stringify({ query }),
      });
    });
    expect(calls).toEqual([]);
    expect(response!.status).toBe(413);
    expect(response!.headers.get("content-type")).toMatch(/^application\/graphql-response\+json/);
    expect(response!.headers.get("x-request-id")).toBeTruthy();
    expect(await response!.json()).toEqual({
      errors: [
        {
          message: `The request body is over the ${tg.config.GRAPHQL_BODY_LIMIT_BYTES}-byte limit`,
          extensions: { code: "PAYLOAD_TOO_LARGE", details: { limit: tg.config.GRAPHQL_BODY_LIMIT_BYTES } },
        },
      ],
    });
  });

  it("an out-of-range first is BAD_USER_INPUT named in GraphQL's words", async () => {
    for (const query of ["{ documents(first: 500) { edges { cursor } } }", "{ messages(first: 0) { edges { cursor } } }"]) {
      const { body } = await graphqlRequest(tg.url, auth, query);
      expect(codeOf(body), query).toBe("BAD_USER_INPUT");
      expect(body.errors?.[0]?.message, query).toBe("first: must be between 1 and 100");
    }
  });

  it("a syntax error is BAD_USER_INPUT", async () => {
    const { body } = await graphqlRequest(tg.url, auth, "{ viewer { ");
    expect(codeOf(body)).toBe("BAD_USER_INPUT");
  });

  // The read budget itself, on every surface, is test/security/read-budget.test.ts.
  it("aliases asking for more text than the read budget are refused before anything is read", async () => {
    const markdown = generateMarkdown(400_000);
    const created = await fetch(`${tg.url}/api/v1/documents`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ name: "big", markdown }),
    });
    const { id } = (await created.json()) as { id: string };
    const aliases = 20; // armor's alias limit
    const fields = Array.from({ length: aliases }, (_, i) => `d${i}: document(id: "${id}") { text(maxChars: 1000000) { totalChars } }`);
    const calls = await storeCallsDuring(async () => {
      const { status, body } = await graphqlRequest<Record<string, unknown>>(tg.url, auth, `{ ${fields.join(" ")} }`);
      expect(status).toBe(400);
      expect(body.data).toBeUndefined();
      expect(body.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", details: { limit: graphqlLimits.maxCost } });
      expect(body.errors?.[0]?.message).toMatch(/^Query cost \d+ is over the limit of 20000/);
    });
    expect(calls).toEqual([]);
    // One of them is within the limit and reads.
    const one = await graphqlRequest<{ d0: { text: { totalChars: number } } }>(tg.url, auth, `{ ${fields[0]} }`);
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data?.d0.text.totalChars).toBeGreaterThan(300_000);
  });
});

describe("CSRF prevention", () => {
  it("refuses a simple (non-preflighted) browser request without credentials or CSRF header", async () => {
    const response = await fetch(`${tg.url}/graphql?query=${encodeURIComponent("{ __typename }")}`, {
      headers: { accept: "application/graphql-response+json" },
    });
    expect(response.status).toBe(403);
  });

  it("allows a GET query that carries a bearer credential", async () => {
    const response = await fetch(`${tg.url}/graphql?query=${encodeURIComponent("{ viewer { id } }")}`, {
      headers: { accept: "application/graphql-response+json", authorization: auth },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { viewer: { id: "alice" } } });
  });
});

describe("viewer, errors and partial data", () => {
  it("viewer reports the credential", async () => {
    const { body } = await graphqlRequest(tg.url, auth, "{ viewer { id tenant scopes credentialKind verified } }");
    expect(body.data).toEqual({
      viewer: { id: "alice", tenant: null, scopes: ["docs:read", "docs:write"], credentialKind: "API_KEY", verified: true },
    });
  });

  it("no credential → UNAUTHENTICATED; introspection still works", async () => {
    const { status, body } = await graphqlRequest(tg.url, null, "{ viewer { id } }");
    expect(body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    // The request executed (data is present, null), refused for its credential as a whole: 401
    // to a client that accepts application/graphql-response+json (200 to application/json: see
    // test/firsthour/error-outliers.test.ts), unlike a request that never executed (a syntax
    // error: no data entry, 400).
    expect(status).toBe(401);
    expect(body).toHaveProperty("data", null);
    const syntax = await graphqlRequest(tg.url, null, "{ viewer { ");
    expect(syntax.status).toBe(400);
    expect(syntax.body).not.toHaveProperty("data");
    const intro = await graphqlRequest<{ __schema: { queryType: { name: string } } }>(tg.url, null, "{ __schema { queryType { name } } }");
    expect(intro.body.data?.__schema.queryType.name).toBe("Query");
  });

  it("a failing field leaves the others' data in place", async () => {
    const readOnly = `Bearer ${await tg.key({ user: "ro", scopes: ["docs:read"] })}`;
    const { body } = await graphqlRequest<{ viewer: { id: string }; document: null }>(
      tg.url,
      readOnly,
      `{ viewer { id } document(id: "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A") { id } }`,
    );
    expect(body.data).toEqual({ viewer: { id: "ro" }, document: null });
    expect(body.errors).toBeUndefined();
    const writeOnly = `Bearer ${await tg.key({ user: "wo", scopes: ["docs:write"] })}`;
    const partial = await graphqlRequest<{ viewer: { id: string }; document: null }>(
      tg.url,
      writeOnly,
      `{ viewer { id } document(id: "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A") { id } }`,
    );
    expect(partial.body.data).toEqual({ viewer: { id: "wo" }, document: null });
    expect(partial.body.errors?.[0]).toMatchObject({ path: ["document"], extensions: { code: "FORBIDDEN" } });
  });

  it("a document list that does not ask for text reads no text", async () => {
    const created = await graphqlRequest<{ createDocument: { id: string } }>(
      tg.url,
      auth,
      `mutation { createDocument(input: { name: "lazy", markdown: "# Lazy" }) { id } }`,
    );
    expect(created.body.errors).toBeUndefined();
    const store = tg.gateway.store;
    const original = store.documents.readText.bind(store);
    let reads = 0;
    store.documents.readText = async (...args) => {
      reads++;
      return original(...args);
    };
    try {
      await graphqlRequest(tg.url, auth, "{ documents(first: 10) { edges { node { id name } } } }");
      expect(reads).toBe(0);
      const withText = await graphqlRequest<{ documents: { edges: { node: { text: { text: string } } }[] } }>(
        tg.url,
        auth,
        "{ documents(first: 1) { edges { node { text(maxChars: 4) { text truncated } } } } }",
      );
      expect(withText.body.data?.documents.edges[0]?.node.text).toEqual({ text: "Lazy", truncated: false });
      expect(reads).toBe(1);
    } finally {
      store.documents.readText = original;
    }
  });
});

describe("Relay connections", () => {
  type Page = { documents: { edges: { cursor: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } };
  const page = async (key: string, after: string | null) =>
    (
      await graphqlRequest<Page>(
        tg.url,
        key,
        "query ($after: String) { documents(first: 2, after: $after) { edges { cursor } pageInfo { hasNextPage endCursor } } }",
        {
          after,
        },
      )
    ).body.data!.documents;

  it("endCursor is the last edge's cursor, on the last page too; null only without edges", async () => {
    const key = `Bearer ${await tg.key({ user: "pager" })}`;
    expect((await page(key, null)).pageInfo).toEqual({ hasNextPage: false, endCursor: null });
    for (const name of ["one", "two", "three"]) {
      const created = await graphqlRequest(tg.url, key, `mutation { createDocument(input: { name: "${name}", markdown: "x" }) { id } }`);
      expect(created.body.errors).toBeUndefined();
    }
    const first = await page(key, null);
    expect(first.pageInfo).toEqual({ hasNextPage: true, endCursor: first.edges[1]!.cursor });
    const last = await page(key, first.pageInfo.endCursor);
    expect(last.edges).toHaveLength(1);
    expect(last.pageInfo).toEqual({ hasNextPage: false, endCursor: last.edges[0]!.cursor });
    const beyond = await page(key, last.pageInfo.endCursor);
    expect(beyond).toEqual({ edges: [], pageInfo: { hasNextPage: false, endCursor: null } });
  });

  it("a cursor the API did not issue is BAD_USER_INPUT naming `after`", async () => {
    const key = `Bearer ${await tg.key({ user: "pager" })}`;
    const result = await graphqlRequest(tg.url, key, 'query { documents(after: "c1.bm90LWFuLWlk") { edges { cursor } } }');
    expect(result.body.errors?.[0]).toMatchObject({
      message: "after: not a cursor this API issued",
      path: ["documents"],
      extensions: { code: "BAD_USER_INPUT" },
    });
  });
});
