// Traces end to end: a real OTLP/HTTP receiver (JSON encoding) in the test, the sandbox upstream,
// and a gateway started with OTEL_EXPORTER_OTLP_ENDPOINT pointing at the receiver. A caller's
// `traceparent` must come back as the parent of the gateway's server span, the upstream call
// must be a client span of the same trace under it, and the sandbox must receive that trace id.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { trace } from "@opentelemetry/api";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { loadConfig } from "../../src/core/config.ts";
import { createGateway, type Gateway } from "../../src/gateway.ts";
import { readTracingSettings } from "../../src/observability/tracing.ts";
import { listen, type RunningServer } from "../../src/server.ts";
import { JWT_SECRET, signAccessToken, waitFor, writeTenantsFile } from "../products/harness.ts";
import { startSandbox, type Sandbox } from "../sandbox/index.ts";
import { attr, CLIENT, SERVER, startReceiver, type OtlpSpan } from "./otlp.ts";

describe("tracing settings", () => {
  it("is off without an endpoint, or when disabled", () => {
    expect(readTracingSettings({})).toBeUndefined();
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" })).toBeUndefined();
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_TRACES_EXPORTER: "none" })).toBeUndefined();
  });
  it("derives /v1/traces from the base endpoint; a traces endpoint is used as is", () => {
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318/" })).toMatchObject({
      tracesUrl: "http://c:4318/v1/traces",
      protocol: "http/protobuf",
      serviceName: "workspace-gateway",
    });
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/custom" })?.tracesUrl).toBe("http://c:4318/custom");
  });
  it("names the bad variable", () => {
    expect(() => readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "not a url" })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(() => readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL/,
    );
    expect(() => readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_BSP_SCHEDULE_DELAY: "soon" })).toThrow(
      /OTEL_BSP_SCHEDULE_DELAY/,
    );
  });
});

