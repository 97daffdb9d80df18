// Trusted documents (docs/configuration.md "GraphQL: trusted documents"): operations by the sha256 hash of their
// text, as GraphQL-over-HTTP `documentId` or Apollo's APQ extension, from a manifest file; with
// GRAPHQL_TRUSTED_DOCUMENTS_ONLY nothing else runs. Limits, cost and CSRF prevention hold for them.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/core/config.ts";
import { documentHash, loadTrustedDocuments } from "../../src/graphql/trusted-documents.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

const VIEWER = "query Viewer { viewer { id } }";
const DOCUMENTS = "query Documents($first: Int) { documents(first: $first) { edges { node { id name } } } }";
const TOO_MANY_ALIASES = `query Aliases { ${Array.from({ length: 25 }, (_, i) => `a${i}: viewer { id }`).join(" ")} }`;
const TOO_COSTLY = "query Costly { documents(first: 100) { edges { node { text(maxChars: 1000000) { text } } } } }";
const OPERATIONS = [VIEWER, DOCUMENTS, TOO_MANY_ALIASES, TOO_COSTLY];

const dir = mkdtempSync(join(tmpdir(), "wg-trusted-"));
const manifest = join(dir, "persisted-documents.json");
writeFileSync(manifest, JSON.stringify(Object.fromEntries(OPERATIONS.map((text) => [documentHash(text), text]))));
// Apollo's persisted query list format, with one operation.
const apolloManifest = join(dir, "apollo-pql.json");
writeFileSync(
  apolloManifest,
  JSON.stringify({
    format: "apollo-persisted-query-manifest",
    version: 1,
    operations: [{ id: documentHash(VIEWER), name: "Viewer", type: "query", body: VIEWER }],
  }),
);

