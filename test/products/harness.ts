// Product surfaces end to end: the sandbox upstream, a real gateway wired to it, HS256 access
// tokens the sandbox accepts, and one way to call an operation over GraphQL or tRPC that gives the
// same outcome shape on both, so a table of cases can run against both surfaces.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TRPCClientError } from "@trpc/client";
import { SignJWT } from "jose";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { createGatewayClient, type GatewayClient } from "../../src/client/index.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { startSandbox, type RecordedRequest, type Sandbox, type SandboxOptions } from "../sandbox/index.ts";

export const JWT_SECRET = "products-surface-test-secret-of-at-least-32-chars";

export type Surface = "graphql" | "trpc";
export const SURFACES: Surface[] = ["graphql", "trpc"];

/** An HS256 access token as an identity provider would issue it; `tenant: undefined` leaves the claim out. */
export async function signAccessToken(
  claims: { sub?: string; scope?: string; tenant?: string | undefined; [claim: string]: unknown } = {},
  options: { exp?: number | string; secret?: string } = {},
): Promise<string> {
  const { sub = "user-1", scope = "docs:read docs:write", ...rest } = claims;
  const payload: Record<string, unknown> = { scope };
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) payload[key] = value;
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime(options.exp ?? "10m")
    .sign(new TextEncoder().encode(options.secret ?? JWT_SECRET));
}

/** A TENANTS_FILE in a fresh temp dir. */
export function writeTenantsFile(map: Record<string, string>): string {
  const file = join(mkdtempSync(join(tmpdir(), "wg-products-tenants-")), "tenants.json");
  writeFileSync(file, JSON.stringify(map));
  return file;
}

let sequence = 0;
/** A fresh, sane X-Request-Id to send and then look for at the sandbox. */
export const newRequestId = (label = "req"): string => `products-${label}-${process.pid}-${++sequence}`;

// ---- one operation, either surface ------------------------------------------------------------

export type Outcome<R> =
  | { ok: true; data: R }
  | { ok: false; code: string; message: string; retryAfter?: number | undefined; trpcCode?: string | undefined; details?: unknown };

export interface GraphQLCall<R> {
  query: string;
  variables?: Record<string, unknown>;
  /** Files sent with the GraphQL multipart request spec, by variable name. */
  files?: Record<string, File>;
  /** From `data` to the value the checks look at (the same shape the tRPC side returns). */
  pick(data: Record<string, unknown>): R;
}

export interface Operation<R> {
  graphql: GraphQLCall<R>;
  /** The tRPC call, its result brought to the same shape as `graphql.pick`'s. */
  trpc(client: GatewayClient, signal?: AbortSignal): Promise<R>;
}

export interface CallOptions {
  token: string;
  requestId?: string;
  signal?: AbortSignal;
}

interface GraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: { code?: string; retryAfter?: number; details?: unknown } }[];
}

/** POST /graphql, JSON, or multipart (operations/map/0…) when `files` are given. */
export async function graphqlFetch(
  baseUrl: string,
  call: Pick<GraphQLCall<unknown>, "query" | "variables" | "files">,
  options: CallOptions,
): Promise<{ status: number; headers: Headers; body: GraphQLBody }> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${options.token}`,
    accept: "application/graphql-response+json, application/json",
    ...(options.requestId ? { "x-request-id": options.requestId } : {}),
  };
  let body: string | FormData;
  if (call.files && Object.keys(call.files).length > 0) {
    const variables: Record<string, unknown> = { ...call.variables };
    const map: Record<string, string[]> = {};
    const form = new FormData();
    Object.keys(call.files).forEach((name, i) => {
      variables[name] = null;
      map[String(i)] = [`variables.${name}`];
    });
    form.append("operations", JSON.stringify({ query: call.query, variables }));
    form.append("map", JSON.stringify(map));
    Object.values(call.files).forEach((file, i) => form.append(String(i), file, file.name));
    headers["apollo-require-preflight"] = "true";
    body = form;
  } else {
    headers["content-type"] = "application/json";
    body = JSON.stringify({ query: call.query, variables: call.variables ?? {} });
  }
  const response = await fetch(`${baseUrl}/graphql`, {
    method: "POST",
    headers,
    body,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as GraphQLBody };
}

export function trpcClient(baseUrl: string, options: CallOptions): GatewayClient {
  return createGatewayClient({
    url: baseUrl,
    token: options.token,
    headers: options.requestId ? { "x-request-id": options.requestId } : {},
  });
}

interface TrpcErrorData {
  code?: string;
  gatewayCode?: string;
  retryAfter?: number;
  details?: unknown;
}

/** Runs `op` on one surface; errors become `{ok:false, code}` with the code of docs/api.md "Errors" of that surface. */
export async function runOperation<R>(surface: Surface, baseUrl: string, op: Operation<R>, options: CallOptions): Promise<Outcome<R>> {
  if (surface === "graphql") {
    const { body } = await graphqlFetch(baseUrl, op.graphql, options);
    const error = body.errors?.[0];
    if (error) {
      return {
        ok: false,
        code: error.extensions?.code ?? "(no extensions.code)",
        message: error.message,
        retryAfter: error.extensions?.retryAfter,
        details: error.extensions?.details,
      };
    }
    if (!body.data) throw new Error(`GraphQL answered neither data nor errors: ${JSON.stringify(body)}`);
    return { ok: true, data: op.graphql.pick(body.data) };
  }
  try {
    return { ok: true, data: await op.trpc(trpcClient(baseUrl, options), options.signal) };
  } catch (error) {
    if (!(error instanceof TRPCClientError)) throw error;
    const data = (error.data ?? {}) as TrpcErrorData;
    return {
      ok: false,
      code: data.gatewayCode ?? "(no data.gatewayCode)",
      message: error.message,
      retryAfter: data.retryAfter,
      trpcCode: data.code,
      details: data.details,
    };
  }
}

/** The data of a successful outcome (fails the test with the error otherwise). */
export function expectOk<R>(outcome: Outcome<R>): R {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.code}: ${outcome.message}`);
  return outcome.data;
}

