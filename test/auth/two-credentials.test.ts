// Two credentials on one request (contract §2, docs/api.md "Credentials"): a personal API key as the
// bearer and a product access token in X-Access-Token. Documents and spreadsheet operations
// authorise with the key (they are its user's), product operations forward the token (never the
// key) — on REST, GraphQL, tRPC and MCP over HTTP; the header is never logged. The stdio servers
// take the same pair (test/mcp/two-credentials-stdio.test.ts, test/deploy/mcp-package.test.ts).
import { Writable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayClient } from "../../src/client/index.ts";
import { createLogger } from "../../src/core/logger.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { expectPairSession } from "../mcp/mcp-cases.ts";
import { JWT_SECRET, signAccessToken, writeTenantsFile } from "../products/harness.ts";
import { startSandbox, type Sandbox } from "../sandbox/index.ts";

const ALL_SCOPES = ["docs:read", "docs:write", "sheets:read", "sheets:write"];

let sandbox: Sandbox;
let tg: TestGateway;
let token: string;
let key: string;
const logged: string[] = [];

beforeAll(async () => {
  token = await signAccessToken({ sub: "user-1", tenant: "acme" });
  sandbox = await startSandbox({ tokens: [token], tenants: { acme: { tokens: [token] } } });
  // Every log line at debug, to look for the token in (the header must never be in one).
  const logTo = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(chunk.toString());
      done();
    },
  });
  tg = await startTestGateway(
    {
      API_URL: sandbox.url,
      TENANTS_FILE: writeTenantsFile({ acme: sandbox.tenantBaseUrl("acme") }),
      JWT_SECRET,
      RENDER_WORKERS: "1",
      LOG_LEVEL: "debug",
    },
    { logTo },
  );
  key = await tg.key({ user: "pair-user", scopes: ALL_SCOPES });
});
afterAll(async () => {
  await tg?.close();
  await sandbox?.close();
});

const pair = () => ({ authorization: `Bearer ${key}`, "x-access-token": token });
const driveFile = () => sandbox.data.files[0]!;
const driveWord = () =>
  driveFile()
    .name.split(/[^A-Za-z0-9]+/)
    .find((w) => w.length > 3) ?? driveFile().name;

/** Nothing the upstream received carried the key; every request carried the token. */
function expectUpstreamSawTokenOnly(): void {
  expect(sandbox.requests.length).toBeGreaterThan(0);
  for (const request of sandbox.requests) {
    expect(JSON.stringify(request.headers)).not.toContain(key);
    expect(request.headers["authorization"]).toBe(`Bearer ${token}`);
  }
}

