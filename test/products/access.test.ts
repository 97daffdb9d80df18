// Who reaches which upstream: tenant base URLs come from configuration and the verified tenant
// claim only; bad tenant ids never leave the gateway; product operations need an access token
// (forwarded unchanged), never a personal API key.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TestGateway } from "../helpers/gateway.ts";
import { startSandbox, type Sandbox } from "../sandbox/index.ts";
import { fromConnection, fromPage, type ListResult } from "./cases.ts";
import {
  SURFACES,
  expectOk,
  graphqlFetch,
  newRequestId,
  onlyRequest,
  runOperation,
  signAccessToken,
  startGatewayFor,
  writeTenantsFile,
  type Operation,
  type Outcome,
  type Surface,
} from "./harness.ts";

interface InvoiceNode {
  id: string;
  number: string;
}
const invoices: Operation<ListResult<InvoiceNode>> = {
  graphql: {
    query: `{ invoices(first: 3) { edges { node { id number } } pageInfo { hasNextPage endCursor } } }`,
    pick: (d) => fromConnection(d["invoices"]),
  },
  trpc: async (c) => fromPage(await c.enterprise.invoices.query({ limit: 3 })),
};
const dataQuery: Operation<{ answer?: string | null }> = {
  graphql: { query: `{ dataQuery(question: "totals by status") { answer } }`, pick: (d) => d["dataQuery"] as { answer?: string | null } },
  trpc: (c) => c.enterprise.dataQuery.query({ question: "totals by status" }),
};
const messages: Operation<ListResult<{ id: string }>> = {
  graphql: {
    query: `{ messages(first: 2) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
    pick: (d) => fromConnection(d["messages"]),
  },
  trpc: async (c) => fromPage(await c.messages.list.query({ limit: 2 })),
};

function expectFailure<R>(outcome: Outcome<R>): Extract<Outcome<R>, { ok: false }> {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.data)}`);
  return outcome;
}

const OPAQUE = "opaque-access-token.Z9_~+/=";
let tokens: { acme: string; globex: string; noTenant: string };
let sandbox: Sandbox;
/** TENANTS_FILE maps acme and globex to their own ports; the template would send others to /tenants/{tenant}. */
let gateway: TestGateway;

beforeAll(async () => {
  tokens = {
    acme: await signAccessToken({ sub: "ann", tenant: "acme" }),
    globex: await signAccessToken({ sub: "gus", tenant: "globex" }),
    noTenant: await signAccessToken({ sub: "nobody" }),
  };
  sandbox = await startSandbox({
    tenantPorts: true,
    tokens: [tokens.acme, tokens.globex, tokens.noTenant, OPAQUE],
    tenants: { acme: { tokens: [tokens.acme] }, globex: { tokens: [tokens.globex] } },
  });
  gateway = await startGatewayFor(sandbox, { TENANT_URL_TEMPLATE: `${sandbox.url}/tenants/{tenant}` });
});
afterAll(async () => {
  await gateway?.close();
  await sandbox?.close();
});
beforeEach(async () => {
  await sandbox.reset();
});

const run = <R>(surface: Surface, op: Operation<R>, token: string, requestId?: string, target: TestGateway = gateway) =>
  runOperation(surface, target.url, op, { token, ...(requestId ? { requestId } : {}) });