/** GraphQL answers `null` for absent optional fields; tRPC leaves them out. Compare without them. */
export function dropNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map(dropNulls) as T;
  if (value && typeof value === "object" && !(value instanceof Blob)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, dropNulls(v)]),
    ) as T;
  }
  return value;
}

// ---- environment ------------------------------------------------------------------------------

export interface ProductsEnv {
  sandbox: Sandbox;
  gateway: TestGateway;
  /** Access token of user-1 in tenant acme; the sandbox accepts it at the API base and at acme. */
  token: string;
  /** Access token of user-2 in tenant globex; accepted at the API base and at globex only. */
  globexToken: string;
  close(): Promise<void>;
}

export interface ProductsEnvOptions {
  sandbox?: SandboxOptions;
  /** Extra gateway environment (wins over the defaults). */
  env?: Record<string, string>;
  /** Extra tokens the sandbox accepts at the API base. */
  extraApiTokens?: string[];
  /** The main token's `scope` claim (default docs:read docs:write). */
  scope?: string;
}

/** A sandbox and a gateway pointed at it: API_URL, TENANTS_FILE for acme and globex, JWT_SECRET. */
export async function startProductsEnv(options: ProductsEnvOptions = {}): Promise<ProductsEnv> {
  const token = await signAccessToken({ sub: "user-1", tenant: "acme", ...(options.scope ? { scope: options.scope } : {}) });
  const globexToken = await signAccessToken({ sub: "user-2", tenant: "globex" });
  const sandbox = await startSandbox({
    tokens: [token, globexToken, ...(options.extraApiTokens ?? [])],
    tenants: { acme: { tokens: [token] }, globex: { tokens: [globexToken] } },
    ...options.sandbox,
  });
  let gateway: TestGateway;
  try {
    gateway = await startGatewayFor(sandbox, options.env);
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  return {
    sandbox,
    gateway,
    token,
    globexToken,
    async close() {
      await gateway.close();
      await sandbox.close();
    },
  };
}

/**
 * One products environment for a test file: started before its tests, closed after them, and its
 * sandbox reset (fresh seed, no recorded requests, no faults) before each test.
 */
export function useProductsEnv(options: ProductsEnvOptions = {}): () => ProductsEnv {
  let env: ProductsEnv | undefined;
  beforeAll(async () => {
    env = await startProductsEnv(options);
  });
  afterAll(async () => {
    await env?.close();
  });
  beforeEach(async () => {
    await env?.sandbox.reset();
  });
  return () => {
    if (!env) throw new Error("the products environment is not started (use it inside a test)");
    return env;
  };
}

/** Another gateway over the same sandbox (its own circuit breakers, its own configuration). */
export function startGatewayFor(sandbox: Sandbox, env: Record<string, string> = {}): Promise<TestGateway> {
  return startTestGateway({
    API_URL: sandbox.url,
    TENANTS_FILE: writeTenantsFile({ acme: sandbox.tenantBaseUrl("acme"), globex: sandbox.tenantBaseUrl("globex") }),
    JWT_SECRET,
    RENDER_WORKERS: "1",
    UPSTREAM_TIMEOUT_MS: "2000",
    ...env,
  });
}

/** The sandbox's single recorded request, checked for the forwarded token and request id. */
export function onlyRequest(sandbox: Sandbox, expected: { token: string; requestId: string }): RecordedRequest {
  const requests = sandbox.requests;
  if (requests.length !== 1) {
    throw new Error(
      `expected exactly one upstream request, got ${requests.length}: ${requests.map((r) => `${r.method} ${r.path}`).join(", ")}`,
    );
  }
  const request = requests[0] as RecordedRequest;
  if (request.headers.authorization !== `Bearer ${expected.token}`) {
    throw new Error(`upstream saw authorization ${JSON.stringify(request.headers.authorization)}, expected the caller's exact token`);
  }
  if (request.headers["x-request-id"] !== expected.requestId) {
    throw new Error(`upstream saw x-request-id ${JSON.stringify(request.headers["x-request-id"])}, expected ${expected.requestId}`);
  }
  return request;
}

/** Polls `check` until it returns true (or fails after `timeoutMs`). */
export async function waitFor(check: () => boolean, timeoutMs = 3_000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
