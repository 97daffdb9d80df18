// One table of product cases (docs/api.md "Upstreams"), run over GraphQL and over tRPC: each case is the
// GraphQL document, the tRPC call, the request the sandbox must receive and a check of the
// mapped result. Both surfaces' results are brought to one shape so each check is written once.
import { createHash } from "node:crypto";
import { expect } from "vitest";
import type { Sandbox } from "../sandbox/index.ts";
import type { Operation } from "./harness.ts";
import { dropNulls } from "./harness.ts";

export const MESSAGE_FIELDS =
  "id threadId folder from { name email } to { name email } cc { name email } subject snippet receivedAt unread hasAttachments";
export const FILE_FIELDS = "id name mimeType size createdAt modifiedAt parentId webUrl";
const EVENT_FIELDS = "id title start end location attendees { email name response } meetingUrl";
const INVOICE_FIELDS = "id number customer { id name } currency total status issuedAt dueAt";

/** The request the sandbox must have received (path is the one under the product's or tenant's base). */
export interface ExpectedRequest {
  method: "GET" | "POST";
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** Tenant endpoints: the tenant whose base the request reached. */
  tenant?: string;
  status: number;
}

export interface BuiltCase<R> {
  op: Operation<R>;
  request: ExpectedRequest;
  check(result: R): void;
}

export interface ProductCase {
  /** e.g. "messages.list" (the tRPC procedure) — shown with the GraphQL field in the test name. */
  name: string;
  graphqlField: string;
  build(sandbox: Sandbox): BuiltCase<unknown>;
}

/** Keeps each case's result type inside the case while the table holds them all. */
const productCase = <R>(name: string, graphqlField: string, build: (sandbox: Sandbox) => BuiltCase<R>): ProductCase => ({
  name,
  graphqlField,
  build: build as (sandbox: Sandbox) => BuiltCase<unknown>,
});

interface Conn<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}
/** A page of a list, as both surfaces show it: the items and whether there is more. */
export interface ListResult<T> {
  data: T[];
  more: boolean;
}
export const fromConnection = <T>(conn: unknown): ListResult<T> => {
  const c = conn as Conn<T>;
  return { data: c.edges.map((e) => dropNulls(e.node)), more: c.pageInfo.hasNextPage };
};
export const fromPage = <T>(page: { data: T[]; nextCursor: string | null }): ListResult<T> => ({
  data: page.data,
  more: page.nextCursor !== null,
});

const field =
  <T>(name: string) =>
  (data: Record<string, unknown>): T =>
    dropNulls(data[name]) as T;
const first = <T>(list: readonly T[], what: string): T => {
  const item = list[0];
  if (item === undefined) throw new Error(`the seed has no ${what}`);
  return item;
};
const stripBody = <T extends { body: string }>({ body: _body, ...rest }: T) => rest;
const stripContent = <T extends { content: string; sha256: string }>({ content: _c, sha256: _s, ...rest }: T) => rest;

interface Message {
  id: string;
  threadId: string;
  folder: string;
  subject: string;
  to: { email: string; name?: string }[];
  cc: { email: string; name?: string }[];
}

