// How GraphQL loads product data: per-request DataLoaders (one upstream call per distinct id) and
// Relay connections over the upstream's cursors (every item exactly once, resumable from any edge).
import { describe, expect, it } from "vitest";
import { MESSAGE_FIELDS } from "./cases.ts";
import { graphqlFetch, newRequestId, trpcClient, useProductsEnv } from "./harness.ts";

const env = useProductsEnv();

async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const { body } = await graphqlFetch(env().gateway.url, { query, variables }, { token: env().token, requestId: newRequestId("loading") });
  if (body.errors?.length || !body.data) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
  return body.data as T;
}

interface Conn<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

describe("DataLoader", () => {
  it("20 messages over 3 threads, each asking for its thread → exactly 3 thread calls", async () => {
    // No seeded folder or query gives 20 messages over exactly 3 threads, so put them there: 7 + 7
    // + 6 replies into three seeded threads, each carrying a marker the `q` filter finds.
    const marker = "dataloader-marker-7f3a";
    const threads = env().sandbox.data.threads.slice(0, 3);
    for (let i = 0; i < 20; i++) {
      const thread = threads[i % 3];
      const response = await fetch(`${env().sandbox.url}/email/v1/messages`, {
        method: "POST",
        headers: { authorization: `Bearer ${env().token}`, "content-type": "application/json" },
        body: JSON.stringify({ to: ["ann@example.com"], subject: `reply ${i}`, body: `${marker} number ${i}`, threadId: thread?.id }),
      });
      expect(response.status).toBe(201);
    }
    env().sandbox.clearRequests();

    const data = await gql<{ messages: Conn<{ id: string; threadId: string; thread: { id: string } | null }> }>(
      `query ($q: String) { messages(q: $q, first: 20) { edges { node { id threadId thread { id } } } pageInfo { hasNextPage endCursor } } }`,
      { q: marker },
    );
    const nodes = data.messages.edges.map((e) => e.node);
    expect(nodes).toHaveLength(20);
    for (const node of nodes) expect(node.thread?.id).toBe(node.threadId);
    expect(new Set(nodes.map((n) => n.threadId))).toEqual(new Set(threads.map((t) => t.id)));

    expect(env().sandbox.countRequests("/email/v1/messages", "GET")).toBe(1);
    const threadCalls = env()
      .sandbox.requestsTo("/email/v1/threads/", "GET")
      .map((r) => r.path);
    expect(threadCalls).toHaveLength(3);
    expect(new Set(threadCalls)).toEqual(new Set(threads.map((t) => `/email/v1/threads/${t.id}`)));
  });

  it("meeting(id) { transcript summary } twice under aliases → one transcript and one summary call", async () => {
    const meeting = env().sandbox.data.meetings.find((m) => m.status === "completed");
    if (!meeting) throw new Error("the seed has no completed meeting");
    const data = await gql<
      Record<"a" | "b", { id: string; transcript: { meetingId: string; segments: unknown[] }; summary: { summary: string } }>
    >(
      `query ($id: ID!) {
         a: meeting(id: $id) { id transcript { meetingId segments { text } } summary { summary } }
         b: meeting(id: $id) { id transcript { meetingId segments { speaker } } summary { summary actionItems { text } } }
       }`,
      { id: meeting.id },
    );
    expect(data.a.transcript.meetingId).toBe(meeting.id);
    expect(data.b.transcript.segments).toHaveLength(env().sandbox.data.transcripts[meeting.id]?.segments.length ?? -1);
    expect(data.a.summary.summary).toBe(env().sandbox.data.summaries[meeting.id]?.summary);
    expect(env().sandbox.counts()).toEqual({
      [`GET /meetings/v1/meetings/${meeting.id}/transcript`]: 1,
      [`GET /meetings/v1/meetings/${meeting.id}/summary`]: 1,
    });
  });

  it("loaders live for one request: the same query again calls the upstream again", async () => {
    const meeting = env().sandbox.data.meetings.find((m) => m.status === "completed");
    const query = `query ($id: ID!) { meeting(id: $id) { transcript { meetingId } } }`;
    await gql(query, { id: meeting?.id });
    await gql(query, { id: meeting?.id });
    expect(env().sandbox.countRequests("/meetings/v1/meetings/")).toBe(2);
  });
});

