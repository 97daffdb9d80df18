// adapters/ throw their own error type (adapters/errors.ts); the service layer maps it to the
// contract's GatewayError in one place (src/services/adapter-errors.ts). A path that missed the
// mapping would answer INTERNAL, so every product operation is driven through every failure mode
// an adapter can raise — upstream statuses, timeout, reset, connection refused, a malformed body,
// a missing, unknown or unacceptable tenant, no API_URL — on GraphQL, tRPC and the REST download,
// and each surface must answer the contract's code (docs/api.md "Errors").
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { errorCodes, type ErrorCode } from "../../src/core/errors.ts";
import { operationNames, operationOf, type OperationName } from "../../src/services/operations/index.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import type { FaultSpec } from "../sandbox/index.ts";
import { productCases, type ProductCase } from "./cases.ts";
import {
  JWT_SECRET,
  runOperation,
  signAccessToken,
  startGatewayFor,
  startProductsEnv,
  writeTenantsFile,
  type ProductsEnv,
  type Surface,
} from "./harness.ts";

// A timeout short enough for the hang case yet long enough for a loaded CI machine (300 ms failed
// a 400 case as UPSTREAM_TIMEOUT under lint + tsc), no retries (errors.test.ts has them) and a
// breaker that never opens, so one failure mode cannot leak into the next.
const GATEWAY_ENV = {
  UPSTREAM_TIMEOUT_MS: "1500",
  UPSTREAM_RETRIES: "0",
  UPSTREAM_BREAKER_MIN_CALLS: "1000000",
  UPSTREAM_BREAKER_CONSECUTIVE_FAILURES: "0",
};

/** GraphQL lookups by id that answer null for NOT_FOUND (the row's `nullWhenNotFound`, resolvers/nullable.ts); every other code stays an error. */
const NULL_ON_NOT_FOUND = new Set(operationNames.filter((name) => operationOf(name).graphql?.some((spec) => spec.nullWhenNotFound)));
/** Operations on the caller's tenant's upstream (a case whose request names a tenant). */
const tenantOperations = (): Set<string> =>
  new Set(productCases.filter((c) => c.build(env.sandbox).request.tenant !== undefined).map((c) => c.name));

let env: ProductsEnv;

beforeAll(async () => {
  env = await startProductsEnv({ env: GATEWAY_ENV });
});
afterAll(async () => {
  await env?.close();
});
beforeEach(async () => {
  await env.sandbox.reset();
});

type Result =
  | { ok: true; data: unknown }
  | {
      ok: false;
      code: string;
      status?: number | undefined;
      trpcCode?: string | undefined;
      retryAfter?: number | undefined;
      message: string;
    };
type Call = { operation: string; surface: Surface | "rest"; result: Result };

/** GET /api/v1/files/{id}/content: the one REST product operation (files.download). */
async function restDownload(gateway: TestGateway, token: string, id: string): Promise<Result> {
  const response = await fetch(`${gateway.url}/api/v1/files/${encodeURIComponent(id)}/content`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.ok) {
    await response.arrayBuffer();
    return { ok: true, data: null };
  }
  const body = (await response.json()) as { error?: { code?: string; message?: string } };
  const retryAfter = response.headers.get("retry-after");
  return {
    ok: false,
    code: body.error?.code ?? "(no error.code)",
    message: body.error?.message ?? "",
    status: response.status,
    ...(retryAfter === null ? {} : { retryAfter: Number(retryAfter) }),
  };
}

interface Options {
  /** The faults the sandbox applies (set afresh for each surface). */
  faults?: FaultSpec[];
  only?: (c: ProductCase) => boolean;
  /** Include the REST download. */
  rest?: boolean;
}

/**
 * Every product operation on every surface it is offered on here: one surface at a time, all its
 * operations at once, over a fresh sandbox (a booking that went through on one surface would be a
 * CONFLICT on the next).
 */
async function callEverything(
  gateway: TestGateway,
  token: string,
  { faults = [], only = () => true, rest = true }: Options = {},
): Promise<Call[]> {
  const calls: Call[] = [];
  for (const surface of ["graphql", "trpc", "rest"] as const) {
    if (surface === "rest" && !rest) continue;
    await env.sandbox.reset();
    env.sandbox.setFaults(faults);
    if (surface === "rest") {
      const fileId = env.sandbox.data.files[0]!.id;
      calls.push({ operation: "files.download", surface, result: await restDownload(gateway, token, fileId) });
      continue;
    }
    const cases = productCases.filter(only);
    const results = await Promise.all(cases.map((c) => runOperation(surface, gateway.url, c.build(env.sandbox).op, { token })));
    cases.forEach((c, i) => calls.push({ operation: c.name, surface, result: results[i] as Result }));
  }
  return calls;
}

/** Each call failed with `code` in its surface's shape (GraphQL's nullable lookups answer null for NOT_FOUND). */
function expectCode(calls: Call[], code: ErrorCode, extra: { retryAfter?: number; message?: RegExp } = {}): void {
  expect(calls.length).toBeGreaterThan(0);
  const wrong: string[] = [];
  for (const { operation, surface, result } of calls) {
    const where = `${operation} on ${surface}`;
    if (result.ok) {
      if (!(code === "NOT_FOUND" && surface === "graphql" && NULL_ON_NOT_FOUND.has(operation as OperationName) && result.data === null))
        wrong.push(`${where}: succeeded`);
      continue;
    }
    if (result.code !== code) wrong.push(`${where}: ${result.code} (${result.message})`);
    if (surface === "trpc" && result.trpcCode !== errorCodes[code].trpc) wrong.push(`${where}: tRPC code ${result.trpcCode}`);
    if (surface === "rest" && result.status !== errorCodes[code].status) wrong.push(`${where}: HTTP ${result.status}`);
    if (extra.retryAfter !== undefined && result.retryAfter !== extra.retryAfter) wrong.push(`${where}: retryAfter ${result.retryAfter}`);
    if (extra.message && !extra.message.test(result.message)) wrong.push(`${where}: message ${JSON.stringify(result.message)}`);
  }
  expect(wrong).toEqual([]);
}

