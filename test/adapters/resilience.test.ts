// Error mapping, retries, timeouts, resets, malformed bodies, the circuit breaker, caller
// cancellation, DataLoaders, credentials and tenant isolation — at the service level.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TOKEN, makeContext, rejection, startHarness, tenantsFile, type Harness } from "./helpers.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.sandbox.reset();
});

const fileId = () => h.sandbox.data.files[0]!.id;

describe("upstream statuses", () => {
  const cases = [
    [400, "BAD_USER_INPUT"],
    [401, "UNAUTHENTICATED"],
    [403, "FORBIDDEN"],
    [404, "NOT_FOUND"],
    [409, "CONFLICT"],
    [500, "UPSTREAM_ERROR"],
    [503, "UPSTREAM_ERROR"],
  ] as const;

  it.each(cases)("HTTP %i → %s, keeping the upstream's message", async (status, code) => {
    h.sandbox.setFaults([{ type: "status", status, message: `upstream says ${status}`, path: "/search/v1/query" }]);
    const error = await rejection(h.products.search.query(makeContext(), { query: "x" }));
    expect(error.code).toBe(code);
    expect(error.message).toContain(`upstream says ${status}`);
    expect(h.sandbox.countRequests("/search/v1/query")).toBe(1); // POST: never retried
  });

  it("HTTP 429 → RATE_LIMITED with the upstream's Retry-After", async () => {
    h.sandbox.setFaults([{ type: "status", status: 429, retryAfter: 30, message: "slow down", path: "/drive/v1/files" }]);
    const error = await rejection(h.products.files.get(makeContext(), { id: fileId() }));
    expect(error).toMatchObject({ code: "RATE_LIMITED", retryAfter: 30, message: "slow down" });
    // A GET, but 30 s is longer than a retry may wait: answered at once.
    expect(h.sandbox.countRequests("/drive/v1/files")).toBe(1);
  });

  it("a real upstream 404 and 401 pass through", async () => {
    expect((await rejection(h.products.files.get(makeContext(), { id: "file_missing" }))).code).toBe("NOT_FOUND");
    const error = await rejection(h.products.files.get(makeContext({ token: "wrong" }), { id: fileId() }));
    expect(error.code).toBe("UNAUTHENTICATED");
    expect(h.sandbox.requests.at(-1)?.headers.authorization).toBe("Bearer wrong");
  });
});