describe("a personal API key with X-Access-Token", () => {
  it("REST: a document is the key's user's; a drive file's content is fetched with the token", async () => {
    sandbox.clearRequests();
    const created = await fetch(`${tg.url}/api/v1/documents`, {
      method: "POST",
      headers: { ...pair(), "content-type": "application/json" },
      body: JSON.stringify({ name: "REST pair", markdown: "# Hello" }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    // The key alone reads it: it is the key's user's document.
    expect((await fetch(`${tg.url}/api/v1/documents/${id}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    const content = await fetch(`${tg.url}/api/v1/files/${driveFile().id}/content`, { headers: pair() });
    expect(content.status).toBe(200);
    await content.arrayBuffer();
    expectUpstreamSawTokenOnly();
    // The key alone cannot reach a product.
    const alone = await fetch(`${tg.url}/api/v1/files/${driveFile().id}/content`, { headers: { authorization: `Bearer ${key}` } });
    expect(alone.status).toBe(403);
  });

  it("GraphQL: one request creates a document (the key) and searches the drive (the token)", async () => {
    sandbox.clearRequests();
    const response = await fetch(`${tg.url}/graphql`, {
      method: "POST",
      headers: { ...pair(), "content-type": "application/json", accept: "application/graphql-response+json" },
      body: JSON.stringify({ query: `mutation { createDocument(input: { name: "GraphQL pair", markdown: "x" }) { id } }` }),
    });
    const body = (await response.json()) as { data?: { createDocument: { id: string } }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    const search = await fetch(`${tg.url}/graphql`, {
      method: "POST",
      headers: { ...pair(), "content-type": "application/json", accept: "application/graphql-response+json" },
      body: JSON.stringify({
        query: `query ($q: String!) { viewer { id } searchFiles(query: $q) { id } documents { edges { node { name } } } }`,
        variables: { q: driveWord() },
      }),
    });
    const found = (await search.json()) as {
      data?: { viewer: { id: string }; searchFiles: { id: string }[]; documents: { edges: { node: { name: string } }[] } };
    };
    // The viewer is the key's user: the token does not change who the caller is.
    expect(found.data?.viewer.id).toBe("pair-user");
    expect(found.data?.searchFiles.map((f) => f.id)).toContain(driveFile().id);
    expect(found.data?.documents.edges.map((e) => e.node.name)).toContain("GraphQL pair");
    expectUpstreamSawTokenOnly();
  });

  it("GraphQL upload: uploadFile sends the file with the token, even for a key with no upload scope of its own", async () => {
    sandbox.clearRequests();
    const reader = await tg.key({ user: "pair-reader", scopes: ["sheets:read"] });
    const form = new FormData();
    form.append(
      "operations",
      JSON.stringify({ query: "mutation ($file: Upload!) { uploadFile(file: $file) { id name } }", variables: { file: null } }),
    );
    form.append("map", JSON.stringify({ 0: ["variables.file"] }));
    form.append("0", new Blob(["pair upload"], { type: "text/plain" }), "pair.txt");
    const response = await fetch(`${tg.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${reader}`, "x-access-token": token, "apollo-require-preflight": "true" },
      body: form,
    });
    const body = (await response.json()) as { data?: { uploadFile: { name: string } }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(body.data?.uploadFile.name).toBe("pair.txt");
    expect(JSON.stringify(sandbox.requests.map((r) => r.headers))).not.toContain(reader);
    expectUpstreamSawTokenOnly();
  });

  it("tRPC (the typed client's accessToken option): a spreadsheet with the key, the drive with the token, in one batch", async () => {
    sandbox.clearRequests();
    const client = createGatewayClient({ url: tg.url, token: key, accessToken: token });
    const sheet = await client.sheets.create.mutate({ name: "tRPC pair", sheets: [{ name: "S", values: [["a", 1]] }] });
    const [range, files] = await Promise.all([
      client.sheets.read.query({ id: sheet.id, range: "A1:B1" }),
      client.files.search.query({ query: driveWord() }),
    ]);
    expect(JSON.stringify(range)).toContain('"a"');
    expect(files.files.map((f) => f.id)).toContain(driveFile().id);
    expectUpstreamSawTokenOnly();
  });

  it("MCP over HTTP: one session lists every tool the pair allows, creates a document, reads a spreadsheet and searches the drive", async () => {
    sandbox.clearRequests();
    const client = new Client({ name: "pair-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${tg.url}/mcp`), { requestInit: { headers: pair() } }));
    try {
      expect(client.getInstructions()).not.toMatch(/Not offered/);
      const { documentId } = await expectPairSession(client, driveWord());
      expect((await fetch(`${tg.url}/api/v1/documents/${documentId}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      expectUpstreamSawTokenOnly();
    } finally {
      await client.close();
    }
  });
});

describe("refused pairs (401, nothing sent upstream)", () => {
  it("a key in X-Access-Token, an access token as the bearer beside one, an invalid or malformed token", async () => {
    sandbox.clearRequests();
    const expired = await signAccessToken({ sub: "user-1", tenant: "acme" }, { exp: Math.floor(Date.now() / 1000) - 60 });
    const cases: [Record<string, string>, RegExp][] = [
      [{ authorization: `Bearer ${key}`, "x-access-token": key }, /not a personal API key/],
      [{ authorization: `Bearer ${token}`, "x-access-token": token }, /beside a personal API key/],
      [{ authorization: `Bearer ${key}`, "x-access-token": expired }, /expired/i],
      [{ authorization: `Bearer ${key}`, "x-access-token": `Bearer ${token}` }, /Malformed X-Access-Token/],
    ];
    for (const [headers, message] of cases) {
      for (const path of ["/api/v1/documents", "/trpc/viewer"]) {
        const response = await fetch(`${tg.url}${path}`, { headers });
        expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(JSON.stringify(await response.json())).toMatch(message);
      }
    }
    expect(sandbox.requests).toEqual([]);
  });
});

describe("logs", () => {
  it("the token never appears in a log line (debug level, after every request above)", () => {
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join("")).not.toContain(token);
  });

  it("the logger redacts X-Access-Token and an accessToken field wherever they sit", () => {
    const lines: string[] = [];
    const logger = createLogger(
      "info",
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    logger.info(
      { req: { headers: { "x-access-token": "secret-1" } }, call: { accessToken: "secret-2" }, headers: { "x-access-token": "secret-3" } },
      "x",
    );
    logger.flush();
    expect(lines.join("")).not.toMatch(/secret-\d/);
    expect(lines.join("")).toContain("[redacted]");
  });
});
