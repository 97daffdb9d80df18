// Every upstream endpoint (docs/api.md "Upstreams") through the product services against the sandbox: the right method, path,
// query and body, the caller's token and request id forwarded, the answer mapped.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../sandbox/index.ts";
import { TOKEN, makeContext, startHarness, type Harness } from "./helpers.ts";

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

/** The one request the sandbox saw, checked for the forwarded credential and request id. */
function only(ctx: { requestId: string }): RecordedRequest {
  expect(h.sandbox.requests).toHaveLength(1);
  const request = h.sandbox.requests[0] as RecordedRequest;
  expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
  expect(request.headers["x-request-id"]).toBe(ctx.requestId);
  return request;
}

const stripBody = <T extends { body: string }>({ body: _body, ...rest }: T) => rest;

describe("mail", () => {
  it("messages.list: GET /email/v1/messages with folder, q, limit, cursor", async () => {
    const ctx = makeContext();
    const inbox = h.sandbox.data.messages.filter((m) => m.folder === "inbox");
    const page = await h.products.messages.list(ctx, { folder: "inbox", limit: 3 });
    const request = only(ctx);
    expect(request).toMatchObject({ method: "GET", path: "/email/v1/messages", query: { folder: "inbox", limit: "3" } });
    expect(page.data).toEqual(inbox.slice(0, 3).map(stripBody));
    expect(page.nextCursor).toEqual(expect.any(String));

    h.sandbox.clearRequests();
    const ctx2 = makeContext();
    const next = await h.products.messages.list(ctx2, { folder: "inbox", limit: "3", cursor: page.nextCursor as string });
    expect(only(ctx2).query).toEqual({ folder: "inbox", limit: "3", cursor: page.nextCursor });
    expect(next.data).toEqual(inbox.slice(3, 6).map(stripBody));

    h.sandbox.clearRequests();
    const subject = inbox[0]?.subject as string;
    const found = await h.products.messages.list(makeContext(), { q: subject });
    expect(h.sandbox.requests[0]?.query).toEqual({ q: subject });
    expect(found.data.map((m) => m.id)).toContain(inbox[0]?.id);
  });

  it("messages.send: POST /email/v1/messages with the JSON body, 201 Message", async () => {
    const ctx = makeContext();
    const input = {
      to: ["ann@example.com"],
      cc: ["bob@example.com"],
      subject: "Hello",
      body: "Hi Ann",
      threadId: h.sandbox.data.threads[0]?.id,
    };
    const message = await h.products.messages.send(ctx, input);
    const request = only(ctx);
    expect(request).toMatchObject({ method: "POST", path: "/email/v1/messages", status: 201, body: input });
    expect(request.headers["content-type"]).toBe("application/json");
    expect(message).toMatchObject({
      folder: "sent",
      subject: "Hello",
      threadId: input.threadId,
      to: [{ email: "ann@example.com" }],
      cc: [{ email: "bob@example.com" }],
    });
    expect(message.id).toEqual(expect.any(String));
  });

  it("messages.thread: GET /email/v1/threads/:id with bodies", async () => {
    const ctx = makeContext();
    const thread = h.sandbox.data.threads[1]!;
    const result = await h.products.messages.thread(ctx, { id: thread.id });
    expect(only(ctx)).toMatchObject({ method: "GET", path: `/email/v1/threads/${thread.id}` });
    expect(result.id).toBe(thread.id);
    expect(result.subject).toBe(thread.subject);
    const expected = h.sandbox.data.messages.filter((m) => m.threadId === thread.id);
    expect(result.messages.map((m) => m.id).sort()).toEqual(expected.map((m) => m.id).sort());
    expect(result.messages[0]?.body).toEqual(expect.any(String));
  });

  it("messages.createDraft: POST /email/v1/drafts, plain and generated", async () => {
    const ctx = makeContext();
    const draft = await h.products.messages.createDraft(ctx, { to: ["ann@example.com"], subject: "S", body: "B" });
    expect(only(ctx)).toMatchObject({
      method: "POST",
      path: "/email/v1/drafts",
      body: { to: ["ann@example.com"], subject: "S", body: "B" },
    });
    expect(draft).toMatchObject({ to: ["ann@example.com"], subject: "S", body: "B", generated: false });

    const generated = await h.products.messages.createDraft(makeContext(), {
      threadId: h.sandbox.data.threads[0]?.id,
      generate: { instructions: "say yes" },
    });
    expect(h.sandbox.requests[1]?.body).toEqual({ threadId: h.sandbox.data.threads[0]?.id, generate: { instructions: "say yes" } });
    expect(generated.generated).toBe(true);
    expect(generated.body).toContain("Say yes.");
  });

  it("calendar.events: GET /email/v1/calendar/events with from, to, limit", async () => {
    const ctx = makeContext();
    const events = h.sandbox.data.calendarEvents;
    const from = events[2]!.start;
    const to = events[20]!.start;
    const page = await h.products.calendar.events(ctx, { from, to, limit: 5 });
    expect(only(ctx)).toMatchObject({ method: "GET", path: "/email/v1/calendar/events", query: { from, to, limit: "5" } });
    expect(page.data).toHaveLength(5);
    expect(page.data[0]).toMatchObject({ id: expect.any(String), title: expect.any(String), attendees: expect.any(Array) });
    for (const e of page.data) expect(Date.parse(e.start) < Date.parse(to)).toBe(true);
  });

  it("bookings.create: POST /email/v1/bookings, 201 Booking", async () => {
    const ctx = makeContext();
    const type = h.sandbox.data.bookingTypes[0]!;
    const input = {
      bookingTypeId: type.id,
      start: "2031-03-04T10:00:00.000Z",
      attendee: { name: "Ann", email: "ann@example.com" },
      notes: "hi",
    };
    const booking = await h.products.bookings.create(ctx, input);
    expect(only(ctx)).toMatchObject({ method: "POST", path: "/email/v1/bookings", body: input, status: 201 });
    expect(booking).toMatchObject({ bookingTypeId: type.id, attendee: input.attendee, status: "confirmed", start: input.start });
  });
});

