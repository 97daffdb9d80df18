// Masked unexpected errors: the caller sees code INTERNAL and "Internal error", never the real
// message; the log gets the real error with the request id the response's X-Request-Id carries.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { loadConfig } from "../../src/core/config.ts";
import { GatewayError } from "../../src/core/errors.ts";
import { createLogger } from "../../src/core/logger.ts";
import type { DocumentRenderer } from "../../src/documents/renderer.ts";
import { createGateway } from "../../src/gateway.ts";
import { listen, type RunningServer } from "../../src/server.ts";

// The document's name picks the failure, so one gateway serves every case.
const failingRenderer: DocumentRenderer = {
  async render(_markdown, title) {
    if (title === "internal") {
      throw new GatewayError("INTERNAL", "Rendering failed", { cause: new Error("worker said: out of paper") });
    }
    throw new Error("renderer exploded: /secret/path");
  },
  async extract() {
    throw new Error("renderer exploded: /secret/path");
  },
  async close() {},
};

let dataDir: string;
let running: RunningServer;
let auth: string;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "wg-gql-errors-"));
  const logs = new PassThrough();
  logs.on("data", (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n").filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
  });
  const config = loadConfig({ DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "info", RATE_LIMIT_PER_MINUTE: "0" });
  const gateway = await createGateway(config, { logger: createLogger("info", logs), renderer: failingRenderer });
  running = await listen(gateway, { port: 0, host: "127.0.0.1", shutdownTimeoutMs: 2_000 });
  auth = `Bearer ${(await createApiKey(gateway.store, { userId: "alice", tenant: null, scopes: ["docs:write"], expiresInMs: null })).key}`;
});
afterAll(async () => {
  await running.stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function createDocument(name: string) {
  const response = await fetch(`${running.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/graphql-response+json", authorization: auth },
    body: JSON.stringify({
      query: `mutation ($name: String!) { createDocument(input: { name: $name, markdown: "# x" }) { id } }`,
      variables: { name },
    }),
  });
  const body = (await response.json()) as {
    data?: unknown;
    errors?: { message: string; path?: string[]; extensions?: Record<string, unknown> }[];
  };
  return { status: response.status, requestId: response.headers.get("x-request-id"), body };
}

/** The log line of the masked error, once pino has flushed it. */
async function loggedError(requestId: string) {
  for (let i = 0; i < 50; i++) {
    const line = logLines.find((l) => l["requestId"] === requestId && l["level"] === "error");
    if (line) return line;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no error logged for request ${requestId}: ${JSON.stringify(logLines)}`);
}

describe("unexpected errors are masked and logged with the request id", () => {
  it.each([
    ["a thrown Error", "boom", "renderer exploded: /secret/path"],
    ["a GatewayError with code INTERNAL", "internal", "Rendering failed: worker said: out of paper"],
  ])('%s → INTERNAL, "Internal error", and the cause in the log', async (_label, name, logged) => {
    const { status, requestId, body } = await createDocument(name);
    // Execution ran (data is null, not absent): GraphQL over HTTP answers 200.
    expect(status).toBe(200);
    expect(body.data).toBeNull();
    expect(body.errors).toEqual([
      { message: "Internal error", locations: expect.any(Array), path: ["createDocument"], extensions: { code: "INTERNAL" } },
    ]);
    expect(JSON.stringify(body)).not.toMatch(/exploded|secret|Rendering failed|paper/);

    expect(requestId).toBeTruthy();
    const line = await loggedError(requestId!);
    expect(line["msg"]).toBe("unexpected GraphQL error");
    expect((line["err"] as { message?: string }).message).toBe(logged);
    expect(line["path"]).toEqual(["createDocument"]);
  });

  it("gateway errors the caller caused keep their code and message, and are not logged as errors", async () => {
    const response = await fetch(`${running.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: auth, "x-request-id": "gql-forbidden-1" },
      body: JSON.stringify({ query: "{ documents(first: 1) { edges { cursor } } }" }),
    });
    const body = (await response.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
    expect(body.errors?.[0]).toMatchObject({ message: "This operation needs the docs:read scope", extensions: { code: "FORBIDDEN" } });
    await new Promise((r) => setTimeout(r, 50));
    expect(logLines.filter((l) => l["requestId"] === "gql-forbidden-1" && l["level"] === "error")).toEqual([]);
  });
});

describe("REST and tRPC mask them the same way", () => {
  it.each([
    ["a thrown Error", "boom"],
    ["a GatewayError with code INTERNAL", "internal"],
  ])('REST: %s → 500 INTERNAL "Internal error"', async (_label, name) => {
    const response = await fetch(`${running.url}/api/v1/documents`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: auth },
      body: JSON.stringify({ name, markdown: "# x" }),
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: "INTERNAL", message: "Internal error" } });
    await loggedError(response.headers.get("x-request-id")!);
  });

  it.each([
    ["a thrown Error", "boom"],
    ["a GatewayError with code INTERNAL", "internal"],
  ])('tRPC: %s → INTERNAL_SERVER_ERROR "Internal error"', async (_label, name) => {
    const response = await fetch(`${running.url}/trpc/documents.create`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: auth },
      body: JSON.stringify({ name, markdown: "# x" }),
    });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(text).not.toMatch(/exploded|secret|Rendering failed|paper/);
    const body = JSON.parse(text) as { error: { message: string; data: { code: string; gatewayCode: string } } };
    expect(body.error.message).toBe("Internal error");
    expect(body.error.data).toMatchObject({ code: "INTERNAL_SERVER_ERROR", gatewayCode: "INTERNAL" });
  });
});
