// A share link's token is its credential, and it sits in the path (/api/v1/shared/{token}). Issue
// 23: every request to a share link logged that path, token included, at the default level. The
// gateway here logs at `trace` (every level on) and exports spans to an OTLP receiver: neither the
// log, nor any span's name or attributes, nor /metrics may hold the token, for reads, downloads,
// conditional reads and paths the router does not match.
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { loadConfig } from "../../src/core/config.ts";
import { createLogger } from "../../src/core/logger.ts";
import { createGateway, type Gateway } from "../../src/gateway.ts";
import { redactPath } from "../../src/http/redact.ts";
import { listen, type RunningServer } from "../../src/server.ts";
import { waitFor } from "../products/harness.ts";
import { attr, startReceiver, type Receiver } from "./otlp.ts";

describe("share-link tokens in logs, traces and metrics", () => {
  let receiver: Receiver;
  let gateway: Gateway;
  let running: RunningServer;
  let dataDir: string;
  let log = "";

  beforeAll(async () => {
    receiver = await startReceiver();
    dataDir = await mkdtemp(join(tmpdir(), "wg-share-redaction-"));
    const config = loadConfig({ DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "trace", RATE_LIMIT_PER_MINUTE: "0", RENDER_WORKERS: "1" });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString("utf8");
        done();
      },
    });
    gateway = await createGateway(config, {
      logger: createLogger("trace", sink),
      tracingEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_BSP_SCHEDULE_DELAY: "20" },
    });
    running = await listen(gateway, { port: 0, host: "127.0.0.1", shutdownTimeoutMs: 2_000 });
  });
  afterAll(async () => {
    await running?.stop();
    await receiver?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("keeps the token out of every log line, span and metric label, with a hash prefix in its place", async () => {
    const { key } = await createApiKey(gateway.store, {
      userId: "sharer",
      tenant: null,
      scopes: ["docs:read", "docs:write"],
      expiresInMs: null,
    });
    const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const created = await fetch(`${running.url}/api/v1/documents`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "s", markdown: "# shared" }),
    });
    const { id } = (await created.json()) as { id: string };
    const shared = await fetch(`${running.url}/api/v1/documents/${id}/shares`, { method: "POST", headers: auth, body: "{}" });
    expect(shared.status).toBe(201);
    const { url } = (await shared.json()) as { url: string };
    const token = url.slice(url.lastIndexOf("/") + 1);
    expect(token).toMatch(/^wgs_[A-Za-z0-9_-]{43}$/);
    const secret = token.slice("wgs_".length);

    const requests: [string, RequestInit, number][] = [
      [`/api/v1/shared/${token}`, {}, 200],
      [`/api/v1/shared/${token}`, { headers: { "if-none-match": '"v1"' } }, 304],
      [`/api/v1/shared/${token}/content`, {}, 200],
      [`/api/v1/shared/${token}/nope`, {}, 404],
      [`/api/v1//shared/${token}`, {}, 404],
      [`/API/V1/SHARED/${token}`, {}, 404],
      [`/api/v1/shared/${token}?format=markdown`, {}, 200],
    ];
    for (const [path, init, status] of requests) {
      const response = await fetch(`${running.url}${path}`, {
        ...init,
        headers: { ...init.headers, "x-request-id": `share-${status}-${path.length}` },
      });
      await response.arrayBuffer();
      expect(response.status, path).toBe(status);
    }
    await waitFor(
      () => receiver.spans.filter((s) => String(attr(s, "gateway.request_id")).startsWith("share-")).length >= requests.length,
      5_000,
      "spans",
    );

    const hashed = `[redacted:${createHash("sha256").update(token).digest("hex").slice(0, 8)}]`;
    const lines = log
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg?: string; path?: string });
    const logged = lines.filter((l) => l.msg === "request" && l.path?.toLowerCase().includes("shared")).map((l) => l.path);
    expect(logged).toContain(`/api/v1/shared/${hashed}`);
    expect(logged).toContain(`/api/v1/shared/${hashed}/content`);
    expect(log).not.toContain(secret);

    const spans = JSON.stringify(receiver.spans);
    expect(spans).toContain(hashed);
    expect(spans).not.toContain(secret);

    const metrics = await (await fetch(`${running.url}/metrics`)).text();
    expect(metrics).toContain("/api/v1/shared/:token");
    expect(metrics).not.toContain(secret);
  });

  it("redactPath leaves other paths alone", () => {
    for (const path of [
      "/graphql",
      "/api/v1/documents/doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A/shares/shr_1",
      "/api/v1/documents",
      "/trpc/documents.list",
    ]) {
      expect(redactPath(path)).toBe(path);
    }
    expect(redactPath("/api/v1/shared/wgs_abc")).toMatch(/^\/api\/v1\/shared\/\[redacted:[0-9a-f]{8}\]$/);
    expect(redactPath("/x/wgs_abc/y")).toMatch(/^\/x\/\[redacted:[0-9a-f]{8}\]\/y$/);
  });
});