describe("drive", () => {
  it("files.get: GET /drive/v1/files/:id", async () => {
    const ctx = makeContext();
    const { content: _c, sha256: _s, ...file } = h.sandbox.data.files[0]!;
    expect(await h.products.files.get(ctx, { id: file.id })).toEqual(file);
    expect(only(ctx)).toMatchObject({ method: "GET", path: `/drive/v1/files/${file.id}`, query: {} });
  });

  it("files.download: GET /drive/v1/files/:id?download=true, streamed", async () => {
    const ctx = makeContext();
    const file = h.sandbox.data.files[1]!;
    const download = await h.products.files.download(ctx, { id: file.id });
    const hash = createHash("sha256");
    for await (const chunk of download.body) hash.update(chunk as Buffer);
    expect(hash.digest("hex")).toBe(file.sha256);
    expect(download).toMatchObject({ status: 200, contentType: file.mimeType, contentLength: file.size });
    expect(download.contentDisposition).toContain("attachment");
    expect(only(ctx)).toMatchObject({ method: "GET", path: `/drive/v1/files/${file.id}`, query: { download: "true" } });
  });

  it("files.upload: a streamed multipart POST /drive/v1/files", async () => {
    const ctx = makeContext();
    const folder = h.sandbox.data.folders[0]!;
    const chunk = Buffer.alloc(64 * 1024, "x");
    const count = 80; // 5 MiB, produced chunk by chunk
    async function* bytes() {
      for (let i = 0; i < count; i++) yield chunk;
    }
    const sha = createHash("sha256");
    for (let i = 0; i < count; i++) sha.update(chunk);
    const file = await h.products.files.upload(ctx, {
      file: bytes(),
      name: "Report Q3.txt",
      folderId: folder.id,
      filename: "report.txt",
      contentType: "text/plain",
    });
    const request = only(ctx);
    expect(request).toMatchObject({
      method: "POST",
      path: "/drive/v1/files",
      status: 201,
      body: {
        fields: { name: "Report Q3.txt", folderId: folder.id },
        file: { size: chunk.length * count, sha256: sha.digest("hex"), filename: "report.txt", contentType: "text/plain" },
      },
    });
    expect(request.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(file).toMatchObject({ name: "Report Q3.txt", size: chunk.length * count, mimeType: "text/plain", parentId: folder.id });
  });

  it("files.upload: a File keeps its own name and type, with a Content-Length", async () => {
    const ctx = makeContext();
    const file = await h.products.files.upload(ctx, { file: new File(["héllo"], "naïve.md", { type: "text/markdown" }) });
    const request = only(ctx);
    expect(request.headers["content-length"]).toEqual(expect.any(String));
    expect(request.body).toMatchObject({ file: { size: 6, filename: "naïve.md", contentType: "text/markdown" } });
    expect(file).toMatchObject({ name: "naïve.md", size: 6 });
  });

  it("files.search: POST /drive/v1/search", async () => {
    const ctx = makeContext();
    const name = h.sandbox.data.files[2]!.name;
    const word = name.split(/[\s.]+/)[0] as string;
    const { files: hits } = await h.products.files.search(ctx, { query: word });
    expect(only(ctx)).toMatchObject({ method: "POST", path: "/drive/v1/search", body: { query: word } });
    expect(hits.map((f) => f.name)).toContain(name);
    expect(hits[0]?.score).toEqual(expect.any(Number));
  });

  it("files.share: POST /drive/v1/shares, 201 Share", async () => {
    const ctx = makeContext();
    const fileId = h.sandbox.data.files[0]!.id;
    const input = { fileId, permission: "comment" as const, emails: ["ann@example.com"], expiresAt: "2040-01-01T00:00:00.000Z" };
    const share = await h.products.files.share(ctx, input);
    expect(only(ctx)).toMatchObject({ method: "POST", path: "/drive/v1/shares", body: input, status: 201 });
    expect(share).toMatchObject({ fileId, permission: "comment", expiresAt: input.expiresAt, url: expect.any(String) });
  });
});

describe("search", () => {
  it("search.query: POST /search/v1/query", async () => {
    const ctx = makeContext();
    const answer = await h.products.search.query(ctx, { query: "budget", sources: ["mail", "drive"] });
    expect(only(ctx)).toMatchObject({ method: "POST", path: "/search/v1/query", body: { query: "budget", sources: ["mail", "drive"] } });
    expect(answer).toMatchObject({ answer: expect.any(String), citations: expect.any(Array) });
  });

  it("search.chat: POST /search/v1/chat, keeping the session", async () => {
    const first = await h.products.search.chat(makeContext(), { message: "what is planned?" });
    expect(first.sessionId).toEqual(expect.any(String));
    const ctx = makeContext();
    h.sandbox.clearRequests();
    const second = await h.products.search.chat(ctx, { sessionId: first.sessionId, message: "and then?" });
    expect(only(ctx)).toMatchObject({
      method: "POST",
      path: "/search/v1/chat",
      body: { sessionId: first.sessionId, message: "and then?" },
    });
    expect(second.sessionId).toBe(first.sessionId);
  });
});

describe("meetings", () => {
  const completed = () => h.sandbox.data.meetings.find((m) => m.status === "completed")!;

  it("meetings.create: POST /meetings/v1/meetings, 201 Meeting", async () => {
    const ctx = makeContext();
    const input = { title: "Sync", startsAt: "2031-01-01T09:00:00.000Z", durationMinutes: 30, attendees: ["ann@example.com"] };
    const meeting = await h.products.meetings.create(ctx, input);
    expect(only(ctx)).toMatchObject({ method: "POST", path: "/meetings/v1/meetings", body: input, status: 201 });
    expect(meeting).toMatchObject({ title: "Sync", durationMinutes: 30, status: "scheduled", joinUrl: expect.any(String) });
  });

  it("meetings.transcript and meetings.summary: GET …/:id/transcript and …/:id/summary", async () => {
    const id = completed().id;
    const ctx = makeContext();
    expect(await h.products.meetings.transcript(ctx, { id })).toEqual(h.sandbox.data.transcripts[id]);
    expect(only(ctx)).toMatchObject({ method: "GET", path: `/meetings/v1/meetings/${id}/transcript` });
    h.sandbox.clearRequests();
    const ctx2 = makeContext();
    expect(await h.products.meetings.summary(ctx2, { id })).toEqual(h.sandbox.data.summaries[id]);
    expect(only(ctx2)).toMatchObject({ method: "GET", path: `/meetings/v1/meetings/${id}/summary` });
  });
});

describe("enterprise (tenant acme)", () => {
  const acme = () => makeContext({ tenant: "acme" });

  it("enterprise.dataQuery: POST {tenant}/api/v1/dataquery/query", async () => {
    const ctx = acme();
    const result = await h.products.enterprise.dataQuery(ctx, { question: "totals by customer" });
    expect(only(ctx)).toMatchObject({
      method: "POST",
      path: "/tenants/acme/api/v1/dataquery/query",
      tenant: "acme",
      body: { question: "totals by customer" },
    });
    expect(result.columns[0]).toEqual({ name: "customer", type: "string" });
    expect(result.answer).toContain("acme");
  });

  it("enterprise.invoices: GET {tenant}/api/v1/invoices with status, limit, cursor", async () => {
    const ctx = acme();
    const paid = h.sandbox.data.tenants.acme!.invoices.filter((i) => i.status === "paid");
    const page = await h.products.enterprise.invoices(ctx, { status: "paid", limit: 2 });
    expect(only(ctx)).toMatchObject({ method: "GET", path: "/tenants/acme/api/v1/invoices", query: { status: "paid", limit: "2" } });
    expect(page.data).toEqual(paid.slice(0, 2));
  });

  it("workflows.run: POST {tenant}/api/v1/workflows/:id/run, 202", async () => {
    const ctx = acme();
    const workflow = h.sandbox.data.tenants.acme!.workflows[0]!;
    const run = await h.products.workflows.run(ctx, { id: workflow.id, input: { month: "2030-01" } });
    expect(only(ctx)).toMatchObject({
      method: "POST",
      path: `/tenants/acme/api/v1/workflows/${workflow.id}/run`,
      status: 202,
      body: { input: { month: "2030-01" } },
    });
    expect(run).toMatchObject({ workflowId: workflow.id, status: "queued", runId: expect.any(String) });
  });
});

describe("metrics", () => {
  it("observes upstream durations by product and outcome", async () => {
    await h.products.files.get(makeContext(), { id: h.sandbox.data.files[0]!.id });
    const text = await h.metrics.registry.metrics();
    expect(text).toMatch(/gateway_upstream_request_duration_seconds_count\{product="drive",outcome="ok"\} [1-9]/);
  });
});