interface Body {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

let mixed: TestGateway;
let strict: TestGateway;
let mixedKey: string;
let strictKey: string;

beforeAll(async () => {
  mixed = await startTestGateway({ GRAPHQL_TRUSTED_DOCUMENTS_FILE: manifest, GRAPHQL_DOCUMENT_CACHE_SIZE: "2" });
  strict = await startTestGateway({ GRAPHQL_TRUSTED_DOCUMENTS_FILE: manifest, GRAPHQL_TRUSTED_DOCUMENTS_ONLY: "true" });
  mixedKey = await mixed.key();
  strictKey = await strict.key();
});
afterAll(async () => {
  await mixed.close();
  await strict.close();
});

async function post(tg: TestGateway, key: string, body: Record<string, unknown>): Promise<{ status: number; body: Body }> {
  const response = await fetch(`${tg.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/graphql-response+json", authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

const apq = (text: string) => ({ persistedQuery: { version: 1, sha256Hash: documentHash(text) } });

describe("operations by hash", () => {
  it("documentId (sha256:<hex> or the bare hex) and APQ's sha256Hash answer as the text does", async () => {
    const byText = await post(mixed, mixedKey, { query: VIEWER });
    expect(byText.body).toEqual({ data: { viewer: { id: "alice" } } });
    for (const request of [
      { documentId: `sha256:${documentHash(VIEWER)}` },
      { documentId: documentHash(VIEWER) },
      { extensions: apq(VIEWER) },
    ]) {
      const { status, body } = await post(mixed, mixedKey, request);
      expect(status).toBe(200);
      expect(body).toEqual(byText.body);
    }
    const withVariables = await post(mixed, mixedKey, { documentId: `sha256:${documentHash(DOCUMENTS)}`, variables: { first: 1 } });
    expect(withVariables.body).toEqual({ data: { documents: { edges: [] } } });
  });

  it("by GET: documentId and the APQ extension in the query string", async () => {
    for (const search of [`documentId=sha256:${documentHash(VIEWER)}`, `extensions=${encodeURIComponent(JSON.stringify(apq(VIEWER)))}`]) {
      const response = await fetch(`${mixed.url}/graphql?${search}`, {
        headers: { accept: "application/graphql-response+json", authorization: `Bearer ${mixedKey}` },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ data: { viewer: { id: "alice" } } });
    }
  });

  it("an unknown hash is PersistedQueryNotFound; an APQ client's retry with the text then runs", async () => {
    const text = "query NotInTheManifest { viewer { id } }";
    const missing = await post(mixed, mixedKey, { extensions: apq(text) });
    expect(missing.body.errors).toEqual([{ message: "PersistedQueryNotFound", extensions: { code: "PERSISTED_QUERY_NOT_FOUND" } }]);
    expect(missing.body.data).toBeUndefined();
    const byDocumentId = await post(mixed, mixedKey, { documentId: `sha256:${"0".repeat(64)}` });
    expect(byDocumentId.body.errors?.[0]?.message).toBe("PersistedQueryNotFound");
    const retried = await post(mixed, mixedKey, { query: text, extensions: apq(text) });
    expect(retried.body).toEqual({ data: { viewer: { id: "alice" } } });
  });

  it("neither a query nor a hash: BAD_USER_INPUT, 400", async () => {
    const { status, body } = await post(mixed, mixedKey, { variables: {} });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });
});

describe("GRAPHQL_TRUSTED_DOCUMENTS_ONLY=true", () => {
  it("runs the manifest's operations by hash and refuses any text, even one that is in the manifest", async () => {
    expect((await post(strict, strictKey, { documentId: `sha256:${documentHash(VIEWER)}` })).body).toEqual({
      data: { viewer: { id: "alice" } },
    });
    for (const request of [{ query: "{ viewer { id } }" }, { query: VIEWER }, { query: VIEWER, extensions: apq(VIEWER) }]) {
      const { status, body } = await post(strict, strictKey, request);
      expect(status).toBe(400);
      expect(body.data).toBeUndefined();
      expect(body.errors?.[0]?.extensions?.code).toBe("PERSISTED_QUERY_ID_REQUIRED");
    }
    expect((await post(strict, strictKey, { documentId: `sha256:${"1".repeat(64)}` })).body.errors?.[0]?.message).toBe(
      "PersistedQueryNotFound",
    );
  });

  it("the refusal's status follows the Accept header, as docs/configuration.md says: 400 for graphql-response+json, 200 for application/json", async () => {
    for (const [accept, status] of [
      ["application/graphql-response+json", 400],
      ["application/json", 200],
    ] as const) {
      for (const body of [{ query: VIEWER }, { documentId: `sha256:${"2".repeat(64)}` }]) {
        const response = await fetch(`${strict.url}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", accept, authorization: `Bearer ${strictKey}` },
          body: JSON.stringify(body),
        });
        expect(response.status).toBe(status);
        expect(((await response.json()) as Body).errors?.[0]?.extensions?.code).toMatch(/^PERSISTED_QUERY_(ID_REQUIRED|NOT_FOUND)$/);
      }
    }
  });

  it("registers nothing an APQ client sends: its hash with the text is refused, and the hash alone stays PersistedQueryNotFound", async () => {
    const text = "query NotTrusted { viewer { id tenant } }";
    const sent = await post(strict, strictKey, { query: text, extensions: apq(text) });
    expect(sent.body.errors?.[0]?.extensions?.code).toBe("PERSISTED_QUERY_ID_REQUIRED");
    expect((await post(strict, strictKey, { extensions: apq(text) })).body.errors?.[0]?.message).toBe("PersistedQueryNotFound");
  });

  it("an unauthenticated request by hash is still UNAUTHENTICATED", async () => {
    const response = await fetch(`${strict.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ documentId: `sha256:${documentHash(VIEWER)}` }),
    });
    expect(((await response.json()) as Body).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });
});

describe("protections hold for operations by hash", () => {
  it("the alias limit and the cost limit refuse a trusted document as they refuse its text", async () => {
    for (const gateway of [
      [mixed, mixedKey],
      [strict, strictKey],
    ] as const) {
      const aliases = await post(gateway[0], gateway[1], { documentId: documentHash(TOO_MANY_ALIASES) });
      expect(aliases.status).toBe(400);
      expect(aliases.body.errors?.[0]?.message).toMatch(/aliases/i);
      const costly = await post(gateway[0], gateway[1], { documentId: documentHash(TOO_COSTLY) });
      expect(costly.body.errors?.[0]?.message).toMatch(/Query cost \d+ is over the limit/);
    }
  });

  it("CSRF prevention: a simple browser GET by documentId without a credential or CSRF header is 403", async () => {
    const response = await fetch(`${strict.url}/graphql?documentId=sha256:${documentHash(VIEWER)}`, {
      headers: { accept: "application/graphql-response+json" },
    });
    expect(response.status).toBe(403);
  });
});

describe("the document cache (GRAPHQL_DOCUMENT_CACHE_SIZE=2 on the mixed gateway)", () => {
  it("operations cycling through more documents than it holds answer the same every time, compiled or not", async () => {
    const texts = ["{ viewer { id } }", "{ a: viewer { id } }", "{ b: viewer { id } }", VIEWER];
    const first = await Promise.all(texts.map(async (query) => (await post(mixed, mixedKey, { query })).body));
    for (let round = 0; round < 3; round++) {
      for (const [i, query] of texts.entries()) {
        expect((await post(mixed, mixedKey, round % 2 ? { query } : { query, extensions: apq(query) })).body).toEqual(first[i]);
      }
    }
    expect(first[1]).toEqual({ data: { a: { id: "alice" } } });
  });
});

describe("the manifest file", () => {
  it("reads GraphQL Code Generator's {hash: text} and Apollo's persisted query list", () => {
    expect([...loadTrustedDocuments(manifest).keys()].sort()).toEqual(OPERATIONS.map(documentHash).sort());
    expect(loadTrustedDocuments(apolloManifest)).toEqual(new Map([[documentHash(VIEWER), VIEWER]]));
  });

  it("refuses a hash that is not its text's, an empty manifest and a file that is not JSON, naming the variable", () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ [documentHash(VIEWER)]: "query Other { viewer { id } }" }));
    expect(() => loadTrustedDocuments(bad)).toThrow(/GRAPHQL_TRUSTED_DOCUMENTS_FILE .*is not the sha256 of its operation's text/);
    writeFileSync(bad, "{}");
    expect(() => loadTrustedDocuments(bad)).toThrow(/GRAPHQL_TRUSTED_DOCUMENTS_FILE .*no operations/);
    writeFileSync(bad, "not json");
    expect(() => loadTrustedDocuments(bad)).toThrow(/GRAPHQL_TRUSTED_DOCUMENTS_FILE .*not a readable JSON file/);
  });

  it("ONLY without a manifest is a configuration error", () => {
    expect(() => loadConfig({ GRAPHQL_TRUSTED_DOCUMENTS_ONLY: "true" })).toThrow(/GRAPHQL_TRUSTED_DOCUMENTS_ONLY/);
    expect(loadConfig({}).GRAPHQL_DOCUMENT_CACHE_SIZE).toBe(1024);
  });
});
