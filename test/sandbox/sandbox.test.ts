// The sandbox upstream against plain fetch: auth, tenants, paging, statuses, validation, recording.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON response bodies are checked structurally with expect() */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSeedData, startSandbox, type Sandbox } from "./index.ts";

const TOKEN = "api-token";
type ErrorBody = { error: { code: string; message: string } };

const auth = { authorization: `Bearer ${TOKEN}` };
const jsonHeaders = { ...auth, "content-type": "application/json" };

let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox({
    seed: 7,
    tokens: [TOKEN],
    tenants: { acme: { tokens: ["acme-token"] }, globex: { tokens: ["globex-token"] } },
  });
});
afterAll(async () => {
  await sb.close();
});
beforeEach(() => {
  sb.clearRequests();
  sb.clearFaults();
});

async function getJson(url: string, headers: Record<string, string> = auth): Promise<{ status: number; body: any; res: Response }> {
  const res = await fetch(url, { headers });
  return { status: res.status, body: await res.json(), res };
}

async function postJson(url: string, body: unknown, headers: Record<string, string> = jsonHeaders): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** Follows nextCursor to the end; returns every item and the number of pages. */
async function collect(
  base: string,
  params: Record<string, string>,
  headers: Record<string, string> = auth,
): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const q = new URLSearchParams(params);
    if (cursor) q.set("cursor", cursor);
    const { status, body } = await getJson(`${base}?${q}`, headers);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["data", "nextCursor"]);
    items.push(...body.data);
    cursor = body.nextCursor;
    pages += 1;
  } while (cursor && pages < 100);
  return { items, pages };
}

describe("seed", () => {
  it("is deterministic per seed and has the promised sizes", () => {
    const a = createSeedData(7, ["acme", "globex"]);
    expect(createSeedData(7, ["acme", "globex"])).toEqual(a);
    expect(createSeedData(8, ["acme", "globex"]).messages[0]?.id).not.toBe(a.messages[0]?.id);
    expect(sb.data).toEqual(a);
    expect(a.messages).toHaveLength(60);
    expect(new Set(a.messages.map((m) => m.folder))).toEqual(new Set(["inbox", "sent", "archive"]));
    expect(a.threads).toHaveLength(10);
    expect(new Set(a.messages.map((m) => m.threadId)).size).toBe(10);
    expect(a.calendarEvents).toHaveLength(30);
    expect(a.tenants.acme?.invoices).toHaveLength(45);
    expect(new Set(a.tenants.acme?.invoices.map((i) => i.status))).toEqual(new Set(["draft", "open", "paid", "overdue", "void"]));
    expect(a.tenants.acme?.invoices.map((i) => i.id)).not.toEqual(a.tenants.globex?.invoices.map((i) => i.id));
    expect(a.meetings.filter((m) => a.transcripts[m.id] && a.summaries[m.id]).length).toBeGreaterThan(0);
  });
});

