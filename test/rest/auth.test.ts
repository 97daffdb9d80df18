// REST's side of the auth matrix (docs/api.md "Errors"): the headers a 401 and a 403 carry, on every
// documents route including the download. The surface-neutral codes are in ../documents/behaviour.ts.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { scopeSets } from "../documents/behaviour.ts";

let tg: TestGateway;
/** A document of user "owner", so the read routes answer 200 when the scope is there. */
let docId: string;

beforeAll(async () => {
  tg = await startTestGateway();
  const response = await fetch(`${tg.url}/api/v1/documents`, {
    method: "POST",
    headers: { authorization: `Bearer ${await tg.key({ user: "owner" })}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "owned", markdown: "# owned" }),
  });
  expect(response.status).toBe(201);
  docId = ((await response.json()) as { id: string }).id;
});
afterAll(() => tg.close());

interface Route {
  label: string;
  scope: "docs:read" | "docs:write";
  success: number;
  call(authorization: string | null): Promise<Response>;
}

const headers = (authorization: string | null, extra: Record<string, string> = {}) => ({
  ...(authorization === null ? {} : { authorization }),
  ...extra,
});

const routes: Route[] = [
  {
    label: "POST /api/v1/documents",
    scope: "docs:write",
    success: 201,
    call: (authorization) =>
      fetch(`${tg.url}/api/v1/documents`, {
        method: "POST",
        headers: headers(authorization, { "content-type": "application/json" }),
        body: JSON.stringify({ name: "x", markdown: "# x" }),
      }),
  },
  {
    label: "GET /api/v1/documents",
    scope: "docs:read",
    success: 200,
    call: (authorization) => fetch(`${tg.url}/api/v1/documents`, { headers: headers(authorization) }),
  },
  {
    label: "GET /api/v1/documents/{id}",
    scope: "docs:read",
    success: 200,
    call: (authorization) => fetch(`${tg.url}/api/v1/documents/${docId}`, { headers: headers(authorization) }),
  },
  {
    label: "GET /api/v1/documents/{id}/content",
    scope: "docs:read",
    success: 200,
    call: (authorization) => fetch(`${tg.url}/api/v1/documents/${docId}/content`, { headers: headers(authorization) }),
  },
];

describe("401 UNAUTHENTICATED carries WWW-Authenticate: Bearer on every route", () => {
  const credentials: [string, () => Promise<string | null>][] = [
    ["no header", async () => null],
    ["wrong scheme", async () => `Basic ${Buffer.from("a:b").toString("base64")}`],
    ["unknown key", async () => `Bearer wgk_${randomBytes(32).toString("base64url")}`],
    ["expired key", async () => `Bearer ${await tg.key({ user: "owner", expiresInMs: -1000 })}`],
    [
      "revoked key",
      async () => {
        const key = await tg.key({ user: "revoked" });
        const [record] = await tg.gateway.store.listApiKeys("revoked");
        await tg.gateway.store.revokeApiKey(record!.id, new Date().toISOString());
        return `Bearer ${key}`;
      },
    ],
  ];

  it.each(credentials)("%s", async (_label, credential) => {
    const authorization = await credential();
    for (const route of routes) {
      const response = await route.call(authorization);
      expect(response.status, route.label).toBe(401);
      expect(response.headers.get("www-authenticate"), route.label).toMatch(/^Bearer(\s|$)/);
      expect(response.headers.get("content-type"), route.label).toMatch(/^application\/json/);
      expect(await response.json(), route.label).toMatchObject({ error: { code: "UNAUTHENTICATED", message: expect.any(String) } });
    }
  });
});

describe("403 FORBIDDEN names the missing scope in WWW-Authenticate", () => {
  it.each(scopeSets)("scopes %s", async (_label, scopes) => {
    const authorization = `Bearer ${await tg.key({ user: "owner", scopes })}`;
    for (const route of routes) {
      const response = await route.call(authorization);
      if (scopes.includes(route.scope)) {
        expect(response.status, route.label).toBe(route.success);
        expect(response.headers.get("www-authenticate"), route.label).toBeNull();
        continue;
      }
      expect(response.status, route.label).toBe(403);
      const challenge = response.headers.get("www-authenticate") ?? "";
      expect(challenge, route.label).toMatch(/^Bearer /);
      expect(challenge, route.label).toContain('error="insufficient_scope"');
      expect(challenge, route.label).toContain(`scope="${route.scope}"`);
      expect(await response.json(), route.label).toMatchObject({ error: { code: "FORBIDDEN" } });
    }
  });
});
