// The upstream client on its own, against a bare node:http server, for what the sandbox does
// not show: the connection a cancelled call leaves, redirects, connection reuse.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseBase, type UpstreamBase } from "../../adapters/upstream/base.ts";
import { createUpstreamClient, type UpstreamClient } from "../../adapters/upstream/client.ts";
import { adapterRejection } from "./helpers.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let handler: Handler = (_req, res) => res.end("{}");
let server: Server;
let base: UpstreamBase;
let client: UpstreamClient;
const sockets = new Set<unknown>();
const closed: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.on("close", () => closed.push(req.url ?? ""));
    handler(req, res);
  });
  server.on("connection", (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = parseBase(`http://127.0.0.1:${(server.address() as AddressInfo).port}/prefix/`, "test");
  client = createUpstreamClient({ timeoutMs: 5_000, retryBaseDelayMs: 1 });
});
afterAll(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const call = { requestId: "req-1", accessToken: "tok" };
const schema = z.object({ ok: z.boolean() });
const get = (path: string, signal?: AbortSignal) =>
  client.json({ ...call, signal }, { product: "mail", base, method: "GET", path, schema });

describe("upstream client", () => {
  it("keeps the configured prefix and reuses keep-alive connections", async () => {
    const seen: string[] = [];
    handler = (req, res) => {
      seen.push(req.url ?? "");
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ ok: true }));
    };
    const before = sockets.size;
    for (let i = 0; i < 10; i++) expect(await get(`/x/${i}`)).toEqual({ ok: true });
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => `/prefix/x/${i}`));
    // undici may hand the next request to a second pooled socket before the first one is
    // marked free, but ten sequential calls never open ten connections.
    expect(sockets.size - before).toBeLessThanOrEqual(2);
  });

  it("a cancelled call closes its upstream connection", async () => {
    handler = () => undefined; // never answers
    const controller = new AbortController();
    const pending = get("/hang", controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).not.toContain("/prefix/hang");
    controller.abort();
    expect((await adapterRejection(pending)).message).toMatch(/cancelled/);
    await expect.poll(() => closed.includes("/prefix/hang"), { timeout: 1_000 }).toBe(true);
  });

  it("does not follow redirects", async () => {
    handler = (_req, res) => {
      res.writeHead(302, { location: "http://169.254.169.254/" });
      res.end();
    };
    expect((await adapterRejection(get("/redirect"))).code).toBe("UPSTREAM_ERROR");
  });

  it("refuses a declared Content-Length over the cap without reading it", async () => {
    const small = createUpstreamClient({ maxResponseBytes: 10 });
    try {
      handler = (_req, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-length": "100000" });
        res.write("{");
      };
      const error = await adapterRejection(small.json(call, { product: "mail", base, method: "GET", path: "/big", schema }));
      expect(error.message).toBe("upstream response: larger than 10 bytes");
    } finally {
      await small.close();
    }
  });

  it("gives an upload the time to send its bytes, not just the usual timeout", async () => {
    // The upstream drains the body at ~2 MiB/s: 8 MiB take ~4 s, far beyond the 300 ms timeout
    // that still applies to everything else.
    handler = (req, res) => {
      let received = 0;
      req.on("data", (chunk: Buffer) => {
        received += chunk.byteLength;
        req.pause();
        setTimeout(() => req.resume(), chunk.byteLength / 2048);
      });
      req.on("end", () => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ ok: true, received }));
      });
    };
    const slow = createUpstreamClient({ timeoutMs: 300 });
    try {
      const bytes = 8 * 1024 * 1024;
      const started = performance.now();
      const result = await slow.upload(call, {
        product: "drive",
        base,
        path: "/upload",
        file: { data: new Uint8Array(bytes), filename: "big.bin", contentType: "application/octet-stream", size: bytes },
        schema: z.object({ ok: z.boolean(), received: z.number() }),
      });
      expect(performance.now() - started).toBeGreaterThan(1_000); // the upload really was slow
      expect(result.ok).toBe(true);
      expect(result.received).toBeGreaterThan(bytes);
    } finally {
      await slow.close();
    }
  });

  it("reads Retry-After as an HTTP date", async () => {
    handler = (_req, res) => {
      res.writeHead(429, { "retry-after": new Date(Date.now() + 60_000).toUTCString(), "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "rate_limited", message: "later" } }));
    };
    const error = await adapterRejection(get("/limited"));
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.retryAfter).toBeGreaterThanOrEqual(58);
  });
});