describe("transport failures", () => {
  it("no answer within UPSTREAM_TIMEOUT_MS → UPSTREAM_TIMEOUT", async () => {
    const { products } = h.build({ client: { timeoutMs: 150 } });
    h.sandbox.setFaults([{ type: "hang", path: "/search/v1/query" }]);
    const started = Date.now();
    const error = await rejection(products.search.query(makeContext(), { query: "x" }));
    expect(error.code).toBe("UPSTREAM_TIMEOUT");
    expect(Date.now() - started).toBeLessThan(1_800);
  });

  it("a connection reset → UPSTREAM_UNAVAILABLE", async () => {
    h.sandbox.setFaults([{ type: "reset", path: "/search/v1/query" }]);
    expect((await rejection(h.products.search.query(makeContext(), { query: "x" }))).code).toBe("UPSTREAM_UNAVAILABLE");
    expect(h.sandbox.countRequests("/search/v1/query")).toBe(1);
  });

  it("a refused connection → UPSTREAM_UNAVAILABLE", async () => {
    const { products } = h.build({ config: { API_URL: "http://127.0.0.1:9" } });
    expect((await rejection(products.search.query(makeContext(), { query: "x" }))).code).toBe("UPSTREAM_UNAVAILABLE");
  });

  it("a body missing a field → UPSTREAM_ERROR naming it", async () => {
    h.sandbox.setFaults([{ type: "malformed", mode: "missing-field", field: "id", path: "/email/v1/messages" }]);
    const error = await rejection(h.products.messages.list(makeContext(), {}));
    expect(error.code).toBe("UPSTREAM_ERROR");
    expect(error.message).toMatch(/^upstream response: data\.0\.id: expected string/);

    h.sandbox.setFaults([{ type: "malformed", mode: "missing-field", field: "customer.name", path: "/api/v1/invoices" }]);
    const nested = await rejection(h.products.enterprise.invoices(makeContext({ tenant: "acme" }), {}));
    expect(nested.message).toMatch(/^upstream response: data\.0\.customer\.name: expected string/);
  });

  it("a wrong type, broken JSON and extra fields", async () => {
    // A malformed fault replaces a successful answer, so ask for a meeting that has a summary.
    const id = h.sandbox.data.meetings.find((m) => m.status === "completed")!.id;
    h.sandbox.setFaults([
      { type: "malformed", mode: "raw", raw: JSON.stringify({ meetingId: "m", summary: 5, actionItems: [] }), path: "/meetings/" },
    ]);
    expect((await rejection(h.products.meetings.summary(makeContext(), { id }))).message).toMatch(
      /^upstream response: summary: expected string/,
    );

    h.sandbox.setFaults([{ type: "malformed", mode: "invalid-json", path: "/drive/v1/files" }]);
    expect((await rejection(h.products.files.get(makeContext(), { id: fileId() }))).message).toBe("upstream response: not valid JSON");

    const extra = { meetingId: "m", summary: "ok", actionItems: [{ text: "t", owner: null, priority: 1 }], model: "x" };
    h.sandbox.setFaults([{ type: "malformed", mode: "raw", raw: JSON.stringify(extra), path: "/meetings/" }]);
    expect(await h.products.meetings.summary(makeContext(), { id })).toEqual({
      meetingId: "m",
      summary: "ok",
      actionItems: [{ text: "t", owner: undefined }],
    });
  });

  it("a body over the size cap → UPSTREAM_ERROR", async () => {
    const { products } = h.build({ client: { maxResponseBytes: 200 } });
    const error = await rejection(products.messages.list(makeContext(), { limit: 10 }));
    expect(error).toMatchObject({ code: "UPSTREAM_ERROR", message: "upstream response: larger than 200 bytes" });
  });
});

describe("retries", () => {
  it("a GET that fails once (503) is retried and succeeds", async () => {
    h.sandbox.setFaults([{ type: "fail-once", status: 503, path: "/drive/v1/files" }]);
    const file = await h.products.files.get(makeContext(), { id: fileId() });
    expect(file.id).toBe(fileId());
    expect(h.sandbox.countRequests("/drive/v1/files", "GET")).toBe(2);
  });

  it("a GET after a reset and after a 429 with a short Retry-After is retried", async () => {
    h.sandbox.setFaults([{ type: "reset", count: 1, path: "/drive/v1/files" }]);
    expect((await h.products.files.get(makeContext(), { id: fileId() })).id).toBe(fileId());
    expect(h.sandbox.countRequests("/drive/v1/files")).toBe(2);

    h.sandbox.clearRequests();
    h.sandbox.setFaults([{ type: "fail-once", status: 429, retryAfter: 0, path: "/drive/v1/files" }]);
    expect((await h.products.files.get(makeContext(), { id: fileId() })).id).toBe(fileId());
    expect(h.sandbox.countRequests("/drive/v1/files")).toBe(2);
  });

  it("gives up after two retries", async () => {
    h.sandbox.setFaults([{ type: "status", status: 502, path: "/drive/v1/files" }]);
    expect((await rejection(h.products.files.get(makeContext(), { id: fileId() }))).code).toBe("UPSTREAM_ERROR");
    expect(h.sandbox.countRequests("/drive/v1/files")).toBe(3);
  });

  it("never retries a POST, nor a GET answered 4xx", async () => {
    h.sandbox.setFaults([{ type: "fail-once", status: 503, path: "/drive/v1/search" }]);
    expect((await rejection(h.products.files.search(makeContext(), { query: "a" }))).code).toBe("UPSTREAM_ERROR");
    expect(h.sandbox.countRequests("/drive/v1/search")).toBe(1);

    h.sandbox.setFaults([{ type: "status", status: 404, path: "/drive/v1/files" }]);
    await rejection(h.products.files.get(makeContext(), { id: fileId() }));
    expect(h.sandbox.countRequests("/drive/v1/files")).toBe(1);
  });

  it("retries a GET answered 500, a timeout or a body cut short (under the retry budget)", async () => {
    // A 500 used to be final; under a budget a retry costs little and helps a transient one.
    h.sandbox.setFaults([{ type: "fail-once", status: 500, path: "/drive/v1/files" }]);
    expect((await h.products.files.get(makeContext(), { id: fileId() })).id).toBe(fileId());
    expect(h.sandbox.countRequests("/drive/v1/files")).toBe(2);

    h.sandbox.clearRequests();
    h.sandbox.setFaults([{ type: "malformed", mode: "invalid-json", count: 1, path: "/drive/v1/files" }]);
    expect((await h.products.files.get(makeContext(), { id: fileId() })).id).toBe(fileId());
    expect(h.sandbox.countRequests("/drive/v1/files")).toBe(2);

    h.sandbox.clearRequests();
    const { products } = h.build({ client: { timeoutMs: 150 } });
    h.sandbox.setFaults([{ type: "hang", count: 1, path: "/drive/v1/files" }]);
    expect((await products.files.get(makeContext(), { id: fileId() })).id).toBe(fileId());
    expect(h.sandbox.countRequests("/drive/v1/files")).toBe(2);
  });
});