describe.each(SURFACES)("tenants, %s", (surface) => {
  it("each tenant's token reaches its own tenant base only (its own host:port), and sees its own data", async () => {
    const acmeHost = new URL(sandbox.tenantBaseUrl("acme")).host;
    const globexHost = new URL(sandbox.tenantBaseUrl("globex")).host;
    expect(acmeHost).not.toBe(globexHost);
    expect(acmeHost).not.toBe(new URL(sandbox.url).host);

    for (const [tenant, token, host] of [
      ["acme", tokens.acme, acmeHost],
      ["globex", tokens.globex, globexHost],
    ] as const) {
      sandbox.clearRequests();
      const requestId = newRequestId(tenant);
      const page = expectOk(await run(surface, invoices, token, requestId));
      const seen = onlyRequest(sandbox, { token, requestId });
      // The map wins over the template: the tenant's own port, at its root.
      expect(seen).toMatchObject({ tenant, path: "/api/v1/invoices", method: "GET", status: 200 });
      expect(seen.headers.host).toBe(host);
      expect(page.data.map((i) => i.id)).toEqual(sandbox.data.tenants[tenant]?.invoices.slice(0, 3).map((i) => i.id));
    }
    // Different tenants, different data.
    expect(sandbox.data.tenants["acme"]?.invoices[0]?.id).not.toBe(sandbox.data.tenants["globex"]?.invoices[0]?.id);
  });

  it.each(["../b", "a.evil.com", "a@b", "A", "a".repeat(64), "acme/../globex", "acme?x=1", ""])(
    "tenant claim %j is refused before any upstream call",
    async (tenant) => {
      const token = await signAccessToken({ sub: "mallory", tenant });
      for (const op of [invoices, dataQuery] as Operation<unknown>[]) {
        const failure = expectFailure(await run(surface, op, token));
        // An empty claim is no tenant at all; anything else is a tenant id we will not put in a URL.
        expect(failure.code).toBe(tenant === "" ? "TENANT_REQUIRED" : "FORBIDDEN");
      }
      expect(sandbox.requests).toEqual([]);
    },
  );

  it("no tenant claim → TENANT_REQUIRED, nothing sent", async () => {
    for (const op of [invoices, dataQuery] as Operation<unknown>[]) {
      expect(expectFailure(await run(surface, op, tokens.noTenant)).code).toBe("TENANT_REQUIRED");
    }
    expect(sandbox.requests).toEqual([]);
  });

  it("a tenant the template covers but the map does not goes to the template's URL", async () => {
    // The sandbox does not know "initech": it answers 404, and the gateway passes that on.
    const token = await signAccessToken({ sub: "ivy", tenant: "initech" });
    expect(expectFailure(await run(surface, invoices, token)).code).toBe("NOT_FOUND");
    expect(sandbox.requests.map((r) => r.path)).toEqual(["/tenants/initech/api/v1/invoices"]);
  });
});

describe("configuration gaps", () => {
  let mapOnly: TestGateway;
  let noApi: TestGateway;
  beforeAll(async () => {
    mapOnly = await startGatewayFor(sandbox);
    noApi = await startGatewayFor(sandbox, { API_URL: "" });
  });
  afterAll(async () => {
    await mapOnly?.close();
    await noApi?.close();
  });

  it.each(SURFACES)("%s: a tenant not in TENANTS_FILE and no template → UPSTREAM_NOT_CONFIGURED", async (surface) => {
    const token = await signAccessToken({ sub: "ivy", tenant: "initech" });
    for (const op of [invoices, dataQuery] as Operation<unknown>[]) {
      expect(expectFailure(await run(surface, op, token, undefined, mapOnly)).code).toBe("UPSTREAM_NOT_CONFIGURED");
    }
    // Configured tenants still work on that gateway.
    expectOk(await run(surface, invoices, tokens.acme, undefined, mapOnly));
    expect(sandbox.requests.map((r) => r.tenant)).toEqual(["acme"]);
  });

  it.each(SURFACES)("%s: no API_URL → UPSTREAM_NOT_CONFIGURED for mail, drive, search, meetings", async (surface) => {
    const ops: Operation<unknown>[] = [
      messages,
      { graphql: { query: `{ searchFiles(query: "x") { id } }`, pick: (d) => d }, trpc: (c) => c.files.search.query({ query: "x" }) },
      { graphql: { query: `{ search(query: "x") { answer } }`, pick: (d) => d }, trpc: (c) => c.search.query.query({ query: "x" }) },
      {
        graphql: {
          query: `mutation { createMeeting(input: { title: "x", startsAt: "2031-01-01T00:00:00Z", durationMinutes: 5 }) { id } }`,
          pick: (d) => d,
        },
        trpc: (c) => c.meetings.create.mutate({ title: "x", startsAt: "2031-01-01T00:00:00Z", durationMinutes: 5 }),
      },
    ];
    for (const op of ops) {
      const failure = expectFailure(await run(surface, op, tokens.acme, undefined, noApi));
      expect(failure.code).toBe("UPSTREAM_NOT_CONFIGURED");
      expect(failure.message).toContain("API_URL");
    }
    // Tenant endpoints do not need API_URL.
    expectOk(await run(surface, invoices, tokens.acme, undefined, noApi));
    expect(sandbox.requests.map((r) => r.scopedPath)).toEqual(["/api/v1/invoices"]);
  });
});