describe("every product operation's adapter failures reach every surface as the contract's code", () => {
  it("covers every operation that calls an adapter (the REST download included)", () => {
    // files.read (drive_read) calls the same two adapter methods as files.get and files.download,
    // whose upstream errors are covered here; its own refusals (kinds, sizes) are in test/mcp/more-tools.test.ts.
    const covered = [...productCases.map((c) => c.name), "files.download", "files.read"];
    // meetings.get knows only the id: it makes no upstream call.
    const products = operationNames.filter((n) => operationOf(n).auth === "access_token");
    expect(products.filter((n) => n !== "meetings.get").sort()).toEqual(covered.sort());
  });

  const statuses: [number, ErrorCode][] = [
    [400, "BAD_USER_INPUT"],
    [401, "UNAUTHENTICATED"],
    [403, "FORBIDDEN"],
    [404, "NOT_FOUND"],
    [409, "CONFLICT"],
    [500, "UPSTREAM_ERROR"],
    [502, "UPSTREAM_ERROR"],
    [503, "UPSTREAM_ERROR"],
  ];
  it.each(statuses)("upstream %i → %s", async (status, code) => {
    const faults: FaultSpec[] = [{ type: "status", status, message: `upstream says no (${status})` }];
    expectCode(await callEverything(env.gateway, env.token, { faults }), code, { message: new RegExp(`upstream says no \\(${status}\\)`) });
  });

  it("upstream 429 with Retry-After → RATE_LIMITED, the wait passed on", async () => {
    expectCode(await callEverything(env.gateway, env.token, { faults: [{ type: "status", status: 429, retryAfter: 7 }] }), "RATE_LIMITED", {
      retryAfter: 7,
    });
  });

  it("an upstream that does not answer in time → UPSTREAM_TIMEOUT", async () => {
    expectCode(await callEverything(env.gateway, env.token, { faults: [{ type: "hang" }] }), "UPSTREAM_TIMEOUT");
  });

  it("a connection reset → UPSTREAM_UNAVAILABLE", async () => {
    expectCode(await callEverything(env.gateway, env.token, { faults: [{ type: "reset" }] }), "UPSTREAM_UNAVAILABLE", {
      message: /ECONNRESET|UND_ERR_SOCKET|other side closed/,
    });
  });

  it("a body that is not JSON → UPSTREAM_ERROR (the download streams bytes, so not it)", async () => {
    expectCode(
      await callEverything(env.gateway, env.token, { faults: [{ type: "malformed", mode: "invalid-json" }], rest: false }),
      "UPSTREAM_ERROR",
      { message: /not valid JSON/ },
    );
  });

  it("a tenant operation for a credential with no tenant → TENANT_REQUIRED; an unknown tenant → UPSTREAM_NOT_CONFIGURED; an unacceptable tenant id → FORBIDDEN", async () => {
    const tenant = tenantOperations();
    expect([...tenant].sort()).toEqual(["enterprise.dataQuery", "enterprise.invoices", "workflows.run"]);
    const tenantOnly = (c: ProductCase) => tenant.has(c.name);
    expectCode(
      await callEverything(env.gateway, await signAccessToken({ tenant: undefined }), { only: tenantOnly, rest: false }),
      "TENANT_REQUIRED",
    );
    expectCode(
      await callEverything(env.gateway, await signAccessToken({ tenant: "initech" }), { only: tenantOnly, rest: false }),
      "UPSTREAM_NOT_CONFIGURED",
    );
    expectCode(
      await callEverything(env.gateway, await signAccessToken({ tenant: "Not_A_Tenant" }), { only: tenantOnly, rest: false }),
      "FORBIDDEN",
    );
    expect(env.sandbox.countRequests()).toBe(0);
  });

  it("an upstream that refuses connections → UPSTREAM_UNAVAILABLE", async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const refused = `http://127.0.0.1:${closedPort}`;
    const gateway = await startTestGateway({
      API_URL: refused,
      TENANTS_FILE: writeTenantsFile({ acme: refused }),
      JWT_SECRET,
      RENDER_WORKERS: "1",
      ...GATEWAY_ENV,
    });
    try {
      expectCode(await callEverything(gateway, env.token), "UPSTREAM_UNAVAILABLE", { message: /ECONNREFUSED/ });
    } finally {
      await gateway.close();
    }
  });

  it("no API_URL and no tenant upstreams → UPSTREAM_NOT_CONFIGURED", async () => {
    const gateway = await startTestGateway({ JWT_SECRET, RENDER_WORKERS: "1", ...GATEWAY_ENV });
    try {
      expectCode(await callEverything(gateway, env.token), "UPSTREAM_NOT_CONFIGURED");
    } finally {
      await gateway.close();
    }
  });

  it("the same operations still succeed on this gateway (the failures above were the faults, not the wiring)", async () => {
    const other = await startGatewayFor(env.sandbox, GATEWAY_ENV);
    try {
      const calls = await callEverything(other, env.token);
      expect(
        calls.filter((c) => !c.result.ok).map((c) => `${c.operation} on ${c.surface}: ${(c.result as { code: string }).code}`),
      ).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
