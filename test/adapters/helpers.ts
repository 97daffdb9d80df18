// Service-level harness: a sandbox upstream, one upstream client, the product services, and
// hand-built request contexts (an access-token principal unless told otherwise).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { isAdapterError, type AdapterError } from "../../adapters/errors.ts";
import { createUpstreamClient, type UpstreamClient, type UpstreamClientOptions } from "../../adapters/upstream/client.ts";
import type { Principal } from "../../src/core/principal.ts";
import type { RequestContext } from "../../src/core/context.ts";
import { isGatewayError, type GatewayError } from "../../src/core/errors.ts";
import { createMetrics, type Metrics } from "../../src/observability/metrics.ts";
import { createProductBackend, type ProductBackend, type ProductServicesDeps } from "../../src/services/products.ts";
import { createOperationRunner, type OperationRunner } from "../../src/services/runner.ts";
import { startSandbox, type Sandbox, type SandboxOptions } from "../sandbox/index.ts";

export const TOKEN = "access-token-1";
const silent = pino({ level: "silent" });
let counter = 0;

export interface ContextOptions {
  token?: string | undefined;
  tenant?: string | null;
  kind?: Principal["kind"];
  signal?: AbortSignal;
}

export function makeContext(options: ContextOptions = {}): RequestContext {
  const kind = options.kind ?? "access_token";
  const token = "token" in options ? options.token : TOKEN;
  return {
    requestId: `req-${process.pid}-${++counter}`,
    principal: {
      kind,
      userId: "user-1",
      tenant: options.tenant ?? null,
      scopes: new Set(),
      verified: true,
      ...(kind === "api_key" ? { keyId: "key_1" } : token === undefined ? {} : { accessToken: token }),
    },
    signal: options.signal ?? new AbortController().signal,
    log: silent,
    memo: new Map(),
  };
}

export function tenantsFile(map: Record<string, string>): string {
  const file = join(mkdtempSync(join(tmpdir(), "gw-tenants-")), "tenants.json");
  writeFileSync(file, JSON.stringify(map));
  return file;
}

/** The runner over the product backend alone, and the request's loaders. */
export type ProductRunner = OperationRunner & Pick<ProductBackend, "loaders">;

export interface Harness {
  sandbox: Sandbox;
  upstream: UpstreamClient;
  products: ProductRunner;
  metrics: Metrics;
  /** A second services object over another client/config, closed with the harness. */
  build(options?: { client?: UpstreamClientOptions; config?: Partial<ProductServicesDeps["config"]> }): {
    upstream: UpstreamClient;
    products: ProductRunner;
  };
  close(): Promise<void>;
}

export async function startHarness(options: { sandbox?: SandboxOptions; client?: UpstreamClientOptions } = {}): Promise<Harness> {
  const sandbox = await startSandbox({
    tokens: [TOKEN],
    tenants: { acme: { tokens: ["acme-token", TOKEN] }, globex: { tokens: ["globex-token"] } },
    ...options.sandbox,
  });
  const metrics = createMetrics();
  const clients: UpstreamClient[] = [];
  const baseConfig = {
    API_URL: sandbox.url,
    TENANT_URL_TEMPLATE: undefined,
    TENANTS_FILE: tenantsFile({ acme: sandbox.tenantBaseUrl("acme"), globex: sandbox.tenantBaseUrl("globex") }),
    DATAQUERY_SEGMENT: "dataquery",
  };
  const build: Harness["build"] = (more = {}) => {
    const upstream = createUpstreamClient({
      timeoutMs: 2_000,
      retryBaseDelayMs: 5,
      // Tests that fail on purpose must not trip the shared client's circuit nor run out of retry
      // budget; the breaker and budget tests build their own.
      breaker: { minCalls: 10_000, consecutiveFailures: 0, openMs: 200, openMaxMs: 200 },
      retryBudget: { minPerSecond: 10_000 },
      metrics,
      ...options.client,
      ...more.client,
    });
    clients.push(upstream);
    const backend = createProductBackend({ config: { ...baseConfig, ...more.config }, upstream });
    return { upstream, products: { ...createOperationRunner({ products: backend }), loaders: backend.loaders } };
  };
  const main = build();
  return {
    sandbox,
    metrics,
    ...main,
    build,
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await sandbox.close();
    },
  };
}

/**
 * The GatewayError a product operation rejects with (fails the test if it resolves or rejects
 * otherwise): the service layer has mapped the adapter's error to the contract's.
 */
export async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw new Error(`expected a GatewayError, got ${String(error)}`, { cause: error });
  }
  throw new Error("expected a rejection, but the promise resolved");
}

/** The AdapterError a direct upstream client call rejects with (adapters/ throw their own error type, never a GatewayError). */
export async function adapterRejection(promise: Promise<unknown>): Promise<AdapterError> {
  try {
    await promise;
  } catch (error) {
    if (isAdapterError(error)) return error;
    throw new Error(`expected an AdapterError, got ${String(error)}`, { cause: error });
  }
  throw new Error("expected a rejection, but the promise resolved");
}