describe("bearer tokens", () => {
  it("401 without a token, with a wrong token and with a malformed header", async () => {
    for (const headers of [{}, { authorization: "Bearer nope" }, { authorization: TOKEN }, { authorization: "Basic abc" }] as Record<
      string,
      string
    >[]) {
      const { status, body, res } = await getJson(`${sb.url}/email/v1/messages`, headers);
      expect(status).toBe(401);
      expect(body.error.code).toBe("unauthenticated");
      expect(typeof body.error.message).toBe("string");
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
    expect((await getJson(`${sb.url}/email/v1/messages`)).status).toBe(200);
  });

  it("tenant tokens are valid only at their own tenant", async () => {
    expect((await getJson(`${sb.tenantBaseUrl("acme")}/api/v1/invoices`, { authorization: "Bearer acme-token" })).status).toBe(200);
    expect((await getJson(`${sb.tenantBaseUrl("globex")}/api/v1/invoices`, { authorization: "Bearer globex-token" })).status).toBe(200);
    const cross = await getJson(`${sb.tenantBaseUrl("globex")}/api/v1/invoices`, { authorization: "Bearer acme-token" });
    expect(cross.status).toBe(401);
    expect(cross.body.error.code).toBe("unauthenticated");
    // The API token is not a tenant token, and a tenant token is not an API token.
    expect((await getJson(`${sb.tenantBaseUrl("acme")}/api/v1/invoices`)).status).toBe(401);
    expect((await getJson(`${sb.url}/email/v1/messages`, { authorization: "Bearer acme-token" })).status).toBe(401);
    const unknown = await getJson(`${sb.url}/tenants/initech/api/v1/invoices`, { authorization: "Bearer acme-token" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
  });

  it("serves each tenant on its own port with tenantPorts", async () => {
    const iso = await startSandbox({ tenantPorts: true, tokens: ["t"], tenants: { a: { tokens: ["ta"] }, b: { tokens: ["tb"] } } });
    try {
      const a = new URL(iso.tenantBaseUrl("a"));
      const b = new URL(iso.tenantBaseUrl("b"));
      expect(a.port).not.toBe(b.port);
      expect(a.port).not.toBe(new URL(iso.url).port);
      expect(a.pathname).toBe("/");
      const own = await getJson(`${iso.tenantBaseUrl("a")}/api/v1/invoices`, { authorization: "Bearer ta" });
      expect(own.status).toBe(200);
      expect(own.body.data.map((i: { id: string }) => i.id)).toEqual(iso.data.tenants.a?.invoices.slice(0, 20).map((i) => i.id));
      expect((await getJson(`${iso.tenantBaseUrl("b")}/api/v1/invoices`, { authorization: "Bearer ta" })).status).toBe(401);
      // A tenant's port serves only that tenant, and no API endpoints.
      expect((await getJson(`${iso.tenantBaseUrl("a")}/tenants/b/api/v1/invoices`, { authorization: "Bearer tb" })).status).toBe(401);
      expect((await getJson(`${iso.tenantBaseUrl("a")}/tenants/b/api/v1/invoices`, { authorization: "Bearer ta" })).status).toBe(404);
      expect((await getJson(`${iso.tenantBaseUrl("a")}/email/v1/messages`, { authorization: "Bearer ta" })).status).toBe(404);
      expect(iso.requests.map((r) => r.tenant)).toEqual(["a", "b", "a", "a", "a"]);
    } finally {
      await iso.close();
    }
  });
});

describe("paging", () => {
  it("walks all 60 messages without repeats or misses, newest first", async () => {
    const { items, pages } = await collect(`${sb.url}/email/v1/messages`, { limit: "7" });
    expect(pages).toBe(9);
    expect(items.map((m) => m.id)).toEqual(sb.data.messages.map((m) => m.id));
    expect(items[0]).not.toHaveProperty("body");
    expect(Object.keys(items[0]).sort()).toEqual([
      "cc",
      "folder",
      "from",
      "hasAttachments",
      "id",
      "receivedAt",
      "snippet",
      "subject",
      "threadId",
      "to",
      "unread",
    ]);
  });

  it("defaults to 20 and clamps limit to 100", async () => {
    expect((await getJson(`${sb.url}/email/v1/messages`)).body.data).toHaveLength(20);
    const all = await getJson(`${sb.url}/email/v1/messages?limit=500`);
    expect(all.body.data).toHaveLength(60);
    expect(all.body.nextCursor).toBeNull();
    for (const bad of ["0", "-1", "abc", "2.5"]) {
      const { status, body } = await getJson(`${sb.url}/email/v1/messages?limit=${bad}`);
      expect(status).toBe(400);
      expect(body.error.code).toBe("invalid_argument");
    }
  });

  it("filters by folder and q across pages", async () => {
    for (const folder of ["inbox", "sent", "archive"]) {
      const { items } = await collect(`${sb.url}/email/v1/messages`, { folder, limit: "4" });
      expect(items.map((m) => m.id)).toEqual(sb.data.messages.filter((m) => m.folder === folder).map((m) => m.id));
    }
    const subject = sb.data.threads[0]?.subject as string;
    const { items } = await collect(`${sb.url}/email/v1/messages`, { q: subject.toUpperCase(), limit: "3" });
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((m) => m.subject.includes(subject))).toBe(true);
    expect((await getJson(`${sb.url}/email/v1/messages?folder=spam`)).status).toBe(400);
  });

  it("rejects tampered cursors and cursors from another query", async () => {
    const first = await getJson(`${sb.url}/email/v1/messages?folder=inbox&limit=2`);
    expect((await getJson(`${sb.url}/email/v1/messages?cursor=not-a-cursor`)).status).toBe(400);
    const other = await getJson(`${sb.url}/email/v1/messages?folder=sent&cursor=${first.body.nextCursor}`);
    expect(other.status).toBe(400);
    expect(other.body.error.code).toBe("invalid_argument");
  });

  it("does not repeat or skip when a message is added between pages", async () => {
    const own = await startSandbox({ tokens: [TOKEN] });
    try {
      const page1 = await getJson(`${own.url}/email/v1/messages?limit=10`);
      const sent = await postJson(`${own.url}/email/v1/messages`, { to: ["x@example.com"], subject: "new", body: "hello" });
      expect(sent.status).toBe(201);
      const rest = await collect(`${own.url}/email/v1/messages`, { limit: "10", cursor: page1.body.nextCursor });
      expect([...page1.body.data, ...rest.items].map((m: { id: string }) => m.id)).toEqual(own.data.messages.map((m) => m.id));
    } finally {
      await own.close();
    }
  });

  it("pages calendar events in start order with from/to overlap filters", async () => {
    const { items } = await collect(`${sb.url}/email/v1/calendar/events`, { limit: "8" });
    expect(items.map((e) => e.id)).toEqual(sb.data.calendarEvents.map((e) => e.id));
    const from = "2026-01-15T00:00:00.000Z";
    const to = "2026-01-29T00:00:00.000Z";
    const window = await collect(`${sb.url}/email/v1/calendar/events`, { from, to, limit: "3" });
    const expected = sb.data.calendarEvents.filter((e) => Date.parse(e.end) > Date.parse(from) && Date.parse(e.start) < Date.parse(to));
    expect(window.items.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    expect((await getJson(`${sb.url}/email/v1/calendar/events?from=yesterday`)).status).toBe(400);
    expect((await getJson(`${sb.url}/email/v1/calendar/events?from=${to}&to=${from}`)).status).toBe(400);
  });

  it("pages a tenant's invoices, with a status filter", async () => {
    const headers = { authorization: "Bearer acme-token" };
    const all = await collect(`${sb.tenantBaseUrl("acme")}/api/v1/invoices`, { limit: "10" }, headers);
    expect(all.pages).toBe(5);
    expect(all.items.map((i) => i.id)).toEqual(sb.data.tenants.acme?.invoices.map((i) => i.id));
    const paid = await collect(`${sb.tenantBaseUrl("acme")}/api/v1/invoices`, { status: "paid", limit: "5" }, headers);
    expect(paid.items.map((i) => i.id)).toEqual(sb.data.tenants.acme?.invoices.filter((i) => i.status === "paid").map((i) => i.id));
    expect((await getJson(`${sb.tenantBaseUrl("acme")}/api/v1/invoices?status=lost`, headers)).status).toBe(400);
  });
});

describe("endpoints", () => {
  it("sends a message (201) into an existing thread and shows it in the thread", async () => {
    const thread = sb.data.threads[1]!;
    const sent = await postJson(`${sb.url}/email/v1/messages`, {
      to: ["bob@example.com"],
      cc: ["c@example.com"],
      subject: `Re: ${thread.subject}`,
      body: "Sounds good.",
      threadId: thread.id,
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      threadId: thread.id,
      folder: "sent",
      to: [{ email: "bob@example.com" }],
      cc: [{ email: "c@example.com" }],
      snippet: "Sounds good.",
      unread: false,
    });
    const t = await getJson(`${sb.url}/email/v1/threads/${thread.id}`);
    expect(t.status).toBe(200);
    expect(t.body.subject).toBe(thread.subject);
    expect(t.body.messages.at(-1)).toMatchObject({ id: sent.body.id, body: "Sounds good." });
    expect(t.body.messages.every((m: { body?: string }) => typeof m.body === "string")).toBe(true);
    expect((await getJson(`${sb.url}/email/v1/threads/thr_missing`)).status).toBe(404);
  });

  it("answers 400 with the error shape for bad bodies", async () => {
    const cases: [string, unknown][] = [
      ["/email/v1/messages", { to: [], subject: "s", body: "b" }],
      ["/email/v1/messages", { to: ["not-an-email"], subject: "s", body: "b" }],
      ["/email/v1/messages", { to: ["a@b.co"], body: "b" }],
      ["/email/v1/drafts", { generate: { instructions: "" } }],
      ["/email/v1/bookings", { bookingTypeId: "bt_intro30", start: "tomorrow", attendee: { name: "A", email: "a@b.co" } }],
      ["/drive/v1/search", {}],
      ["/drive/v1/shares", { fileId: sb.data.files[0]!.id, permission: "own" }],
      ["/search/v1/query", { query: "x", sources: ["tv"] }],
      ["/search/v1/chat", {}],
      ["/meetings/v1/meetings", { title: "T", startsAt: "2026-02-01T10:00:00Z", durationMinutes: 0 }],
    ];
    for (const [path, body] of cases) {
      const res = await postJson(`${sb.url}${path}`, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error.code).toBe("invalid_argument");
      expect(res.body.error.message.length).toBeGreaterThan(0);
    }
    const invalid = await fetch(`${sb.url}/email/v1/messages`, { method: "POST", headers: jsonHeaders, body: "{nope" });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as ErrorBody).error.code).toBe("invalid_argument");
    const text = await fetch(`${sb.url}/email/v1/messages`, {
      method: "POST",
      headers: { ...auth, "content-type": "text/plain" },
      body: "hi",
    });
    expect(text.status).toBe(415);
  });

  it("404 with the error shape for unknown routes, 405 for a wrong method", async () => {
    const missing = await getJson(`${sb.url}/email/v1/nothing`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: "not_found", message: expect.any(String) } });
    const wrong = await fetch(`${sb.url}/email/v1/threads/x`, { method: "DELETE", headers: auth });
    expect(wrong.status).toBe(405);
    expect(((await wrong.json()) as ErrorBody).error.code).toBe("method_not_allowed");
  });

  it("creates drafts, generated or not (201)", async () => {
    const plain = await postJson(`${sb.url}/email/v1/drafts`, { to: ["a@b.co"], subject: "Hi", body: "Text" });
    expect(plain.status).toBe(201);
    expect(plain.body).toEqual({ id: expect.any(String), to: ["a@b.co"], subject: "Hi", body: "Text", generated: false });
    const thread = sb.data.threads[0]!;
    const gen = await postJson(`${sb.url}/email/v1/drafts`, { threadId: thread.id, generate: { instructions: "say we accept the offer" } });
    expect(gen.status).toBe(201);
    expect(gen.body.generated).toBe(true);
    expect(gen.body.subject).toBe(`Re: ${thread.subject}`);
    expect(gen.body.body).toContain("Say we accept the offer.");
    expect(gen.body.to).toEqual([]);
  });

  it("books a slot (201) and answers 409 for the same slot, 404 for an unknown type", async () => {
    const body = {
      bookingTypeId: "bt_demo60",
      start: "2026-03-02T10:00:00Z",
      attendee: { name: "Ann", email: "ann@example.com" },
      notes: "hi",
    };
    const first = await postJson(`${sb.url}/email/v1/bookings`, body);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      bookingTypeId: "bt_demo60",
      start: "2026-03-02T10:00:00.000Z",
      end: "2026-03-02T11:00:00.000Z",
      attendee: body.attendee,
      status: "confirmed",
    });
    const again = await postJson(`${sb.url}/email/v1/bookings`, { ...body, start: "2026-03-02T10:30:00Z" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("conflict");
    expect((await postJson(`${sb.url}/email/v1/bookings`, { ...body, bookingTypeId: "bt_nope" })).status).toBe(404);
  });

  it("drive: metadata, search with scores, shares (201)", async () => {
    const file = sb.data.files[0]!;
    const meta = await getJson(`${sb.url}/drive/v1/files/${file.id}`);
    const { content: _c, sha256: _s, ...expected } = file;
    expect(meta.body).toEqual(expected);
    const download = await fetch(`${sb.url}/drive/v1/files/${file.id}?download=true`, { headers: auth });
    expect(await download.text()).toBe(file.content);
    const found = await postJson(`${sb.url}/drive/v1/search`, { query: file.name.split(/[ .]/)[0] });
    expect(found.status).toBe(200);
    expect(found.body.data.some((f: { id: string; score: number }) => f.id === file.id && f.score > 0)).toBe(true);
    const share = await postJson(`${sb.url}/drive/v1/shares`, {
      fileId: file.id,
      permission: "comment",
      emails: ["x@y.co"],
      expiresAt: "2099-01-01T00:00:00Z",
    });
    expect(share.status).toBe(201);
    expect(share.body).toMatchObject({
      fileId: file.id,
      permission: "comment",
      expiresAt: "2099-01-01T00:00:00.000Z",
      url: expect.stringMatching(/^https:\/\//),
    });
    expect((await postJson(`${sb.url}/drive/v1/shares`, { fileId: "file_nope", permission: "view" })).status).toBe(404);
    expect((await getJson(`${sb.url}/drive/v1/files/file_nope`)).status).toBe(404);
  });

  it("search query and chat sessions", async () => {
    const q = await postJson(`${sb.url}/search/v1/query`, { query: "expense policy", sources: ["wiki"] });
    expect(q.status).toBe(200);
    expect(q.body.citations[0]).toMatchObject({ title: "Expense policy", source: "wiki" });
    expect(typeof q.body.answer).toBe("string");
    const c1 = await postJson(`${sb.url}/search/v1/chat`, { sessionId: q.body.sessionId, message: "and travel?" });
    expect(c1.status).toBe(200);
    expect(c1.body.sessionId).toBe(q.body.sessionId);
    expect(c1.body.answer).toMatch(/^\(turn 2\)/);
    const fresh = await postJson(`${sb.url}/search/v1/chat`, { message: "release process" });
    expect(fresh.body.sessionId).not.toBe(q.body.sessionId);
    expect((await postJson(`${sb.url}/search/v1/chat`, { sessionId: "ses_nope", message: "x" })).status).toBe(404);
  });

  it("meetings: create (201), transcript and summary of a completed one, 404 otherwise", async () => {
    const created = await postJson(`${sb.url}/meetings/v1/meetings`, {
      title: "Sync",
      startsAt: "2026-02-01T10:00:00Z",
      durationMinutes: 30,
      attendees: ["a@b.co"],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: "Sync",
      startsAt: "2026-02-01T10:00:00.000Z",
      durationMinutes: 30,
      status: "scheduled",
      joinUrl: expect.any(String),
    });
    const done = sb.data.meetings.find((m) => m.status === "completed")!;
    const transcript = await getJson(`${sb.url}/meetings/v1/meetings/${done.id}/transcript`);
    expect(transcript.body).toEqual(sb.data.transcripts[done.id]);
    const summary = await getJson(`${sb.url}/meetings/v1/meetings/${done.id}/summary`);
    expect(summary.body).toEqual(sb.data.summaries[done.id]);
    expect((await getJson(`${sb.url}/meetings/v1/meetings/${created.body.id}/transcript`)).status).toBe(404);
    expect((await getJson(`${sb.url}/meetings/v1/meetings/mtg_nope/summary`)).status).toBe(404);
  });

  it("tenant data query (200) and workflow run (202)", async () => {
    const headers = { authorization: "Bearer acme-token", "content-type": "application/json" };
    const base = sb.tenantBaseUrl("acme");
    const q = await postJson(`${base}/api/v1/dataquery/query`, { question: "invoices by status" }, headers);
    expect(q.status).toBe(200);
    expect(q.body.columns).toEqual([
      { name: "status", type: "string" },
      { name: "count", type: "integer" },
      { name: "total", type: "number" },
    ]);
    expect(q.body.rows.reduce((n: number, r: [string, number]) => n + r[1], 0)).toBe(45);
    const run = await fetch(`${base}/api/v1/workflows/wf_invoice_reminder/run`, {
      method: "POST",
      headers,
      body: JSON.stringify({ input: { dryRun: true } }),
    });
    expect(run.status).toBe(202);
    expect(await run.json()).toEqual({
      runId: expect.any(String),
      workflowId: "wf_invoice_reminder",
      status: "queued",
      startedAt: expect.any(String),
    });
    expect((await postJson(`${base}/api/v1/workflows/wf_nope/run`, { input: {} }, headers)).status).toBe(404);
    expect((await postJson(`${base}/api/v1/dataquery/query`, { question: "" }, headers)).status).toBe(400);
  });

  it("honours a custom data-query segment", async () => {
    const own = await startSandbox({ dataquerySegment: "ask", tenants: { t1: { tokens: ["x"] } } });
    try {
      const headers = { authorization: "Bearer x", "content-type": "application/json" };
      expect((await postJson(`${own.tenantBaseUrl("t1")}/api/v1/ask/query`, { question: "q" }, headers)).status).toBe(200);
      expect((await postJson(`${own.tenantBaseUrl("t1")}/api/v1/dataquery/query`, { question: "q" }, headers)).status).toBe(404);
    } finally {
      await own.close();
    }
  });
});