describe("circuit breaker", () => {
  // The breaker measures a failure rate over a sliding window (adapters/upstream/breaker.ts);
  // these tests used to count a streak of consecutive failures.
  it("opens once the window's failure rate reaches the threshold, answers at once, and closes after its probes succeed", async () => {
    const { products, upstream } = h.build({
      client: { maxRetries: 0, breaker: { minCalls: 4, failureRate: 0.5, openMs: 150, openMaxMs: 150, probes: 2, holdMs: 0 } }, // refuse, not wait (hold.test.ts)
    });
    await products.search.query(makeContext(), { query: "x" });
    await products.search.query(makeContext(), { query: "x" });
    h.sandbox.setFaults([{ type: "status", status: 500, path: "/search/v1/query" }]);
    expect((await rejection(products.search.query(makeContext(), { query: "x" }))).code).toBe("UPSTREAM_ERROR");
    expect(upstream.circuit(h.sandbox.url)).toBe("closed"); // 1 of 3: below the minimum of calls
    expect((await rejection(products.search.query(makeContext(), { query: "x" }))).code).toBe("UPSTREAM_ERROR");
    expect(upstream.circuit(h.sandbox.url)).toBe("open"); // 2 of 4 failed: 50%

    const error = await rejection(products.files.get(makeContext(), { id: fileId() })); // same origin
    expect(error.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(error.message).toMatch(/circuit open/);
    expect(h.sandbox.requests).toHaveLength(4);

    await new Promise((resolve) => setTimeout(resolve, 200));
    h.sandbox.clearFaults();
    expect(upstream.circuit(h.sandbox.url)).toBe("half-open");
    expect((await products.files.get(makeContext(), { id: fileId() })).id).toBe(fileId());
    expect(upstream.circuit(h.sandbox.url)).toBe("half-open"); // one of two probes
    expect((await products.files.get(makeContext(), { id: fileId() })).id).toBe(fileId());
    expect(upstream.circuit(h.sandbox.url)).toBe("closed");
  });

  it("by default a call meeting an open circuit is refused at once, even just before its probe", async () => {
    // random 1: the jitter takes the full 20% off the 800 ms interval's nominal 1 s.
    const { products, upstream } = h.build({
      client: { maxRetries: 0, random: () => 1, breaker: { minCalls: 2, failureRate: 0.5, openMs: 1_000, openMaxMs: 1_000, probes: 1 } },
    });
    h.sandbox.setFaults([{ type: "status", status: 500, path: "/search/v1/query" }]);
    for (let i = 0; i < 2; i++) await rejection(products.search.query(makeContext(), { query: "x" }));
    expect(upstream.circuit(h.sandbox.url)).toBe("open");
    h.sandbox.clearFaults(); // healthy again; a call held for the probe would become it, succeed and close the circuit
    await new Promise((resolve) => setTimeout(resolve, 650)); // ~150 ms before the probe
    const error = await rejection(products.files.get(makeContext(), { id: fileId() }));
    expect(error).toMatchObject({ code: "UPSTREAM_UNAVAILABLE", message: expect.stringMatching(/circuit open/) });
    expect(upstream.circuit(h.sandbox.url)).toBe("open"); // refused without waiting for the interval's end
    expect(h.sandbox.countRequests("/drive/v1/files")).toBe(0);
  });

  it("with UPSTREAM_BREAKER_HOLD_MS, a call arriving near the end of the open interval waits for the probe instead of being refused", async () => {
    const { products, upstream } = h.build({
      client: { maxRetries: 0, breaker: { minCalls: 2, failureRate: 0.5, openMs: 150, openMaxMs: 150, probes: 1, holdMs: 250 } },
    });
    h.sandbox.setFaults([{ type: "status", status: 500, path: "/search/v1/query" }]);
    for (let i = 0; i < 2; i++) await rejection(products.search.query(makeContext(), { query: "x" }));
    expect(upstream.circuit(h.sandbox.url)).toBe("open");
    h.sandbox.clearFaults(); // the upstream is back while the circuit is still open
    const start = performance.now();
    expect((await products.files.get(makeContext(), { id: fileId() })).id).toBe(fileId());
    expect(performance.now() - start).toBeGreaterThanOrEqual(100); // it waited for the interval's end
    expect(upstream.circuit(h.sandbox.url)).toBe("closed"); // and its success, as the probe, closed it
  });

  it("a retry never goes through an open circuit: the call ends with the failure it would have retried", async () => {
    const { products, upstream } = h.build({ client: { breaker: { minCalls: 1, failureRate: 0.5, openMs: 60_000, openMaxMs: 60_000 } } });
    h.sandbox.setFaults([{ type: "status", status: 503, message: "down for a moment", path: "/drive/v1/files" }]);
    const error = await rejection(products.files.get(makeContext(), { id: fileId() })); // a GET: retryable
    expect(upstream.circuit(h.sandbox.url)).toBe("open"); // the first failure opened it (1 of 1)
    expect(error).toMatchObject({ code: "UPSTREAM_ERROR", message: expect.stringContaining("down for a moment") });
    expect(h.sandbox.countRequests("/drive/v1/files")).toBe(1);
  });

  it("a failure rate under the threshold never opens it", async () => {
    const { products, upstream } = h.build({ client: { maxRetries: 0, breaker: { minCalls: 20, failureRate: 0.5 } } });
    h.sandbox.setFaults([{ type: "error-rate", rate: 0.2, status: 500, path: "/search/v1/query" }]);
    let failed = 0;
    for (let i = 0; i < 40; i++) await products.search.query(makeContext(), { query: "x" }).catch(() => failed++);
    expect(failed).toBeGreaterThan(3);
    expect(upstream.circuit(h.sandbox.url)).toBe("closed");
  });

  it("is per origin: a dead API origin does not block tenant origins", async () => {
    const own = await startHarness({ sandbox: { tenantPorts: true } });
    try {
      const { products, upstream } = own.build({
        client: { breaker: { minCalls: 2 }, maxRetries: 0 },
        config: { API_URL: "http://127.0.0.1:9" },
      });
      for (let i = 0; i < 2; i++) await rejection(products.search.query(makeContext(), { query: "x" }));
      expect(upstream.circuit("http://127.0.0.1:9")).toBe("open");
      expect((await products.enterprise.invoices(makeContext({ tenant: "acme" }), {})).data.length).toBeGreaterThan(0);
    } finally {
      await own.close();
    }
  });

  it("4xx answers do not open it", async () => {
    const { products, upstream } = h.build({ client: { breaker: { minCalls: 2 } } });
    for (let i = 0; i < 4; i++) await rejection(products.files.get(makeContext(), { id: "nope" }));
    expect(upstream.circuit(h.sandbox.url)).toBe("closed");
  });

  it("reports its state and the retry budget's decisions as metrics", async () => {
    const { products } = h.build({ client: { breaker: { minCalls: 2, openMs: 60_000 }, retryBudget: { ratio: 0, minPerSecond: 0.1 } } });
    h.sandbox.setFaults([{ type: "status", status: 503, path: "/drive/v1/files" }]);
    await rejection(products.files.get(makeContext(), { id: fileId() })); // one retry allowed (the floor: 1 per 10 s), one denied
    const text = await h.metrics.registry.metrics();
    const origin = h.sandbox.url;
    expect(text).toContain(`gateway_upstream_circuit_state{origin="${origin}"} 2`);
    expect(text).toContain(`gateway_upstream_retries_total{origin="${origin}",budget="allowed"} 1`);
    expect(text).toContain(`gateway_upstream_retries_total{origin="${origin}",budget="denied"} 1`);
  });
});

describe("request deadline", () => {
  it("one request's upstream calls share it: a slow second call is cut at the deadline, not given its own timeout", async () => {
    // The first call's latency is well inside the deadline even on a loaded machine; the second's is
    // the per-call timeout, so only a shared deadline cuts it (its message names the deadline).
    const { products } = h.build({ client: { timeoutMs: 5_000, requestDeadlineMs: 1_500 } });
    h.sandbox.setFaults([
      { type: "latency", ms: 200, path: "/email/v1/messages" },
      { type: "latency", ms: 5_000, path: "/email/v1/threads/" },
    ]);
    const ctx = makeContext(); // one incoming request, as a GraphQL query resolving messages then a thread
    const started = Date.now();
    const page = await products.messages.list(ctx, { limit: 1 });
    const error = await rejection(products.messages.thread(ctx, { id: page.data[0]!.threadId }));
    expect(error.code).toBe("UPSTREAM_TIMEOUT");
    expect(error.message).toMatch(/deadline of 1500 ms/);
    expect(Date.now() - started).toBeLessThan(4_000);
    // The next request starts its own.
    expect((await products.messages.list(makeContext(), { limit: 1 })).data).toHaveLength(1);
  });
});

describe("cancellation", () => {
  it("a caller that hangs up cancels the upstream request", async () => {
    const { products } = h.build({ client: { timeoutMs: 5_000 } });
    h.sandbox.setFaults([{ type: "hang", path: "/search/v1/query" }]);
    const controller = new AbortController();
    const started = Date.now();
    const pending = products.search.query(makeContext({ signal: controller.signal }), { query: "x" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(h.sandbox.requests).toHaveLength(1); // it reached the upstream …
    controller.abort();
    const error = await rejection(pending);
    expect(Date.now() - started).toBeLessThan(1_000); // … and was dropped, not waited for
    expect(error.message).toMatch(/cancelled/);
    expect(h.sandbox.requests[0]?.status).toBeUndefined();
  });

  it("an already aborted signal sends nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    await rejection(h.products.files.get(makeContext({ signal: controller.signal }), { id: fileId() }));
    expect(h.sandbox.requests).toHaveLength(0);
  });
});

describe("DataLoaders", () => {
  it("20 thread loads over 3 ids cost 3 upstream calls", async () => {
    const ctx = makeContext();
    const ids = h.sandbox.data.threads.slice(0, 3).map((t) => t.id);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => h.products.messages.thread(ctx, { id: ids[i % 3] as string })));
    expect(results.map((t) => t.id)).toEqual(Array.from({ length: 20 }, (_, i) => ids[i % 3]));
    expect(h.sandbox.countRequests("/email/v1/threads/")).toBe(3);
    // Later in the same request: still cached. A new request: new loaders.
    await h.products.loaders(ctx).thread.load(ids[0] as string);
    expect(h.sandbox.countRequests("/email/v1/threads/")).toBe(3);
    await h.products.messages.thread(makeContext(), { id: ids[0] as string });
    expect(h.sandbox.countRequests("/email/v1/threads/")).toBe(4);
  });

  it("transcripts, summaries and files likewise; a missing id fails alone", async () => {
    const ctx = makeContext();
    const meeting = h.sandbox.data.meetings.find((m) => m.status === "completed")!.id;
    const loaders = h.products.loaders(ctx);
    const settled = await Promise.allSettled([
      ...Array.from({ length: 5 }, () => loaders.transcript.load(meeting)),
      ...Array.from({ length: 5 }, () => h.products.meetings.summary(ctx, { id: meeting })),
      ...Array.from({ length: 5 }, () => h.products.files.get(ctx, { id: fileId() })),
      loaders.file.load("file_missing"),
    ]);
    expect(settled.slice(0, 15).every((s) => s.status === "fulfilled")).toBe(true);
    expect(settled[15]).toMatchObject({ status: "rejected", reason: { code: "NOT_FOUND" } });
    expect(h.sandbox.countRequests("/meetings/v1/meetings/", "GET")).toBe(2);
    expect(h.sandbox.countRequests("/drive/v1/files/", "GET")).toBe(2);
  });
});