describe("Relay paging over upstream cursors", () => {
  const pageQuery = `query ($first: Int, $after: String) { messages(folder: "inbox", first: $first, after: $after) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`;
  const page = async (first: number, after?: string | null) =>
    (await gql<{ messages: Conn<{ id: string }> }>(pageQuery, { first, after: after ?? null })).messages;

  it("first: 7, then after: endCursor until the end, visits every inbox message exactly once, in order", async () => {
    const inbox = env()
      .sandbox.data.messages.filter((m) => m.folder === "inbox")
      .map((m) => m.id);
    expect(inbox.length).toBeGreaterThan(7 * 3);
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const conn = await page(7, after);
      pages += 1;
      expect(conn.edges.length).toBeLessThanOrEqual(7);
      seen.push(...conn.edges.map((e) => e.node.id));
      if (!conn.pageInfo.hasNextPage) break;
      expect(conn.pageInfo.endCursor).toBe(conn.edges.at(-1)?.cursor);
      after = conn.pageInfo.endCursor;
      if (pages > 20) throw new Error("paging does not end");
    }
    expect(seen).toEqual(inbox);
    expect(pages).toBe(Math.ceil(inbox.length / 7));
    // One upstream page per connection page, each asking for 7 and passing the upstream's cursor on.
    const upstream = env().sandbox.requestsTo("/email/v1/messages", "GET");
    expect(upstream).toHaveLength(pages);
    expect(upstream[0]?.query).toEqual({ folder: "inbox", limit: "7" });
    for (const r of upstream.slice(1)) expect(r.query).toEqual({ folder: "inbox", limit: "7", cursor: expect.any(String) });
  });

  it("resumes from a middle edge's cursor", async () => {
    const inbox = env()
      .sandbox.data.messages.filter((m) => m.folder === "inbox")
      .map((m) => m.id);
    const first = await page(7);
    const second = await page(7, first.pageInfo.endCursor);
    // The 4th edge of the second page is inbox[10]: resuming after it starts at inbox[11].
    const middle = second.edges[3]?.cursor;
    const resumed = await page(7, middle);
    expect(resumed.edges.map((e) => e.node.id)).toEqual(inbox.slice(11, 18));
    // And from the middle of the first page.
    const early = await page(5, first.edges[2]?.cursor);
    expect(early.edges.map((e) => e.node.id)).toEqual(inbox.slice(3, 8));
    expect(early.pageInfo.hasNextPage).toBe(true);
  });

  it("a cursor the API did not issue → BAD_USER_INPUT, no upstream call", async () => {
    const { body } = await graphqlFetch(
      env().gateway.url,
      { query: pageQuery, variables: { first: 3, after: "not-a-cursor" } },
      { token: env().token },
    );
    expect(body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(env().sandbox.countRequests()).toBe(0);
  });

  it("tRPC lists pass the upstream's nextCursor through: every message once", async () => {
    const client = trpcClient(env().gateway.url, { token: env().token });
    const all = env().sandbox.data.messages.map((m) => m.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i++) {
      const result: { data: { id: string }[]; nextCursor: string | null } = await client.messages.list.query({
        limit: 25,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...result.data.map((m) => m.id));
      if (result.nextCursor === null) break;
      cursor = result.nextCursor;
    }
    expect(seen).toEqual(all);
  });
});

it("message fields match the upstream message exactly (nulls for absent optionals)", async () => {
  const data = await gql<{ messages: Conn<Record<string, unknown>> }>(
    `{ messages(first: 1) { edges { node { ${MESSAGE_FIELDS} } } pageInfo { hasNextPage endCursor } } }`,
  );
  const { body: _body, ...expected } = env().sandbox.data.messages[0] ?? { body: "" };
  expect(data.messages.edges[0]?.node).toMatchObject(expected);
});
