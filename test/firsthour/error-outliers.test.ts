// Issue 26 point 5: the error outliers. tRPC's wrong method is 405 METHOD_NOT_ALLOWED (not
// NOT_FOUND) and a wrong content type a whole JSON error (not text/plain, not cut off); GraphQL's
// bad JSON carries no `originalError`, and a request refused for its credential answers 401 with
// WWW-Authenticate to a client that accepts application/graphql-response+json (200 to
// application/json, as GraphQL over HTTP asks); one result shape per operation (files.search).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationOf } from "../../src/services/operations/index.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

let tg: TestGateway;
let key: string;
beforeAll(async () => {
  tg = await startTestGateway();
  key = await tg.key();
});
afterAll(() => tg.close());

const auth = () => ({ authorization: `Bearer ${key}` });

interface TrpcErrorBody {
  error: { message: string; data: { code: string; httpStatus: number; gatewayCode: string } };
}

describe("tRPC", () => {
  it.each([
    ["POST to a query", "POST", "documents.list", "GET"],
    ["GET of a mutation", "GET", "documents.create", "POST"],
  ])("%s → 405, Allow, gateway code METHOD_NOT_ALLOWED", async (_what, method, path, allow) => {
    const response = await fetch(`${tg.url}/trpc/${path}`, {
      method,
      headers: { ...auth(), ...(method === "POST" ? { "content-type": "application/json" } : {}) },
      ...(method === "POST" ? { body: "{}" } : {}),
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(allow);
    const body = (await response.json()) as TrpcErrorBody;
    expect(body.error.data).toMatchObject({ code: "METHOD_NOT_SUPPORTED", httpStatus: 405, gatewayCode: "METHOD_NOT_ALLOWED" });
  });

  it.each(["text/plain", "application/xml"])("a %s body → 415 as JSON, its message whole", async (type) => {
    const response = await fetch(`${tg.url}/trpc/documents.create`, {
      method: "POST",
      headers: { ...auth(), "content-type": type },
      body: '{"name":"a","markdown":"b"}',
    });
    expect(response.status).toBe(415);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await response.json()) as TrpcErrorBody;
    expect(body.error.data).toMatchObject({ httpStatus: 415, gatewayCode: "UNSUPPORTED_MEDIA_TYPE" });
    expect(body.error.message).toBe(`Unsupported content type "${type}": send application/json (multipart/form-data for uploads)`);
  });
});

describe("GraphQL", () => {
  const post = (headers: Record<string, string>, body: string) =>
    fetch(`${tg.url}/graphql`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

  it("a body that is not JSON: BAD_USER_INPUT, no originalError in its extensions", async () => {
    const response = await post({ ...auth(), accept: "application/graphql-response+json" }, "{bad");
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]!.extensions).toEqual({ code: "BAD_USER_INPUT" });
    expect(body.errors[0]!.message).toMatch(/invalid JSON/);
  });

  const viewer = JSON.stringify({ query: "{ viewer { id } }" });

  it.each([
    ["no credential", {}],
    ["an unknown key", { authorization: "Bearer wgk_unknownunknownunknownunknownunknown00" }],
  ])("%s, accepting application/graphql-response+json → 401 with WWW-Authenticate", async (_what, headers) => {
    const response = await post({ ...headers, accept: "application/graphql-response+json" }, viewer);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="workspace-gateway"');
    const body = (await response.json()) as { data: unknown; errors: { extensions: Record<string, unknown> }[] };
    expect(body.data).toBeNull();
    expect(body.errors[0]!.extensions).toEqual({ code: "UNAUTHENTICATED" });
  });

  it("the same for a client that accepts application/json (or anything) stays 200, as the spec asks", async () => {
    for (const accept of ["application/json", "*/*", "application/json, application/graphql-response+json"]) {
      const response = await post({ accept }, viewer);
      expect(response.status, accept).toBe(200);
      expect(response.headers.get("www-authenticate"), accept).toBeNull();
    }
    const preferred = await post({ accept: "application/graphql-response+json, application/json" }, viewer);
    expect(preferred.status).toBe(401);
  });

  it("a FORBIDDEN field among others keeps 200 and partial data", async () => {
    const response = await post(
      { ...auth(), accept: "application/graphql-response+json" },
      JSON.stringify({ query: "{ viewer { id } messages { edges { cursor } } }" }),
    );
    expect(response.status).toBe(200);
  });
});

describe("one result shape per operation", () => {
  it("files.search answers {files} on tRPC and MCP (GraphQL's searchFiles picks the list)", () => {
    const op = operationOf("files.search");
    expect(op.output.safeParse({ files: [] }).success).toBe(true);
    expect(op.output.safeParse([]).success).toBe(false);
    expect(op.mcp?.toResult).toBeUndefined();
    expect(op.graphql?.[0]).toMatchObject({ field: "Query.searchFiles", pick: "files" });
  });
});