describe("credentials on product operations", () => {
  it.each(SURFACES)("%s: a personal API key → FORBIDDEN saying an access token is needed; never forwarded", async (surface) => {
    const key = await gateway.key({ user: "ann", tenant: "acme" });
    for (const op of [messages, invoices] as Operation<unknown>[]) {
      const failure = expectFailure(await run(surface, op, key));
      expect(failure.code).toBe("FORBIDDEN");
      expect(failure.message).toMatch(/access token/i);
    }
    expect(sandbox.requests).toEqual([]);
  });

  it.each(SURFACES)("%s: an expired access token → UNAUTHENTICATED at the gateway", async (surface) => {
    const expired = await signAccessToken({ sub: "ann", tenant: "acme" }, { exp: Math.floor(Date.now() / 1000) - 120 });
    expect(expectFailure(await run(surface, messages, expired)).code).toBe("UNAUTHENTICATED");
    expect(sandbox.requests).toEqual([]);
  });

  it.each(SURFACES)("%s: a token signed with another secret → UNAUTHENTICATED", async (surface) => {
    const forged = await signAccessToken({ sub: "ann", tenant: "acme" }, { secret: "some-other-secret-that-is-32-characters-long" });
    expect(expectFailure(await run(surface, messages, forged)).code).toBe("UNAUTHENTICATED");
    expect(sandbox.requests).toEqual([]);
  });

  it("GraphQL meeting(id), which makes no upstream call of its own, still checks the caller and the id", async () => {
    const query = `{ meeting(id: "m_1") { id } }`;
    const anonymous = await fetch(`${gateway.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    const anonymousBody = (await anonymous.json()) as { data: { meeting: unknown } | null; errors?: { extensions?: { code?: string } }[] };
    expect(anonymousBody.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    expect(anonymousBody.data?.meeting ?? null).toBeNull();

    const key = await gateway.key({ user: "ann", tenant: "acme" });
    const withKey = await graphqlFetch(gateway.url, { query }, { token: key });
    expect(withKey.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");

    const badId = await graphqlFetch(gateway.url, { query: `{ meeting(id: "../admin") { id } }` }, { token: tokens.acme });
    expect(badId.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");

    const ok = await graphqlFetch(gateway.url, { query }, { token: tokens.acme });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data).toEqual({ meeting: { id: "m_1" } });
    expect(sandbox.requests).toEqual([]);
  });

  describe("a gateway without JWT configuration", () => {
    let plain: TestGateway;
    beforeAll(async () => {
      plain = await startGatewayFor(sandbox, { JWT_SECRET: "", TENANTS_FILE: writeTenantsFile({ acme: sandbox.tenantBaseUrl("acme") }) });
    });
    afterAll(async () => {
      await plain?.close();
    });

    it.each(SURFACES)("%s: forwards an opaque bearer token unchanged", async (surface) => {
      const requestId = newRequestId("opaque");
      const page = expectOk(await run(surface, messages, OPAQUE, requestId, plain));
      expect(page.data).toHaveLength(2);
      onlyRequest(sandbox, { token: OPAQUE, requestId });
    });

    it.each(SURFACES)("%s: an unverified token has no tenant, so tenant operations → TENANT_REQUIRED", async (surface) => {
      // Without verification the gateway cannot trust a tenant claim, even in a well-formed JWT.
      expect(expectFailure(await run(surface, invoices, tokens.acme, undefined, plain)).code).toBe("TENANT_REQUIRED");
      expect(sandbox.requests).toEqual([]);
    });
  });
});
