// /metrics: open by default (loopback bind), a bearer token with METRICS_TOKEN, its own listener
// with METRICS_PORT (and then absent from the main port).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway } from "../../src/gateway.ts";
import { loadConfig } from "../../src/core/config.ts";
import { listen, type RunningServer } from "../../src/server.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const token = "metrics-token-0123456789";

describe("METRICS_TOKEN", () => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway({ METRICS_TOKEN: token });
  });
  afterAll(() => tg.close());

  it.each([
    ["no Authorization", undefined],
    ["a wrong token", `Bearer ${token}x`],
    ["a prefix of the token", `Bearer ${token.slice(0, 10)}`],
    ["an API-key-like string", "Bearer wgk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"],
    ["Basic", `Basic ${Buffer.from(`x:${token}`).toString("base64")}`],
  ])("%s → 401 and no metrics", async (_label, authorization) => {
    const response = await fetch(`${tg.url}/metrics`, { headers: authorization ? { authorization } : {} });
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain("gateway_http_request_duration_seconds");
  });

  it("the token → 200 with the metrics", async () => {
    const response = await fetch(`${tg.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("gateway_http_request_duration_seconds");
  });

  it("a METRICS_TOKEN shorter than 16 characters stops the start", async () => {
    await expect(startTestGateway({ METRICS_TOKEN: "short" })).rejects.toThrow(/METRICS_TOKEN/);
  });
});

describe("METRICS_PORT", () => {
  let running: RunningServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "wg-metrics-"));
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: "0",
      LOG_LEVEL: "silent",
      METRICS_PORT: "0",
      METRICS_HOST: "127.0.0.1",
      METRICS_TOKEN: token,
    });
    running = await listen(await createGateway(config), { port: 0, host: "127.0.0.1", shutdownTimeoutMs: 2_000 });
  });
  afterAll(async () => {
    await running.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("serves /metrics on its own listener, still behind the token, and not on the main port", async () => {
    expect(running.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.metricsUrl).not.toBe(running.url);
    const own = await fetch(`${running.metricsUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(own.status).toBe(200);
    expect(await own.text()).toContain("process_cpu_seconds_total");
    expect((await fetch(`${running.metricsUrl}/metrics`)).status).toBe(401);
    expect((await fetch(`${running.metricsUrl}/api/v1/documents`)).status).toBe(404);
    const main = await fetch(`${running.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(main.status).toBe(404);
  });
});

describe("default", () => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway();
  });
  afterAll(() => tg.close());

  it("is open on the (loopback) main port", async () => {
    const response = await fetch(`${tg.url}/metrics`);
    expect(response.status).toBe(200);
  });
});
