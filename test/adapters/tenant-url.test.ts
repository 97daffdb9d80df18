// A verified credential whose tenant id matches the allowed pattern but makes TENANT_URL_TEMPLATE
// an invalid URL (all-digit or 0x labels are IPv4 numbers to the URL parser, and these overflow
// it) is a bad tenant like any other: FORBIDDEN in each surface's error shape, never an INTERNAL
// with a stack trace (issue 23, finding 7).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenantResolver } from "../../adapters/tenants.ts";
import { signAccessToken, startGatewayFor } from "../products/harness.ts";
import { startSandbox, type Sandbox } from "../sandbox/index.ts";
import type { TestGateway } from "../helpers/gateway.ts";
import { adapterRejection } from "./helpers.ts";

const INVALID_HOST_TENANTS = ["0177000000001", "99999999999", "0xfffffffff1"];

describe("a tenant id that makes the template an invalid URL", () => {
  it("the resolver refuses it as FORBIDDEN, without naming the URL", async () => {
    const resolver = createTenantResolver({ TENANT_URL_TEMPLATE: "http://{tenant}:4714/erp" });
    for (const tenant of INVALID_HOST_TENANTS) {
      const error = await adapterRejection(Promise.resolve().then(() => resolver.resolve(tenant)));
      expect(error.code).toBe("FORBIDDEN");
      expect(error.message).not.toContain("4714");
    }
    // The same template still resolves a tenant that makes a valid host.
    expect(resolver.resolve("acme")).toMatchObject({ origin: "http://acme:4714", prefix: "/erp", restricted: true });
  });

  describe("through the gateway", () => {
    let sandbox: Sandbox;
    let gateway: TestGateway;
    beforeAll(async () => {
      sandbox = await startSandbox({});
      gateway = await startGatewayFor(sandbox, { TENANT_URL_TEMPLATE: "http://{tenant}:4714" });
    });
    afterAll(async () => {
      await gateway?.close();
      await sandbox?.close();
    });

    it("answers 403 FORBIDDEN over GraphQL and tRPC, with no stack trace", async () => {
      for (const tenant of INVALID_HOST_TENANTS) {
        const token = await signAccessToken({ sub: "user-9", tenant });
        const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };

        const graphql = await fetch(`${gateway.url}/graphql`, {
          method: "POST",
          headers,
          body: JSON.stringify({ query: "{ invoices(first: 1) { edges { node { id } } } }" }),
        });
        const graphqlText = await graphql.text();
        const graphqlBody = JSON.parse(graphqlText) as { errors?: Array<{ extensions?: { code?: string } }> };
        expect(graphqlBody.errors?.[0]?.extensions?.code, graphqlText).toBe("FORBIDDEN");

        const trpc = await fetch(`${gateway.url}/trpc/enterprise.invoices?input=${encodeURIComponent("{}")}`, { headers });
        const trpcText = await trpc.text();
        expect(trpc.status, trpcText).toBe(403);
        expect((JSON.parse(trpcText) as { error?: { data?: { gatewayCode?: string } } }).error?.data?.gatewayCode).toBe("FORBIDDEN");

        for (const text of [graphqlText, trpcText]) {
          expect(text).not.toMatch(/stack|\n\s+at |TENANT_URL_TEMPLATE|not a URL/);
        }
      }
      expect(sandbox.requests).toHaveLength(0);
    });
  });
});
