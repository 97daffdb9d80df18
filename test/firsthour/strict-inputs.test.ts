// Issue 14 part 4: strict inputs that help (unknown field → BAD_USER_INPUT naming it and the
// closest known one, on REST, tRPC and MCP as on GraphQL), 405 with Allow, and GET /.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TRPCClientError } from "@trpc/client";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayClient } from "../../src/client/index.ts";
import { closestName, editDistance } from "../../src/core/strict-object.ts";
import { graphqlRequest } from "../documents/graphql-driver.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { root } from "../helpers/process.ts";
import { startProductsEnv } from "../products/harness.ts";

let tg: TestGateway;
let key: string;
beforeAll(async () => {
  tg = await startTestGateway();
  key = await tg.key();
});
afterAll(() => tg.close());

const NMAE = 'unknown field "nmae" (did you mean "name"?)';
const auth = () => ({ authorization: `Bearer ${key}` });

describe("did you mean", () => {
  it("counts a swap as one edit and suggests only close names", () => {
    expect(editDistance("nmae", "name")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(closestName("nmae", ["name", "markdown", "idempotencyKey"])).toBe("name");
    expect(closestName("maxchars", ["id", "maxChars"])).toBe("maxChars");
    expect(closestName("idempotency_key", ["name", "markdown", "idempotencyKey"])).toBe("idempotencyKey");
    expect(closestName("colour", ["name", "markdown"])).toBeUndefined();
    expect(closestName("x", ["id", "q"])).toBeUndefined();
  });
});

describe("unknown fields", () => {
  it("REST: a body field and a query parameter, 400 BAD_USER_INPUT naming both the field and the closest one", async () => {
    const created = await fetch(`${tg.url}/api/v1/documents`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify({ nmae: "Plan", markdown: "# Plan" }),
    });
    expect(created.status).toBe(400);
    const body = (await created.json()) as { error: { code: string; message: string; details: { path: string; message: string }[] } };
    expect(body.error.code).toBe("BAD_USER_INPUT");
    expect(body.error.message).toBe(NMAE);
    expect(body.error.details[0]).toEqual({ path: "", message: NMAE });

    const listed = await fetch(`${tg.url}/api/v1/documents?limt=5`, { headers: auth() });
    expect(listed.status).toBe(400);
    expect(((await listed.json()) as { error: { message: string } }).error.message).toBe('unknown field "limt" (did you mean "limit"?)');
  });

  it("tRPC: the same message, data.gatewayCode BAD_USER_INPUT", async () => {
    const client = createGatewayClient({ url: tg.url, token: key });
    const error = await client.documents.create.mutate({ nmae: "Plan", markdown: "# Plan" } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    const { message, data } = error as TRPCClientError<never> & { data: { code: string; gatewayCode: string } };
    expect(message).toBe(NMAE);
    expect(data).toMatchObject({ code: "BAD_REQUEST", gatewayCode: "BAD_USER_INPUT" });
  });

  it("tRPC: a product procedure too (calendar.events), before any upstream call", async () => {
    const env = await startProductsEnv();
    try {
      const client = createGatewayClient({ url: env.gateway.url, token: env.token });
      const error = await client.calendar.events.query({ limt: 5 } as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TRPCClientError);
      const { message, data } = error as TRPCClientError<never> & { data: { code: string; gatewayCode: string } };
      expect(message).toBe('unknown field "limt" (did you mean "limit"?)');
      expect(data).toMatchObject({ code: "BAD_REQUEST", gatewayCode: "BAD_USER_INPUT" });
      expect(env.sandbox.requests).toEqual([]);
    } finally {
      await env.close();
    }
  });

  it("MCP: the tool result names the field; tools/list advertises additionalProperties: false", async () => {
    const mcp = new Client({ name: "t", version: "1" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${tg.url}/mcp`), { requestInit: { headers: auth() } }));
    const { tools } = await mcp.listTools();
    for (const tool of tools) expect(tool.inputSchema, tool.name).toMatchObject({ type: "object", additionalProperties: false });
    const result = await mcp.callTool({ name: "docs_create", arguments: { nmae: "Plan", markdown: "# Plan" } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: `BAD_USER_INPUT: ${NMAE}` }]);
    await mcp.close();
  });

  it("GraphQL already refuses them, with its own suggestion", async () => {
    const { body } = await graphqlRequest(
      tg.url,
      `Bearer ${key}`,
      `mutation { createDocument(input: { nmae: "Plan", markdown: "#" }) { id } }`,
    );
    expect(body.errors?.every((e) => e.extensions?.code === "BAD_USER_INPUT")).toBe(true);
    expect(body.errors?.map((e) => e.message)).toContainEqual(expect.stringMatching(/nmae.*Did you mean "name"/));
  });
});

describe("405 Method Not Allowed", () => {
  it.each([
    ["DELETE", "/api/v1/documents", "GET, POST, HEAD"],
    ["POST", "/api/v1/documents/doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A", "GET, PUT, PATCH, DELETE, HEAD"],
    ["PUT", "/api/v1/documents/doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A/versions", "GET, HEAD"],
    ["GET", "/api/v1/documents/doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A/versions/2/restore", "POST"],
    ["POST", "/api/v1/trash", "GET, HEAD"],
    ["POST", "/api/v1/shared/wgs_x", "GET, HEAD"],
    ["DELETE", "/api/v1/documents/doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A/content", "GET, HEAD"],
    ["POST", "/api/v1/files/f1/content", "GET, HEAD"],
  ])("%s %s → 405 with Allow: %s", async (method, path, allow) => {
    const response = await fetch(`${tg.url}${path}`, { method, headers: auth() });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(allow);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error).toMatchObject({ code: "METHOD_NOT_ALLOWED", message: `${method} is not allowed on ${path}; allowed: ${allow}` });
  });

  it("a path that does not exist is still 404", async () => {
    expect((await fetch(`${tg.url}/api/v1/nothing`, { method: "DELETE" })).status).toBe(404);
  });
});

describe("GET /", () => {
  it("answers JSON links by default", async () => {
    const response = await fetch(`${tg.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("vary")).toMatch(/Accept/);
    const body = (await response.json()) as { name: string; links: Record<string, { href: string }> };
    expect(body.name).toBe("workspace-gateway");
    expect(body.links).toMatchObject({
      graphql: { href: "/graphql" },
      openapi: { href: "/api/v1/openapi.json" },
      mcp: { href: "/mcp" },
      trpc: { href: "/trpc" },
      // The operators' endpoint is linked too (issue 26 point 6).
      metrics: { href: "/metrics" },
      health: { href: "/healthz" },
    });
  });

  it("answers HTML to a browser", async () => {
    const response = await fetch(`${tg.url}/`, {
      headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" },
    });
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<a href="/graphql">');
    expect(html).toContain('<a href="/api/v1/openapi.json">');
    expect(html).toContain('<a href="/docs/api.md">');
  });

  it("links the docs, which the gateway serves read-only as Markdown", async () => {
    const body = (await (await fetch(`${tg.url}/`)).json()) as { docs: Record<string, { href: string; title: string }> };
    expect(body.docs).toMatchObject({
      api: { href: "/docs/api.md", title: "workspace-gateway API reference" },
      configuration: { href: "/docs/configuration.md" },
      consumers: { href: "/docs/consumers.md" },
      deploy: { href: "/docs/deploy.md" },
    });
    for (const { href } of Object.values(body.docs)) {
      const response = await fetch(`${tg.url}${href}`);
      expect(response.status, href).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await response.text()).toBe(await readFile(join(root, href), "utf8"));
    }
  });

  it("serves only those files: other names and paths out of docs/ are 404", async () => {
    for (const path of ["/docs/nothing.md", "/docs/..%2Fpackage.json", "/docs/../package.json", "/docs/", "/docs/api.md/x"]) {
      expect((await fetch(`${tg.url}${path}`)).status, path).toBe(404);
    }
  });
});
