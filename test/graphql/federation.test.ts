// The gateway as a Federation v2 subgraph (schema/federation.graphql, docs/federation.md): its
// `_service` SDL composes, the printed schema stays plain GraphQL, and `_entities` resolves every
// resolvable entity through the same operations (credentials, DataLoaders), one lookup per
// distinct id, another user's ids and unknown ones as null.
import { readFileSync } from "node:fs";
import { composeServices } from "@theguild/federation-composition";
import { buildSchema, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { costModel } from "../../src/graphql/cost.ts";
import { graphqlFetch, signAccessToken, useProductsEnv } from "../products/harness.ts";

const SCOPES = "docs:read docs:write sheets:read sheets:write";
let aliceToken = "";
let bobToken = "";
const tokens = async () => {
  aliceToken ||= await signAccessToken({ sub: "alice", scope: SCOPES, tenant: "acme" });
  bobToken ||= await signAccessToken({ sub: "bob", scope: SCOPES, tenant: "acme" });
  return [aliceToken, bobToken];
};
const env = useProductsEnv({ extraApiTokens: await tokens() });

interface Body {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: { code?: string } }[];
}

async function gql(query: string, variables: Record<string, unknown> = {}, token = aliceToken): Promise<Body> {
  const { body } = await graphqlFetch(env().gateway.url, { query, variables }, { token });
  return body as Body;
}

async function ok(query: string, variables: Record<string, unknown> = {}, token = aliceToken): Promise<Record<string, unknown>> {
  const body = await gql(query, variables, token);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as Record<string, unknown>;
}

const ENTITIES = `query ($representations: [_Any!]!) {
  _entities(representations: $representations) {
    __typename
    ... on Document { id name text { text } }
    ... on Spreadsheet { id name cells }
    ... on DriveFile { id name downloadUrl }
    ... on Thread { id subject }
    ... on Message { id threadId subject thread { id } }
    ... on Meeting { id summary { summary } }
  }
}`;

const entities = async (representations: object[], token = aliceToken) =>
  (await ok(ENTITIES, { representations }, token))["_entities"] as (Record<string, unknown> | null)[];

async function createDocument(token: string, name: string): Promise<string> {
  const data = await ok(`mutation ($n: String!) { createDocument(input: { name: $n, markdown: "# Hello" }) { id } }`, { n: name }, token);
  return (data["createDocument"] as { id: string }).id;
}

async function createSpreadsheet(token: string, name: string): Promise<string> {
  const data = await ok(`mutation ($n: String!) { createSpreadsheet(input: { name: $n }) { id } }`, { n: name }, token);
  return (data["createSpreadsheet"] as { id: string }).id;
}

describe("the subgraph SDL", () => {
  it("_service { sdl } composes with another subgraph that extends Document and Message, without errors", async () => {
    const data = await ok(`{ _service { sdl } }`);
    const sdl = (data["_service"] as { sdl: string }).sdl;
    expect(sdl).toContain('@link(url: "https://specs.apollo.dev/federation/v2.6"');
    for (const entity of ["Document", "Spreadsheet", "DriveFile", "Thread", "Meeting"]) {
      expect(sdl).toMatch(new RegExp(`^type ${entity} @key\\(fields: "id"\\) {`, "m"));
    }
    const reviews = `extend schema @link(url: "https://specs.apollo.dev/federation/v2.6", import: ["@key", "@shareable"])
      type Document @key(fields: "id") { id: ID! reviews: [String!]! }
      type Message @key(fields: "id") { id: ID! starred: Boolean! }
      type Invoice @key(fields: "id") { id: ID! approved: Boolean! }
      type PageInfo @shareable { hasNextPage: Boolean! endCursor: String }
      type Query { topReviewed: [Document!]! }`;
    const result = composeServices([
      { name: "workspace", typeDefs: parse(sdl), url: "http://127.0.0.1:1/graphql" },
      { name: "reviews", typeDefs: parse(reviews), url: "http://127.0.0.1:2/graphql" },
    ]);
    expect("errors" in result && result.errors ? result.errors.map((e) => e.message) : []).toEqual([]);
    const supergraph = buildSchema((result as { supergraphSdl: string }).supergraphSdl);
    expect(Object.keys(supergraph.getTypeMap())).toEqual(expect.arrayContaining(["Document", "Message", "Invoice", "Spreadsheet"]));
    const document = supergraph.getType("Document") as unknown as { getFields(): Record<string, unknown> };
    expect(Object.keys(document.getFields())).toEqual(expect.arrayContaining(["text", "versions", "reviews"]));
  });

  it("the printed schema for frontend codegen stays plain GraphQL: no federation directives or fields", () => {
    const printed = readFileSync(new URL("../../schema/schema.graphql", import.meta.url), "utf8");
    expect(printed).not.toMatch(/@key|@link|@shareable|_entities|_service|_Any/);
    expect(() => buildSchema(printed)).not.toThrow();
  });
});

