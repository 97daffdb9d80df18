// Fault injection: each fault type does what it says, scoped by path, method, tenant, count and after.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "./index.ts";

type ErrorBody = { error: { code: string; message: string } };

const auth = { authorization: "Bearer sandbox-token" };
const jsonHeaders = { ...auth, "content-type": "application/json" };
let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb.close();
});
beforeEach(() => {
  sb.clearRequests();
  sb.clearFaults();
});

const messages = (init: RequestInit = {}): Promise<Response> => fetch(`${sb.url}/email/v1/messages`, { headers: auth, ...init });
const statusOf = async (p: Promise<Response>): Promise<number> => {
  const res = await p;
  await res.arrayBuffer();
  return res.status;
};

describe("faults", () => {
  it("forces a status for the next N requests to a path prefix, then answers normally", async () => {
    sb.setFaults([{ type: "status", path: "/email/v1/messages", status: 500, count: 2 }]);
    const first = await messages();
    expect(first.status).toBe(500);
    expect(await first.json()).toEqual({ error: { code: "internal", message: expect.any(String) } });
    expect(await statusOf(messages())).toBe(500);
    expect(await statusOf(messages())).toBe(200);
    expect(await statusOf(fetch(`${sb.url}/email/v1/calendar/events`, { headers: auth }))).toBe(200);
    expect(sb.requests.map((r) => r.faults ?? [])).toEqual([["status"], ["status"], [], []]);
    expect(sb.listFaults()[0]).toMatchObject({ matched: 3, applied: 2 });
  });

  it("answers 429 with Retry-After", async () => {
    sb.setFaults([{ type: "status", path: "/email", status: 429, retryAfter: 3 }]);
    const res = await messages();
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(((await res.json()) as ErrorBody).error.code).toBe("rate_limited");
  });

  it("answers 400/401/403/404/409/503 with the error body and message given", async () => {
    const expected: Record<number, string> = {
      400: "invalid_argument",
      401: "unauthenticated",
      403: "permission_denied",
      404: "not_found",
      409: "conflict",
      503: "unavailable",
    };
    for (const [status, code] of Object.entries(expected)) {
      sb.setFaults([{ type: "status", status: Number(status), message: `forced ${status}` }]);
      const res = await fetch(`${sb.url}/drive/v1/search`, { method: "POST", headers: jsonHeaders, body: JSON.stringify({ query: "x" }) });
      expect(res.status).toBe(Number(status));
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ error: { code, message: `forced ${status}` } });
    }
    sb.setFaults([{ type: "status", status: 403, code: "quota_exceeded", body: { error: { code: "custom", message: "own body" } } }]);
    expect(await (await messages()).json()).toEqual({ error: { code: "custom", message: "own body" } });
  });

  it("fails once, then succeeds", async () => {
    sb.setFaults([{ type: "fail-once", path: "/email/v1/messages" }]);
    expect(await statusOf(messages())).toBe(503);
    expect(await statusOf(messages())).toBe(200);
    expect(await statusOf(messages())).toBe(200);
    sb.setFaults([{ type: "fail-once", path: "/email/v1/messages", status: 502 }]);
    expect(await statusOf(messages())).toBe(502);
    expect(await statusOf(messages())).toBe(200);
  });

  it("applies a fault to a share of requests with probability", async () => {
    sb.setFaults([{ type: "status", status: 500, probability: 0.3, path: "/email/v1/messages" }]);
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) statuses.push(await statusOf(messages()));
    const failed = statuses.filter((s) => s === 500).length;
    expect(failed).toBeGreaterThan(30);
    expect(failed).toBeLessThan(90);
    expect(statuses.every((s) => s === 200 || s === 500)).toBe(true);
    expect(sb.listFaults()[0]).toMatchObject({ matched: 200, applied: failed });
  });

  it("adds latency", async () => {
    sb.setFaults([{ type: "latency", ms: 300, path: "/email/v1/messages" }]);
    let started = Date.now();
    expect(await statusOf(messages())).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    started = Date.now();
    await statusOf(fetch(`${sb.url}/email/v1/calendar/events`, { headers: auth }));
    expect(Date.now() - started).toBeLessThan(250);
  });

  it("combines latency with a status", async () => {
    sb.setFaults([
      { type: "latency", ms: 200 },
      { type: "status", status: 504 },
    ]);
    const started = Date.now();
    expect(await statusOf(messages())).toBe(504);
    expect(Date.now() - started).toBeGreaterThanOrEqual(180);
  });

  it("resets the connection", async () => {
    sb.setFaults([{ type: "reset", path: "/email/v1/messages", count: 1 }]);
    const error = await messages().then(
      () => null,
      (e: unknown) => e as Error & { cause?: { code?: string } },
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(String(error?.cause?.code ?? error?.cause)).toMatch(/ECONNRESET|UND_ERR_SOCKET|other side closed/);
    expect(sb.requests[0]).toMatchObject({ faults: ["reset"] });
    expect(sb.requests[0]?.status).toBeUndefined();
    expect(await statusOf(messages())).toBe(200);
  });

  it("sends invalid JSON", async () => {
    sb.setFaults([{ type: "malformed", mode: "invalid-json", path: "/email/v1/messages" }]);
    const res = await messages();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const text = await res.text();
    expect(text.startsWith('{"data":[')).toBe(true);
    expect(() => JSON.parse(text)).toThrow();
  });

  it("sends valid JSON missing a required field, in lists and single objects", async () => {
    sb.setFaults([{ type: "malformed", mode: "missing-field", path: "/email/v1/messages", method: "GET" }]);
    const list = (await (await messages()).json()) as { data: Record<string, unknown>[]; nextCursor: string };
    expect(list.data).toHaveLength(20);
    expect(list.data.every((m) => !("id" in m) && "threadId" in m)).toBe(true);
    expect(typeof list.nextCursor).toBe("string");

    sb.setFaults([{ type: "malformed", mode: "missing-field", field: "from.email", path: "/email/v1/messages" }]);
    const nested = (await (await messages()).json()) as { data: { from: Record<string, unknown> }[] };
    expect(nested.data.every((m) => !("email" in m.from))).toBe(true);

    sb.setFaults([{ type: "malformed", mode: "missing-field", field: "generated", path: "/email/v1/drafts" }]);
    const draft = await fetch(`${sb.url}/email/v1/drafts`, {
      method: "POST",
      headers: jsonHeaders,
      body: JSON.stringify({ subject: "x" }),
    });
    expect(draft.status).toBe(201);
    const body = (await draft.json()) as Record<string, unknown>;
    expect(body).toHaveProperty("id");
    expect(body).not.toHaveProperty("generated");
  });

  it("sends a raw body", async () => {
    sb.setFaults([{ type: "malformed", mode: "raw", raw: "<html>oops</html>", contentType: "text/html" }]);
    const res = await messages();
    expect(res.headers.get("content-type")).toBe("text/html");
    expect(await res.text()).toBe("<html>oops</html>");
  });

  it("hangs (never answers) until the client gives up, and close() still returns", async () => {
    const own = await startSandbox();
    try {
      own.setFaults([{ type: "hang", path: "/email/v1/messages" }]);
      const error = await fetch(`${own.url}/email/v1/messages`, { headers: auth, signal: AbortSignal.timeout(300) }).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(error?.name).toBe("TimeoutError");
      // A second hanging request is left open on purpose: close() must not wait for it.
      void fetch(`${own.url}/email/v1/messages`, { headers: auth }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 50));
      expect(own.countRequests("/email/v1/messages")).toBe(2);
    } finally {
      const started = Date.now();
      await own.close();
      expect(Date.now() - started).toBeLessThan(2_000);
    }
  });

  it("fails at an error rate, deterministically per seed", async () => {
    sb.setFaults([{ type: "error-rate", rate: 1, status: 502 }]);
    expect(await statusOf(messages())).toBe(502);
    sb.setFaults([{ type: "error-rate", rate: 0 }]);
    expect(await statusOf(messages())).toBe(200);
    const run = async (s: Sandbox): Promise<number[]> => {
      s.setFaults([{ type: "error-rate", rate: 0.5 }]);
      const out: number[] = [];
      for (let i = 0; i < 40; i++) out.push(await statusOf(fetch(`${s.url}/email/v1/calendar/events?limit=1`, { headers: auth })));
      return out;
    };
    const [a, b] = [await startSandbox({ seed: 3 }), await startSandbox({ seed: 3 })];
    try {
      const statuses = await run(a);
      expect(statuses.filter((s) => s === 500).length).toBeGreaterThan(5);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(5);
      expect(await run(b)).toEqual(statuses);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("scopes faults by method, tenant, pattern and `after`", async () => {
    sb.setFaults([{ type: "status", status: 500, path: "/email/v1/messages", method: "post" }]);
    expect(await statusOf(messages())).toBe(200);
    expect(
      await statusOf(messages({ method: "POST", headers: jsonHeaders, body: JSON.stringify({ to: ["a@b.co"], subject: "s", body: "b" }) })),
    ).toBe(500);

    sb.setFaults([{ type: "status", status: 503, tenant: "acme", path: "/api/v1/invoices" }]);
    expect(await statusOf(fetch(`${sb.tenantBaseUrl("acme")}/api/v1/invoices`, { headers: { authorization: "Bearer acme-token" } }))).toBe(
      503,
    );
    expect(
      await statusOf(fetch(`${sb.tenantBaseUrl("globex")}/api/v1/invoices`, { headers: { authorization: "Bearer globex-token" } })),
    ).toBe(200);
    expect(await statusOf(messages())).toBe(200);

    sb.setFaults([{ type: "status", status: 404, pathPattern: "^/meetings/v1/meetings/[^/]+/summary$" }]);
    const done = sb.data.meetings.find((m) => m.status === "completed")!;
    expect(await statusOf(fetch(`${sb.url}/meetings/v1/meetings/${done.id}/summary`, { headers: auth }))).toBe(404);
    expect(await statusOf(fetch(`${sb.url}/meetings/v1/meetings/${done.id}/transcript`, { headers: auth }))).toBe(200);

    sb.setFaults([{ type: "status", status: 500, path: "/email", after: 2, count: 1 }]);
    expect([await statusOf(messages()), await statusOf(messages()), await statusOf(messages()), await statusOf(messages())]).toEqual([
      200, 200, 500, 200,
    ]);
  });

  it("is configurable over POST /__sandbox/faults", async () => {
    const set = await fetch(`${sb.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ faults: [{ type: "status", path: "/email/v1/messages", status: 429, retryAfter: 3, count: 1 }] }),
    });
    expect(set.status).toBe(200);
    const res = await messages();
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(await statusOf(messages())).toBe(200);
    const listed = (await (await fetch(`${sb.url}/__sandbox/faults`)).json()) as { faults: { applied: number; matched: number }[] };
    expect(listed.faults[0]).toMatchObject({ applied: 1, matched: 2 });

    await fetch(`${sb.url}/__sandbox/faults?append=true`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "reset" }),
    });
    expect(sb.listFaults()).toHaveLength(2);
    const bad = await fetch(`${sb.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([{ type: "explode" }]),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).error.code).toBe("invalid_argument");
    await fetch(`${sb.url}/__sandbox/faults`, { method: "DELETE" });
    expect(sb.listFaults()).toEqual([]);
    // Control calls are never recorded.
    expect(sb.requests.every((r) => !r.path.startsWith("/__sandbox"))).toBe(true);
  });

  it("rejects invalid specs programmatically", () => {
    expect(() => sb.setFaults([{ type: "status", status: 999 }])).toThrow(/status/);
    expect(() => sb.setFaults([{ type: "error-rate", rate: 2 }])).toThrow(/rate/);
    expect(() => sb.setFaults([{ type: "latency", ms: 1, pathPattern: "(" }])).toThrow();
  });

  it("reset() restores the seed and clears faults and requests", async () => {
    const own = await startSandbox();
    try {
      await fetch(`${own.url}/email/v1/messages`, {
        method: "POST",
        headers: jsonHeaders,
        body: JSON.stringify({ to: ["a@b.co"], subject: "s", body: "b" }),
      });
      own.setFaults([{ type: "hang" }]);
      expect(own.store.messages).toHaveLength(61);
      await own.reset();
      expect(own.store.messages).toHaveLength(60);
      expect(own.listFaults()).toEqual([]);
      expect(own.requests).toEqual([]);
      expect(await statusOf(fetch(`${own.url}/email/v1/messages`, { headers: auth }))).toBe(200);
    } finally {
      await own.close();
    }
  });
});