describe("recording", () => {
  it("captures method, path, query, lower-cased headers (authorization, x-request-id), body and tenant", async () => {
    await fetch(`${sb.url}/email/v1/messages?folder=inbox&limit=5`, { headers: { ...auth, "X-Request-Id": "req-123" } });
    await fetch(`${sb.url}/email/v1/drafts`, {
      method: "POST",
      headers: { ...jsonHeaders, "x-request-id": "req-124" },
      body: JSON.stringify({ subject: "s" }),
    });
    await fetch(`${sb.tenantBaseUrl("globex")}/api/v1/invoices`, { headers: { authorization: "Bearer globex-token" } });
    expect(sb.requests).toHaveLength(3);
    const [list, draft, inv] = sb.requests;
    expect(list).toMatchObject({ method: "GET", path: "/email/v1/messages", query: { folder: "inbox", limit: "5" }, status: 200 });
    expect(list?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(list?.headers["x-request-id"]).toBe("req-123");
    expect(list?.tenant).toBeUndefined();
    expect(typeof list?.at).toBe("number");
    expect(draft).toMatchObject({ method: "POST", body: { subject: "s" }, status: 201 });
    expect(draft?.headers["x-request-id"]).toBe("req-124");
    expect(inv).toMatchObject({ path: "/tenants/globex/api/v1/invoices", scopedPath: "/api/v1/invoices", tenant: "globex" });
    expect(sb.countRequests("/email/v1")).toBe(2);
    expect(sb.countRequests("/email/v1", "POST")).toBe(1);
    expect(sb.countRequests("/api/v1/invoices")).toBe(1);
    expect(sb.counts()).toEqual({ "GET /email/v1/messages": 1, "POST /email/v1/drafts": 1, "GET /tenants/globex/api/v1/invoices": 1 });
  });

  it("also records unauthenticated requests, and clears", async () => {
    await fetch(`${sb.url}/search/v1/query`, { method: "POST", body: "{}" });
    expect(sb.requests[0]).toMatchObject({ status: 401, body: {} });
    expect(sb.requests[0]?.headers.authorization).toBeUndefined();
    const seen = sb.requests;
    sb.clearRequests();
    expect(seen).toHaveLength(0);
    expect(sb.countRequests()).toBe(0);
  });

  it("exposes requests and counts over the control API", async () => {
    await fetch(`${sb.url}/email/v1/messages`, { headers: auth });
    const res = await getJson(`${sb.url}/__sandbox/requests?path=/email`, {});
    expect(res.body.data).toHaveLength(1);
    const counts = await getJson(`${sb.url}/__sandbox/counts`, {});
    expect(counts.body.counts).toEqual({ "GET /email/v1/messages": 1 });
    await fetch(`${sb.url}/__sandbox/requests`, { method: "DELETE" });
    expect(sb.requests).toHaveLength(0);
  });
});