describe("_entities", () => {
  it("documents and spreadsheets: the caller's resolve, another user's and unknown ids are null, never data", async () => {
    await tokens();
    const [aliceDoc, bobDoc] = [await createDocument(aliceToken, "Alice's"), await createDocument(bobToken, "Bob's")];
    const [aliceSheet, bobSheet] = [await createSpreadsheet(aliceToken, "Alice sheet"), await createSpreadsheet(bobToken, "Bob sheet")];
    const result = await entities([
      { __typename: "Document", id: aliceDoc },
      { __typename: "Document", id: bobDoc },
      { __typename: "Document", id: "doc_01JZZZZZZZZZZZZZZZZZZZZZZZ" },
      { __typename: "Spreadsheet", id: aliceSheet },
      { __typename: "Spreadsheet", id: bobSheet },
    ]);
    expect(result).toEqual([
      { __typename: "Document", id: aliceDoc, name: "Alice's", text: { text: "Hello" } },
      null,
      null,
      { __typename: "Spreadsheet", id: aliceSheet, name: "Alice sheet", cells: 0 },
      null,
    ]);
    // Bob sees his own, and not Alice's.
    expect(
      await entities(
        [
          { __typename: "Document", id: aliceDoc },
          { __typename: "Document", id: bobDoc },
        ],
        bobToken,
      ),
    ).toEqual([null, { __typename: "Document", id: bobDoc, name: "Bob's", text: { text: "Hello" } }]);
  });

  it("a document asked for twice in one batch is read from the store once", async () => {
    const id = await createDocument(aliceToken, "Twice");
    const store = env().gateway.gateway.store;
    const original = store.documents.get.bind(store);
    const seen: string[] = [];
    store.documents.get = (owner, docId) => {
      seen.push(docId);
      return original(owner, docId);
    };
    try {
      const result = await entities([
        { __typename: "Document", id },
        { __typename: "Document", id },
      ]);
      expect(result.map((entity) => entity?.["id"])).toEqual([id, id]);
      expect(seen).toEqual([id]);
    } finally {
      store.documents.get = original;
    }
  });

  it("drive files, threads, messages and meetings in one batch: one upstream call per distinct id", async () => {
    const { files, threads, messages, meetings } = env().sandbox.data;
    const [fileA, fileB] = [files[0]!, files[1]!];
    const [threadA, threadB] = [threads[0]!, threads[1]!];
    const inA = messages.filter((m) => m.threadId === threadA.id).slice(0, 2);
    const inB = messages.find((m) => m.threadId === threadB.id)!;
    const meeting = meetings.find((m) => m.status === "completed")!;
    env().sandbox.clearRequests();
    const result = await entities([
      { __typename: "DriveFile", id: fileA.id },
      { __typename: "DriveFile", id: fileB.id },
      { __typename: "DriveFile", id: fileA.id },
      { __typename: "DriveFile", id: "file_nobody_has" },
      { __typename: "Thread", id: threadA.id },
      { __typename: "Thread", id: threadA.id },
      ...inA.map((m) => ({ __typename: "Message", id: m.id, threadId: m.threadId })),
      { __typename: "Message", id: inB.id, threadId: threadB.id },
      { __typename: "Message", id: inB.id, threadId: threadA.id },
      { __typename: "Meeting", id: meeting.id },
      { __typename: "Meeting", id: meeting.id },
    ]);
    expect(result.map((entity) => entity && [entity["__typename"], entity["id"]])).toEqual([
      ["DriveFile", fileA.id],
      ["DriveFile", fileB.id],
      ["DriveFile", fileA.id],
      null,
      ["Thread", threadA.id],
      ["Thread", threadA.id],
      ...inA.map((m) => ["Message", m.id]),
      ["Message", inB.id],
      // A message looked for in a thread it is not in.
      null,
      ["Meeting", meeting.id],
      ["Meeting", meeting.id],
    ]);
    expect(result[0]).toMatchObject({ name: fileA.name, downloadUrl: expect.stringContaining(`/api/v1/files/${fileA.id}/content`) });
    expect(result[6]).toMatchObject({ threadId: threadA.id, subject: inA[0]!.subject, thread: { id: threadA.id } });
    expect(result.at(-1)).toMatchObject({ summary: { summary: env().sandbox.data.summaries[meeting.id]!.summary } });

    const paths = env().sandbox.requests.map((r) => `${r.method} ${r.path}`);
    expect(paths.filter((p) => p.startsWith("GET /drive/v1/files/")).sort()).toEqual(
      [`GET /drive/v1/files/${fileA.id}`, `GET /drive/v1/files/${fileB.id}`, "GET /drive/v1/files/file_nobody_has"].sort(),
    );
    // Thread A for the thread and its messages (and Message.thread), thread B for its message: two calls.
    expect(paths.filter((p) => p.startsWith("GET /email/v1/threads/")).sort()).toEqual(
      [`GET /email/v1/threads/${threadA.id}`, `GET /email/v1/threads/${threadB.id}`].sort(),
    );
    expect(paths.filter((p) => p.includes("/summary"))).toEqual([`GET /meetings/v1/meetings/${meeting.id}/summary`]);
    for (const request of env().sandbox.requests) expect(request.headers.authorization).toBe(`Bearer ${aliceToken}`);
  });

  it("every run answers by position, a failing item as null in its place (graphql-jit, which dropped it, is not used here)", async () => {
    const file = env().sandbox.data.files[2]!;
    const id = await createDocument(aliceToken, "Positions");
    const representations = [
      { __typename: "DriveFile", id: file.id },
      { __typename: "Document", id },
      // Fails (BAD_USER_INPUT: no threadId) after two that succeed.
      { __typename: "Message", id: "msg_1" },
    ];
    for (let run = 0; run < 3; run++) {
      const body = await gql(ENTITIES, { representations });
      const list = body.data?.["_entities"] as unknown[];
      expect(list).toHaveLength(3);
      expect(list[0]).toMatchObject({ id: file.id });
      expect(list[1]).toMatchObject({ id, text: { text: "Hello" } });
      expect(list[2]).toBeNull();
      expect(body.errors?.map((e) => [e.path, e.extensions?.code])).toEqual([[["_entities", 2], "BAD_USER_INPUT"]]);
    }
  });

  it("a personal API key gets FORBIDDEN for product entities, as on their root fields; documents still resolve", async () => {
    const key = await env().gateway.key({ user: "carol" });
    const id = await createDocument(`${key}`, "Carol's");
    const body = await gql(
      ENTITIES,
      {
        representations: [
          { __typename: "Document", id },
          { __typename: "DriveFile", id: env().sandbox.data.files[0]!.id },
        ],
      },
      key,
    );
    expect((body.data?.["_entities"] as unknown[])[0]).toMatchObject({ id, name: "Carol's" });
    expect((body.data?.["_entities"] as unknown[])[1]).toBeNull();
    expect(body.errors?.map((e) => [e.path, e.extensions?.code])).toEqual([[["_entities", 1], "FORBIDDEN"]]);
  });

  it("without a credential: UNAUTHENTICATED, nothing resolved", async () => {
    const response = await fetch(`${env().gateway.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: ENTITIES, variables: { representations: [{ __typename: "Document", id: "doc_x" }] } }),
    });
    const body = (await response.json()) as Body;
    expect(body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    expect((body.data?.["_entities"] as unknown[] | undefined)?.[0] ?? null).toBeNull();
  });

  it("keys the gateway does not resolve say so: Invoice, and a Message without its threadId", async () => {
    const body = await gql(`query ($r: [_Any!]!) { _entities(representations: $r) { ... on Invoice { id } ... on Message { id } } }`, {
      r: [
        { __typename: "Invoice", id: "inv_1" },
        { __typename: "Message", id: "msg_1" },
      ],
    });
    expect(body.data?.["_entities"]).toEqual([null, null]);
    expect(body.errors?.map((e) => [e.path, e.extensions?.code])).toEqual([
      [["_entities", 0], "BAD_USER_INPUT"],
      [["_entities", 1], "BAD_USER_INPUT"],
    ]);
    expect(body.errors?.[0]?.message).toMatch(/Invoice references are not resolved/);
    expect(body.errors?.[1]?.message).toMatch(/"threadId"/);
  });

  it("costs each representation's selection: a batch of texts over the cost limit is refused before anything runs", async () => {
    const perText = 1 + costModel.TEXT_READ_POINTS + 20_000 / costModel.CHARS_PER_POINT;
    const tooMany = Math.ceil(costModel.MAX_COST / perText) + 1;
    const representations = Array.from({ length: tooMany }, (_, i) => ({ __typename: "Document", id: `doc_${i}` }));
    const body = await gql(`query ($r: [_Any!]!) { _entities(representations: $r) { ... on Document { text { text } } } }`, {
      r: representations,
    });
    expect(body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(body.errors?.[0]?.message).toMatch(/Query cost \d+ is over the limit/);
    // The same batch of drive files (no text) is cheap: the fragment on another type costs nothing for documents.
    const files = await gql(
      `query ($r: [_Any!]!) { _entities(representations: $r) { ... on Document { id } ... on DriveFile { text: name } } }`,
      { r: representations.slice(0, 10) },
    );
    expect(files.errors).toBeUndefined();
  });
});