describe("traces over OTLP", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let sandbox: Sandbox;
  let gateway: Gateway;
  let running: RunningServer;
  let dataDir: string;
  let token: string;
  let apiKey: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    token = await signAccessToken({ sub: "user-1", tenant: "acme" });
    sandbox = await startSandbox({ tokens: [token], tenants: { acme: { tokens: [token] } } });
    dataDir = await mkdtemp(join(tmpdir(), "wg-tracing-"));
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: "0",
      LOG_LEVEL: "silent",
      RATE_LIMIT_PER_MINUTE: "0",
      API_URL: sandbox.url,
      TENANTS_FILE: writeTenantsFile({ acme: sandbox.tenantBaseUrl("acme") }),
      JWT_SECRET,
      RENDER_WORKERS: "1",
    });
    gateway = await createGateway(config, {
      tracingEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_BSP_SCHEDULE_DELAY: "20" },
    });
    running = await listen(gateway, { port: 0, host: "127.0.0.1", shutdownTimeoutMs: 2_000 });
    apiKey = (await createApiKey(gateway.store, { userId: "alice", tenant: null, scopes: ["docs:read"], expiresInMs: null })).key;
  });
  afterAll(async () => {
    await running?.stop();
    await sandbox?.close();
    await receiver?.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    sandbox.clearRequests();
  });

  const spansOf = (traceId: string) => receiver.spans.filter((s) => s.traceId === traceId);

  it("continues the caller's trace: server span, client span for the upstream call, traceparent upstream", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const callerSpanId = "00f067aa0ba902b7";
    const response = await fetch(`${running.url}/graphql`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        traceparent: `00-${traceId}-${callerSpanId}-01`,
        "x-request-id": "trace-test-1",
      },
      body: JSON.stringify({ query: `{ searchFiles(query: "budget") { id } }` }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();

    await waitFor(() => spansOf(traceId).some((s) => s.kind === CLIENT) && spansOf(traceId).some((s) => s.kind === SERVER), 5_000, "spans");
    const server = spansOf(traceId).find((s) => s.kind === SERVER) as OtlpSpan;
    const client = spansOf(traceId).find((s) => s.kind === CLIENT) as OtlpSpan;
    expect(server.parentSpanId).toBe(callerSpanId);
    expect(server.name).toBe("POST /graphql");
    expect(attr(server, "http.request.method")).toBe("POST");
    expect(attr(server, "http.route")).toBe("/graphql");
    expect(attr(server, "url.path")).toBe("/graphql");
    expect(attr(server, "http.response.status_code")).toBe(200);
    expect(attr(server, "gateway.surface")).toBe("graphql");
    expect(attr(server, "gateway.request_id")).toBe("trace-test-1");
    expect(client.parentSpanId).toBe(server.spanId);
    expect(attr(client, "http.request.method")).toBe(sandbox.requests[0]?.method);
    expect(String(attr(client, "url.full"))).toContain(sandbox.url);

    const upstream = sandbox.requests.find((r) => r.headers["traceparent"] !== undefined);
    expect(upstream?.headers["traceparent"]).toBe(`00-${traceId}-${client.spanId}-01`);
    expect(receiver.contentTypes.every((type) => type.startsWith("application/json"))).toBe(true);
  });

  it("starts a new trace without a (valid) traceparent, and records the error code of a failure", async () => {
    const before = new Set(receiver.spans.map((s) => s.spanId));
    const response = await fetch(`${running.url}/api/v1/documents/doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A`, {
      headers: { authorization: `Bearer ${apiKey}`, traceparent: "00-not-a-trace-01", "x-request-id": "trace-test-2" },
    });
    expect(response.status).toBe(404);
    await waitFor(
      () => receiver.spans.some((s) => !before.has(s.spanId) && attr(s, "gateway.request_id") === "trace-test-2"),
      5_000,
      "span",
    );
    const span = receiver.spans.find((s) => attr(s, "gateway.request_id") === "trace-test-2") as OtlpSpan;
    expect(span.parentSpanId ?? "").toBe("");
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(attr(span, "http.route")).toBe("/api/v1/documents/:id");
    expect(attr(span, "gateway.surface")).toBe("rest");
    expect(attr(span, "http.response.status_code")).toBe(404);
    expect(attr(span, "gateway.error.code")).toBe("NOT_FOUND");
  });

  it("records tRPC and GraphQL error codes on the request span", async () => {
    const trpc = await fetch(`${running.url}/trpc/documents.read?input=${encodeURIComponent(JSON.stringify({ id: "x" }))}`, {
      headers: { "x-request-id": "trace-test-3" },
    });
    expect(trpc.status).toBe(401);
    const graphql = await fetch(`${running.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/graphql-response+json", "x-request-id": "trace-test-4" },
      body: JSON.stringify({ query: "{ nope }" }),
    });
    expect(graphql.status).toBe(400);
    await waitFor(
      () => ["trace-test-3", "trace-test-4"].every((id) => receiver.spans.some((s) => attr(s, "gateway.request_id") === id)),
      5_000,
      "spans",
    );
    const byId = (id: string) => receiver.spans.find((s) => attr(s, "gateway.request_id") === id) as OtlpSpan;
    expect(attr(byId("trace-test-3"), "gateway.error.code")).toBe("UNAUTHENTICATED");
    expect(attr(byId("trace-test-3"), "gateway.surface")).toBe("trpc");
    expect(attr(byId("trace-test-3"), "http.route")).toBe("/trpc/*");
    expect(attr(byId("trace-test-4"), "gateway.error.code")).toBe("BAD_USER_INPUT");
  });

  it("names an unknown path's span by the catch-all route, never by the path", async () => {
    const response = await fetch(`${running.url}/no/such/path/123`, { headers: { "x-request-id": "trace-test-5" } });
    expect(response.status).toBe(404);
    await waitFor(() => receiver.spans.some((s) => attr(s, "gateway.request_id") === "trace-test-5"), 5_000, "span");
    const span = receiver.spans.find((s) => attr(s, "gateway.request_id") === "trace-test-5") as OtlpSpan;
    expect(span.name).toBe("GET /*");
    expect(attr(span, "url.path")).toBe("/no/such/path/123");
    expect(attr(span, "gateway.surface")).toBe("http");
    expect(attr(span, "gateway.error.code")).toBe("NOT_FOUND");
  });

  it("registers a real tracer provider only while tracing is on", () => {
    expect(trace.getTracer("probe").startSpan("x").isRecording()).toBe(true);
  });
});