describe("credentials", () => {
  it("a personal API key is refused before anything is sent", async () => {
    const ctx = makeContext({ kind: "api_key" });
    const error = await rejection(h.products.messages.list(ctx, {}));
    expect(error).toMatchObject({
      code: "FORBIDDEN",
      message:
        "Product operations need an access token (the bearer, or X-Access-Token beside a personal API key); personal API keys are never forwarded upstream",
    });
    expect((await rejection(h.products.meetings.transcript(ctx, { id: "m" }))).code).toBe("FORBIDDEN");
    expect(() => h.products.loaders(ctx)).toThrow(/access token/);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("no access token → UNAUTHENTICATED", async () => {
    expect((await rejection(h.products.search.query(makeContext({ token: undefined }), { query: "x" }))).code).toBe("UNAUTHENTICATED");
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("bad input → BAD_USER_INPUT, nothing sent", async () => {
    const ctx = makeContext();
    expect((await rejection(h.products.messages.send(ctx, { to: ["not-an-email"], subject: "s", body: "b" }))).message).toMatch(/^to\.0:/);
    expect((await rejection(h.products.messages.thread(ctx, { id: "../x" }))).code).toBe("BAD_USER_INPUT");
    expect((await rejection(h.products.files.get(ctx, { id: "a/b" }))).code).toBe("BAD_USER_INPUT");
    expect((await rejection(h.products.messages.list(ctx, { limit: 0 }))).code).toBe("BAD_USER_INPUT");
    expect((await rejection(h.products.files.upload(ctx, { file: "text" as never }))).code).toBe("BAD_USER_INPUT");
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("API_URL unset → UPSTREAM_NOT_CONFIGURED", async () => {
    const { products } = h.build({ config: { API_URL: undefined } });
    expect((await rejection(products.messages.list(makeContext(), {}))).code).toBe("UPSTREAM_NOT_CONFIGURED");
  });
});

describe("uploads", () => {
  it("a stream over UPLOAD_LIMIT_BYTES is cut off with PAYLOAD_TOO_LARGE", async () => {
    const { products } = h.build({ client: { uploadLimitBytes: 1024 * 1024 } });
    let produced = 0;
    async function* bytes() {
      for (let i = 0; i < 100; i++) {
        produced += 64 * 1024;
        yield Buffer.alloc(64 * 1024);
      }
    }
    const error = await rejection(
      products.files.upload(makeContext(), { file: bytes(), filename: "big.bin", contentType: "application/octet-stream" }),
    );
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(produced).toBeLessThan(2 * 1024 * 1024); // stopped reading early
    expect((await rejection(products.files.upload(makeContext(), { file: new Uint8Array(2 * 1024 * 1024) }))).code).toBe(
      "PAYLOAD_TOO_LARGE",
    );
  });

  it("a 50 MB upload streams through", async () => {
    const chunk = Buffer.alloc(1024 * 1024, 7);
    async function* bytes() {
      for (let i = 0; i < 50; i++) yield chunk;
    }
    const file = await h.products.files.upload(makeContext(), {
      file: bytes(),
      filename: "big.bin",
      contentType: "application/octet-stream",
      size: 50 * chunk.length,
    });
    expect(file.size).toBe(50 * chunk.length);
    expect(h.sandbox.requests[0]?.headers["content-length"]).toEqual(expect.any(String));
  });
});

describe("tenants", () => {
  it("tenant A reaches only A's base URL, with its own port", async () => {
    const sandbox = h.sandbox;
    const own = await startHarness({ sandbox: { tenantPorts: true } });
    try {
      const acme = own.sandbox.tenantBaseUrl("acme");
      expect(new URL(acme).port).not.toBe(new URL(own.sandbox.url).port);
      await own.products.enterprise.invoices(makeContext({ tenant: "acme" }), {});
      expect(own.sandbox.requests).toHaveLength(1);
      expect(own.sandbox.requests[0]).toMatchObject({ tenant: "acme", path: "/api/v1/invoices" });
      expect(own.sandbox.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
      // globex does not know this token: the upstream answers 401 for it, and we pass it on.
      expect((await rejection(own.products.enterprise.invoices(makeContext({ tenant: "globex" }), {}))).code).toBe("UNAUTHENTICATED");
      expect(own.sandbox.requests[1]).toMatchObject({ tenant: "globex" });
      expect(sandbox.requests).toHaveLength(0);
    } finally {
      await own.close();
    }
  });

  it("bad tenant ids are refused and nothing is sent", async () => {
    const { products } = h.build({ config: { TENANT_URL_TEMPLATE: `${h.sandbox.url}/tenants/{tenant}` } });
    for (const tenant of ["../b", "a.evil.com", "a@b", "A", "x".repeat(64), "acme/../globex", "acme%2f"]) {
      expect((await rejection(products.enterprise.invoices(makeContext({ tenant }), {}))).code).toBe("FORBIDDEN");
    }
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("no tenant → TENANT_REQUIRED; unknown → UPSTREAM_NOT_CONFIGURED", async () => {
    expect((await rejection(h.products.enterprise.dataQuery(makeContext(), { question: "q" }))).code).toBe("TENANT_REQUIRED");
    expect((await rejection(h.products.workflows.run(makeContext({ tenant: "initech" }), { id: "wf" }))).code).toBe(
      "UPSTREAM_NOT_CONFIGURED",
    );
    const { products } = h.build({ config: { TENANTS_FILE: undefined } });
    expect((await rejection(products.enterprise.invoices(makeContext({ tenant: "acme" }), {}))).code).toBe("UPSTREAM_NOT_CONFIGURED");
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("the template fills in the tenant; the map wins over it", async () => {
    const { products } = h.build({
      config: {
        TENANT_URL_TEMPLATE: `${h.sandbox.url}/tenants/{tenant}`,
        TENANTS_FILE: tenantsFile({ globex: h.sandbox.tenantBaseUrl("acme") }),
      },
    });
    await products.enterprise.invoices(makeContext({ tenant: "acme" }), {});
    expect(h.sandbox.requests[0]).toMatchObject({ tenant: "acme" });
    // The map sends "globex" to acme's base: proof that the map, not the template, decided.
    await products.enterprise.invoices(makeContext({ tenant: "globex" }), {});
    expect(h.sandbox.requests[1]).toMatchObject({ tenant: "acme" });
  });

  it("the DATAQUERY_SEGMENT is used", async () => {
    const own = await startHarness({ sandbox: { dataquerySegment: "dq2" } });
    try {
      const { products } = own.build({ config: { DATAQUERY_SEGMENT: "dq2" } });
      await products.enterprise.dataQuery(makeContext({ tenant: "acme" }), { question: "q" });
      expect(own.sandbox.requests[0]).toMatchObject({ path: "/tenants/acme/api/v1/dq2/query" });
    } finally {
      await own.close();
    }
  });
});
