// Every upstream endpoint (docs/api.md "Upstreams") through GraphQL and through tRPC, against the sandbox, from one table of cases:
// the sandbox must receive the right method, path, query and body with the caller's exact access
// token and request id, and the result must be the upstream's answer, mapped.
import { describe, expect, it } from "vitest";
import { productOperations, surface } from "../helpers/surface.ts";
import { productCases } from "./cases.ts";
import { SURFACES, expectOk, newRequestId, onlyRequest, runOperation, useProductsEnv } from "./harness.ts";

const env = useProductsEnv();

describe.each(SURFACES)("%s", (surface) => {
  it.each(productCases.map((c) => [c.name, c.graphqlField, c] as const))(
    `${surface}: %s (GraphQL: %s)`,
    async (_name, _field, productCase) => {
      const { op, request: expected, check } = productCase.build(env().sandbox);
      const requestId = newRequestId(surface);
      const result = expectOk(await runOperation(surface, env().gateway.url, op, { token: env().token, requestId }));

      const seen = onlyRequest(env().sandbox, { token: env().token, requestId });
      expect(seen.method).toBe(expected.method);
      expect(seen.scopedPath).toBe(expected.path);
      const base = expected.tenant ? new URL(env().sandbox.tenantBaseUrl(expected.tenant)).pathname.replace(/\/$/, "") : "";
      expect(seen.path).toBe(base + expected.path);
      expect(seen.tenant).toBe(expected.tenant);
      expect(seen.query).toEqual(expected.query ?? {});
      expect(seen.body).toEqual(expected.body);
      expect(seen.status).toBe(expected.status);
      check(result);
    },
  );
});

it("the table covers every upstream endpoint reachable from GraphQL and tRPC", () => {
  // The product operations docs/surface.json offers on GraphQL or tRPC, but meetings.get (it knows
  // only the id and calls no upstream) and files.read (drive_read: files.get's and the download's
  // calls, test/products/adapter-errors.test.ts).
  const reachable = productOperations.filter((name) => {
    const op = surface.operations[name]!;
    return (op.trpc || op.graphql !== undefined) && name !== "meetings.get" && name !== "files.read";
  });
  expect(productCases.map((c) => c.name).sort()).toEqual([...reachable].sort());
});