export const productCases: ProductCase[] = [
  // ---- mail ------------------------------------------------------------------------------------
  productCase("messages.list", "messages", (sb) => {
    const inbox = sb.data.messages.filter((m) => m.folder === "inbox");
    return {
      op: {
        graphql: {
          query: `query ($folder: String, $first: Int) { messages(folder: $folder, first: $first) { edges { cursor node { ${MESSAGE_FIELDS} } } pageInfo { hasNextPage endCursor } } }`,
          variables: { folder: "inbox", first: 5 },
          pick: (d) => fromConnection(d["messages"]),
        },
        trpc: async (c) => fromPage(await c.messages.list.query({ folder: "inbox", limit: 5 })),
      },
      request: { method: "GET", path: "/email/v1/messages", query: { folder: "inbox", limit: "5" }, status: 200 },
      check: (r) => {
        expect(r.data).toEqual(inbox.slice(0, 5).map(stripBody));
        expect(r.more).toBe(true);
      },
    };
  }),

  productCase("messages.send", "sendMessage", (sb) => {
    const thread = first(sb.data.threads, "thread");
    const input = {
      to: ["ann@example.com"],
      cc: ["bob@example.com"],
      subject: "Hello from the gateway",
      body: "Hi Ann, see you Monday.",
      threadId: thread.id,
    };
    return {
      op: {
        graphql: {
          query: `mutation ($input: SendMessageInput!) { sendMessage(input: $input) { ${MESSAGE_FIELDS} } }`,
          variables: { input },
          pick: field<Message>("sendMessage"),
        },
        trpc: (c) => c.messages.send.mutate(input),
      },
      request: { method: "POST", path: "/email/v1/messages", body: input, status: 201 },
      check: (r: Message) => {
        expect(r).toMatchObject({
          folder: "sent",
          subject: input.subject,
          threadId: thread.id,
          to: [{ email: "ann@example.com" }],
          cc: [{ email: "bob@example.com" }],
        });
        expect(r.id).toMatch(/^msg_/);
      },
    };
  }),

  productCase("messages.thread", "thread", (sb) => {
    const thread = sb.data.threads[1] ?? first(sb.data.threads, "thread");
    const messages = sb.data.messages.filter((m) => m.threadId === thread.id);
    type ThreadResult = { id: string; subject: string; messages: { id: string; threadId: string; body: string }[] };
    return {
      op: {
        graphql: {
          query: `query ($id: ID!) { thread(id: $id) { id subject messages { id threadId body } } }`,
          variables: { id: thread.id },
          pick: field<ThreadResult>("thread"),
        },
        trpc: (c) => c.messages.thread.query({ id: thread.id }),
      },
      request: { method: "GET", path: `/email/v1/threads/${thread.id}`, query: {}, status: 200 },
      check: (r: ThreadResult) => {
        expect(r.id).toBe(thread.id);
        expect(r.subject).toBe(thread.subject);
        const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
        expect(r.messages.map(({ id, threadId, body }) => ({ id, threadId, body })).sort(byId)).toEqual(
          messages.map(({ id, threadId, body }) => ({ id, threadId, body })).sort(byId),
        );
      },
    };
  }),

  productCase("messages.createDraft", "createDraft", (sb) => {
    const thread = first(sb.data.threads, "thread");
    const input = { to: ["ann@example.com"], threadId: thread.id, generate: { instructions: "say yes to the proposal" } };
    type DraftResult = { id: string; to: string[]; subject: string; body: string; generated: boolean };
    return {
      op: {
        graphql: {
          query: `mutation ($input: CreateDraftInput!) { createDraft(input: $input) { id to subject body generated } }`,
          variables: { input },
          pick: field<DraftResult>("createDraft"),
        },
        trpc: (c) => c.messages.createDraft.mutate(input),
      },
      request: { method: "POST", path: "/email/v1/drafts", body: input, status: 201 },
      check: (r: DraftResult) => {
        expect(r).toMatchObject({ to: ["ann@example.com"], subject: `Re: ${thread.subject}`, generated: true });
        expect(r.body).toContain("Say yes to the proposal.");
      },
    };
  }),

  productCase("calendar.events", "calendarEvents", (sb) => {
    const events = sb.data.calendarEvents;
    const from = (events[2] ?? first(events, "event")).start;
    const to = (events[20] ?? first(events, "event")).start;
    const expected = events.filter((e) => Date.parse(e.end) > Date.parse(from) && Date.parse(e.start) < Date.parse(to)).slice(0, 5);
    return {
      op: {
        graphql: {
          query: `query ($from: DateTime, $to: DateTime, $first: Int) { calendarEvents(from: $from, to: $to, first: $first) { edges { cursor node { ${EVENT_FIELDS} } } pageInfo { hasNextPage endCursor } } }`,
          variables: { from, to, first: 5 },
          pick: (d) => fromConnection(d["calendarEvents"]),
        },
        trpc: async (c) => fromPage(await c.calendar.events.query({ from, to, limit: 5 })),
      },
      request: { method: "GET", path: "/email/v1/calendar/events", query: { from, to, limit: "5" }, status: 200 },
      check: (r) => {
        expect(expected).toHaveLength(5);
        expect(r.data).toEqual(expected);
        expect(r.more).toBe(true);
      },
    };
  }),

  productCase("bookings.create", "createBooking", (sb) => {
    const type = first(sb.data.bookingTypes, "booking type");
    const input = {
      bookingTypeId: type.id,
      start: "2031-03-04T10:00:00.000Z",
      attendee: { name: "Ann Lee", email: "ann@example.com" },
      notes: "first call",
    };
    type BookingResult = {
      id: string;
      bookingTypeId: string;
      start: string;
      end: string;
      attendee: { name: string; email: string };
      status: string;
    };
    return {
      op: {
        graphql: {
          query: `mutation ($input: CreateBookingInput!) { createBooking(input: $input) { id bookingTypeId start end attendee { name email } status } }`,
          variables: { input },
          pick: field<BookingResult>("createBooking"),
        },
        trpc: (c) => c.bookings.create.mutate(input),
      },
      request: { method: "POST", path: "/email/v1/bookings", body: input, status: 201 },
      check: (r: BookingResult) => {
        expect(r).toMatchObject({ bookingTypeId: type.id, start: input.start, attendee: input.attendee, status: "confirmed" });
        expect(Date.parse(r.end) - Date.parse(r.start)).toBe(type.durationMinutes * 60_000);
      },
    };
  }),

  // ---- drive -----------------------------------------------------------------------------------
  productCase("files.upload", "uploadFile", (sb) => {
    const folder = first(sb.data.folders, "folder");
    const content = "hello from the products surface test\n".repeat(20);
    const sha256 = createHash("sha256").update(content).digest("hex");
    const size = Buffer.byteLength(content);
    const file = () => new File([content], "notes.txt", { type: "text/plain" });
    type FileResult = { id: string; name: string; mimeType: string; size: number; parentId?: string; webUrl: string };
    return {
      op: {
        graphql: {
          query: `mutation ($file: Upload!, $name: String, $folderId: ID) { uploadFile(file: $file, name: $name, folderId: $folderId) { ${FILE_FIELDS} } }`,
          variables: { name: "Meeting notes.txt", folderId: folder.id },
          files: { file: file() },
          pick: field<FileResult>("uploadFile"),
        },
        trpc: (c) => {
          const form = new FormData();
          form.append("file", file());
          form.append("name", "Meeting notes.txt");
          form.append("folderId", folder.id);
          return c.files.upload.mutate(form);
        },
      },
      request: {
        method: "POST",
        path: "/drive/v1/files",
        body: {
          fields: { name: "Meeting notes.txt", folderId: folder.id },
          file: { size, sha256, filename: "notes.txt", contentType: expect.stringMatching(/^text\/plain/) },
        },
        status: 201,
      },
      check: (r: FileResult) => {
        expect(r).toMatchObject({ name: "Meeting notes.txt", size, parentId: folder.id, mimeType: expect.stringMatching(/^text\/plain/) });
        expect(r.id).toMatch(/^file_/);
      },
    };
  }),

  productCase("files.get", "file", (sb) => {
    const file = stripContent(first(sb.data.files, "file"));
    return {
      op: {
        graphql: { query: `query ($id: ID!) { file(id: $id) { ${FILE_FIELDS} } }`, variables: { id: file.id }, pick: field("file") },
        trpc: (c) => c.files.get.query({ id: file.id }),
      },
      request: { method: "GET", path: `/drive/v1/files/${file.id}`, query: {}, status: 200 },
      check: (r) => expect(r).toEqual(file),
    };
  }),

  productCase("files.search", "searchFiles", (sb) => {
    const expected = sb.data.files.filter((f) => f.name.toLowerCase().includes("budget")).map((f) => f.id);
    type Hit = { id: string; name: string; score?: number };
    return {
      op: {
        graphql: {
          query: `query ($query: String!) { searchFiles(query: $query) { ${FILE_FIELDS} score } }`,
          variables: { query: "budget" },
          pick: field<Hit[]>("searchFiles"),
        },
        // tRPC answers {files} (as MCP's drive_search does); GraphQL's searchFiles is the list.
        trpc: async (c) => (await c.files.search.query({ query: "budget" })).files,
      },
      request: { method: "POST", path: "/drive/v1/search", body: { query: "budget" }, status: 200 },
      check: (r: Hit[]) => {
        expect(expected.length).toBeGreaterThan(0);
        expect(r.map((f) => f.id).sort()).toEqual([...expected].sort());
        for (const hit of r) expect(hit).toMatchObject({ name: expect.stringMatching(/budget/i), score: 1 });
      },
    };
  }),

  productCase("files.share", "createShare", (sb) => {
    const file = first(sb.data.files, "file");
    const input = { fileId: file.id, permission: "edit" as const, emails: ["ann@example.com"], expiresAt: "2031-01-01T00:00:00.000Z" };
    type ShareResult = { id: string; fileId: string; url: string; permission: string; expiresAt?: string };
    return {
      op: {
        graphql: {
          query: `mutation ($input: CreateShareInput!) { createShare(input: $input) { id fileId url permission expiresAt } }`,
          variables: { input },
          pick: field<ShareResult>("createShare"),
        },
        trpc: (c) => c.files.share.mutate(input),
      },
      request: { method: "POST", path: "/drive/v1/shares", body: input, status: 201 },
      check: (r: ShareResult) => {
        expect(r).toMatchObject({ fileId: file.id, permission: "edit", expiresAt: input.expiresAt });
        expect(r.url).toMatch(/^https:\/\//);
      },
    };
  }),

  // ---- search ----------------------------------------------------------------------------------
  productCase("search.query", "search", () => {
    type Answer = { answer: string; citations: { title: string; url: string; source: string; snippet: string }[]; sessionId?: string };
    return {
      op: {
        graphql: {
          query: `query ($query: String!, $sources: [String!]) { search(query: $query, sources: $sources) { answer citations { title url source snippet } sessionId } }`,
          variables: { query: "budget review", sources: ["mail", "drive"] },
          pick: field<Answer>("search"),
        },
        trpc: (c) => c.search.query.query({ query: "budget review", sources: ["mail", "drive"] }),
      },
      request: { method: "POST", path: "/search/v1/query", body: { query: "budget review", sources: ["mail", "drive"] }, status: 200 },
      check: (r: Answer) => {
        expect(r.answer).toContain("budget review");
        expect(r.citations.length).toBeGreaterThan(0);
        for (const c of r.citations) expect(["mail", "drive"]).toContain(c.source);
        expect(r.sessionId).toMatch(/^ses_/);
      },
    };
  }),

  productCase("search.chat", "searchChat", () => {
    type Chat = { answer: string; sessionId: string; citations: unknown[] };
    const input = { message: "what is on the offsite agenda?" };
    return {
      op: {
        graphql: {
          query: `mutation ($input: SearchChatInput!) { searchChat(input: $input) { answer sessionId citations { title url source snippet } } }`,
          variables: { input },
          pick: field<Chat>("searchChat"),
        },
        trpc: (c) => c.search.chat.mutate(input),
      },
      request: { method: "POST", path: "/search/v1/chat", body: input, status: 200 },
      check: (r: Chat) => {
        expect(r.answer).toMatch(/^\(turn 1\) /);
        expect(r.sessionId).toMatch(/^ses_/);
      },
    };
  }),

  // ---- meetings --------------------------------------------------------------------------------
  productCase("meetings.create", "createMeeting", () => {
    const input = {
      title: "Quarterly planning",
      startsAt: "2031-05-06T09:00:00.000Z",
      durationMinutes: 45,
      attendees: ["ann@example.com", "bob@example.com"],
    };
    type MeetingResult = { id: string; title: string; startsAt: string; durationMinutes: number; joinUrl: string; status: string };
    return {
      op: {
        graphql: {
          query: `mutation ($input: CreateMeetingInput!) { createMeeting(input: $input) { id title startsAt durationMinutes joinUrl status } }`,
          variables: { input },
          pick: field<MeetingResult>("createMeeting"),
        },
        trpc: (c) => c.meetings.create.mutate(input),
      },
      request: { method: "POST", path: "/meetings/v1/meetings", body: input, status: 201 },
      check: (r: MeetingResult) => {
        expect(r).toMatchObject({ title: input.title, startsAt: input.startsAt, durationMinutes: 45, status: "scheduled" });
        expect(r.joinUrl).toMatch(/^https:\/\//);
      },
    };
  }),

  productCase("meetings.transcript", "meeting.transcript", (sb) => {
    const meeting = first(
      sb.data.meetings.filter((m) => m.status === "completed"),
      "completed meeting",
    );
    return {
      op: {
        graphql: {
          query: `query ($id: ID!) { meeting(id: $id) { id transcript { meetingId segments { speaker startMs endMs text } } } }`,
          variables: { id: meeting.id },
          pick: (d) => dropNulls((d["meeting"] as { transcript: unknown }).transcript),
        },
        trpc: (c) => c.meetings.transcript.query({ id: meeting.id }),
      },
      request: { method: "GET", path: `/meetings/v1/meetings/${meeting.id}/transcript`, query: {}, status: 200 },
      check: (r) => expect(r).toEqual(sb.data.transcripts[meeting.id]),
    };
  }),

  productCase("meetings.summary", "meeting.summary", (sb) => {
    const meeting = first(
      sb.data.meetings.filter((m) => m.status === "completed"),
      "completed meeting",
    );
    return {
      op: {
        graphql: {
          query: `query ($id: ID!) { meeting(id: $id) { id summary { meetingId summary actionItems { text owner } } } }`,
          variables: { id: meeting.id },
          pick: (d) => dropNulls((d["meeting"] as { summary: unknown }).summary),
        },
        trpc: (c) => c.meetings.summary.query({ id: meeting.id }),
      },
      request: { method: "GET", path: `/meetings/v1/meetings/${meeting.id}/summary`, query: {}, status: 200 },
      check: (r) => expect(r).toEqual(sb.data.summaries[meeting.id]),
    };
  }),

  // ---- enterprise (the caller's tenant: acme) --------------------------------------------------
  productCase("enterprise.dataQuery", "dataQuery", (sb) => {
    const invoices = sb.data.tenants["acme"]?.invoices ?? [];
    type Result = { columns: { name: string; type: string }[]; rows: unknown[][]; answer?: string };
    return {
      op: {
        graphql: {
          query: `query ($question: String!) { dataQuery(question: $question) { columns { name type } rows answer } }`,
          variables: { question: "Invoice totals by customer" },
          pick: field<Result>("dataQuery"),
        },
        trpc: (c) => c.enterprise.dataQuery.query({ question: "Invoice totals by customer" }),
      },
      request: {
        method: "POST",
        path: "/api/v1/dataquery/query",
        body: { question: "Invoice totals by customer" },
        tenant: "acme",
        status: 200,
      },
      check: (r: Result) => {
        expect(r.columns.map((c) => c.name)).toEqual(["customer", "count", "total"]);
        expect(r.rows.reduce((n, row) => n + Number(row[1]), 0)).toBe(invoices.length);
        expect(r.answer).toMatch(/^acme has 45 invoices/);
      },
    };
  }),

  productCase("enterprise.invoices", "invoices", (sb) => {
    const open = (sb.data.tenants["acme"]?.invoices ?? []).filter((i) => i.status === "open");
    return {
      op: {
        graphql: {
          query: `query ($status: String, $first: Int) { invoices(status: $status, first: $first) { edges { cursor node { ${INVOICE_FIELDS} } } pageInfo { hasNextPage endCursor } } }`,
          variables: { status: "open", first: 3 },
          pick: (d) => fromConnection(d["invoices"]),
        },
        trpc: async (c) => fromPage(await c.enterprise.invoices.query({ status: "open", limit: 3 })),
      },
      request: { method: "GET", path: "/api/v1/invoices", query: { status: "open", limit: "3" }, tenant: "acme", status: 200 },
      check: (r) => {
        expect(open.length).toBeGreaterThan(3);
        expect(r.data).toEqual(open.slice(0, 3));
        expect(r.more).toBe(true);
      },
    };
  }),

  productCase("workflows.run", "runWorkflow", () => {
    const input = { dryRun: true, customers: ["cus_1", "cus_2"], note: { nested: [1, 2, 3] } };
    type Run = { runId: string; workflowId: string; status: string; startedAt: string };
    return {
      op: {
        graphql: {
          query: `mutation ($id: ID!, $input: JSON) { runWorkflow(id: $id, input: $input) { runId workflowId status startedAt } }`,
          variables: { id: "wf_invoice_reminder", input },
          pick: field<Run>("runWorkflow"),
        },
        trpc: (c) => c.workflows.run.mutate({ id: "wf_invoice_reminder", input }),
      },
      request: { method: "POST", path: "/api/v1/workflows/wf_invoice_reminder/run", body: { input }, tenant: "acme", status: 202 },
      check: (r: Run) => {
        expect(r).toMatchObject({ workflowId: "wf_invoice_reminder", status: "queued" });
        expect(r.runId).toMatch(/^run_/);
        expect(Number.isNaN(Date.parse(r.startedAt))).toBe(false);
      },
    };
  }),
];
