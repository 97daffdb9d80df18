// Issue 26 finding 4 through REST and MCP: an idempotent replay answers the first response (the
// first 201 body: version 1, the first name), not the document as it is now; and version 1's
// author is the user, not the owner key (user U+001F tenant) the store keys documents by.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

describe("idempotent replays answer the first response", () => {
  let tg: TestGateway;
  let key: string;
  beforeAll(async () => {
    tg = await startTestGateway();
    key = await tg.key({ user: "demo-user", tenant: "acme" });
  });
  afterAll(() => tg.close());

  const headers = (extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${key}`,
    "content-type": "application/json",
    ...extra,
  });

  it("REST: after a rename and an update, the replay is the first 201 body; version 1's author is the user", async () => {
    const create = () =>
      fetch(`${tg.url}/api/v1/documents`, {
        method: "POST",
        headers: headers({ "idempotency-key": "first-answer" }),
        body: JSON.stringify({ name: "First name", markdown: "# One" }),
      });
    const first = await create();
    expect(first.status).toBe(201);
    const body = (await first.json()) as { id: string; version: number; name: string };
    const url = `${tg.url}/api/v1/documents/${body.id}`;
    expect((await fetch(url, { method: "PATCH", headers: headers(), body: JSON.stringify({ name: "Second name" }) })).status).toBe(200);
    expect((await fetch(url, { method: "PUT", headers: headers(), body: JSON.stringify({ markdown: "# Three" }) })).status).toBe(200);

    const again = await create();
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(body);
    expect(body).toMatchObject({ version: 1, name: "First name" });

    const versions = (await (await fetch(`${url}/versions`, { headers: headers() })).json()) as { versions: { createdBy: string }[] };
    expect(versions.versions.map((v) => v.createdBy)).toEqual(["demo-user", "demo-user", "demo-user"]);
  });

  it("MCP: a retried docs_create answers the first document as it was created", async () => {
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${tg.url}/mcp`), { requestInit: { headers: headers() } }));
    try {
      const create = () =>
        client.callTool({ name: "docs_create", arguments: { name: "MCP first", markdown: "# Once", idempotencyKey: "mcp-first" } });
      const first = (await create()) as unknown as { structuredContent: { id: string; version: number; name: string } };
      const url = `${tg.url}/api/v1/documents/${first.structuredContent.id}`;
      expect((await fetch(url, { method: "PATCH", headers: headers(), body: JSON.stringify({ name: "MCP renamed" }) })).status).toBe(200);
      const again = (await create()) as { structuredContent: unknown };
      expect(again.structuredContent).toEqual(first.structuredContent);
      expect(first.structuredContent).toMatchObject({ version: 1, name: "MCP first" });
    } finally {
      await client.close();
    }
  });
});
