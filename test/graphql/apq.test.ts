// Automatic persisted queries as Apollo clients use them (docs/configuration.md "GraphQL: trusted
// documents"): a real @apollo/client with its persisted-queries link over real HTTP. The first
// request by hash is PersistedQueryNotFound, the link retries with the text, the gateway registers
// it, and every later request sends the hash alone. A hash sent with a text that is not its own is
// refused and registers nothing (issue 37 F11), on the fast path and through Hono alike; with
// REDIS_URL a hash registered on one replica is served by hash alone on another.
import { createHash, randomUUID } from "node:crypto";
import { ApolloClient, HttpLink, InMemoryCache, gql } from "@apollo/client";
import { print } from "graphql";
import { PersistedQueryLink } from "@apollo/client/link/persisted-queries";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApqCache } from "../../src/graphql/apq-cache.ts";
import { documentHash } from "../../src/graphql/trusted-documents.ts";
import { createLogger } from "../../src/core/logger.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

const REDIS_URL = "redis://127.0.0.1:6379";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

interface Sent {
  method: string;
  url: string;
  body: { query?: string; extensions?: { persistedQuery?: { sha256Hash?: string } } } | undefined;
}
interface Body {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

let tg: TestGateway;
let key: string;
beforeAll(async () => {
  tg = await startTestGateway();
  key = await tg.key({ user: "apollo" });
});
afterAll(() => tg?.close());

/** An Apollo Client on the gateway whose fetch records what it sends. */
function apollo(gateway: TestGateway, credential: string, options: { useGETForHashedQueries?: boolean } = {}) {
  const sent: Sent[] = [];
  const recording: typeof fetch = async (input, init) => {
    const url = String(input);
    const text = typeof init?.body === "string" ? init.body : undefined;
    sent.push({ method: init?.method ?? "GET", url, body: text ? (JSON.parse(text) as Sent["body"]) : undefined });
    return fetch(input, init);
  };
  const link = new PersistedQueryLink({ sha256, ...options }).concat(
    new HttpLink({ uri: `${gateway.url}/graphql`, fetch: recording, headers: { authorization: `Bearer ${credential}` } }),
  );
  return { client: new ApolloClient({ link, cache: new InMemoryCache() }), sent };
}

/** A query no other test (or earlier run against the same Redis) has registered. */
const freshQuery = () => {
  const alias = `v${randomUUID().replaceAll("-", "")}`;
  return { document: gql(`query Fresh { ${alias}: viewer { id } }`), alias };
};

async function post(gateway: TestGateway, body: unknown, chunked = false, credential = key): Promise<{ status: number; body: Body }> {
  const text = JSON.stringify(body);
  const init: RequestInit & { duplex?: "half" } = {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/graphql-response+json", authorization: `Bearer ${credential}` },
    // A stream has no Content-Length: the request goes through Hono, not the Node fast path.
    body: chunked ? new Blob([text]).stream() : text,
    ...(chunked ? { duplex: "half" } : {}),
  };
  const response = await fetch(`${gateway.url}/graphql`, init);
  return { status: response.status, body: (await response.json()) as Body };
}

const apq = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

describe("an Apollo Client with the persisted-queries link", () => {
  it("the first query is registered with its text; the second sends only the hash and gets data", async () => {
    const { client, sent } = apollo(tg, key);
    const { document, alias } = freshQuery();
    const first = await client.query({ query: document, fetchPolicy: "network-only" });
    expect(first.data).toEqual({ [alias]: { __typename: "Viewer", id: "apollo" } });
    // Hash alone (not found), then hash and text.
    expect(sent.map((s) => [Boolean(s.body?.query), Boolean(s.body?.extensions?.persistedQuery?.sha256Hash)])).toEqual([
      [false, true],
      [true, true],
    ]);

    const registeredText = sent[1]!.body!.query!;
    expect(sent[1]!.body?.extensions?.persistedQuery?.sha256Hash).toBe(documentHash(registeredText));
    sent.length = 0;
    const second = await client.query({ query: document, fetchPolicy: "network-only" });
    expect(second.data).toEqual(first.data);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body?.query).toBeUndefined();
    expect(sent[0]!.body?.extensions?.persistedQuery?.sha256Hash).toBe(documentHash(registeredText));
  });

  it("another client (another caller) is served by hash alone too, as itself; GET hashed queries work the same", async () => {
    const { document, alias } = freshQuery();
    await apollo(tg, key).client.query({ query: document });
    const other = await tg.key({ user: "bob" });
    const { client, sent } = apollo(tg, other, { useGETForHashedQueries: true });
    const answer = await client.query({ query: document });
    expect(answer.data).toEqual({ [alias]: { __typename: "Viewer", id: "bob" } });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.method).toBe("GET");
    expect(new URL(sent[0]!.url).searchParams.has("query")).toBe(false);
  });
});

describe("a hash that is not its text's (issue 37 F11)", () => {
  it("is refused, 400 'provided sha does not match query', runs nothing and registers nothing: on the fast path and through Hono", async () => {
    for (const chunked of [false, true]) {
      const text = `query Mismatch { m${randomUUID().replaceAll("-", "")}: viewer { id } }`;
      const other = `query Other { o${randomUUID().replaceAll("-", "")}: viewer { id } }`;
      const wrong = documentHash(other);
      const refused = await post(tg, { query: text, extensions: apq(wrong) }, chunked);
      expect(refused.status).toBe(400);
      expect(refused.body.data).toBeUndefined();
      expect(refused.body.errors).toEqual([{ message: "provided sha does not match query", extensions: { code: "BAD_USER_INPUT" } }]);
      // Neither the hash sent nor the text's own hash was registered.
      for (const hash of [wrong, documentHash(text)]) {
        expect((await post(tg, { extensions: apq(hash) }, chunked)).body.errors?.[0]?.message).toBe("PersistedQueryNotFound");
      }
      // A documentId in sha256 form is held to the same rule.
      const byDocumentId = await post(tg, { query: text, documentId: `sha256:${wrong}` }, chunked);
      expect(byDocumentId.body.errors?.[0]?.message).toBe("provided sha does not match query");
    }
  });

  it("a matching hash registers on both paths; an operation that fails validation registers nothing", async () => {
    for (const chunked of [false, true]) {
      const text = `query Matching { r${randomUUID().replaceAll("-", "")}: viewer { id } }`;
      expect((await post(tg, { query: text, extensions: apq(documentHash(text)) }, chunked)).body.errors).toBeUndefined();
      // Served by hash alone on the other path.
      expect((await post(tg, { extensions: apq(documentHash(text)) }, !chunked)).body.errors).toBeUndefined();

      const invalid = `query Invalid { i${randomUUID().replaceAll("-", "")}: viewer { noSuchField } }`;
      expect((await post(tg, { query: invalid, extensions: apq(documentHash(invalid)) }, chunked)).body.errors?.[0]?.message).toMatch(
        /noSuchField/,
      );
      expect((await post(tg, { extensions: apq(documentHash(invalid)) }, chunked)).body.errors?.[0]?.message).toBe(
        "PersistedQueryNotFound",
      );
    }
  });
});

describe("where nothing is registered", () => {
  it("GRAPHQL_APQ_CACHE_SIZE=0: the text runs, its hash alone stays PersistedQueryNotFound", async () => {
    const off = await startTestGateway({ GRAPHQL_APQ_CACHE_SIZE: "0" });
    try {
      const { client, sent } = apollo(off, await off.key({ user: "apollo" }));
      const { document } = freshQuery();
      await client.query({ query: document, fetchPolicy: "network-only" });
      await client.query({ query: document, fetchPolicy: "network-only" });
      // Every query costs the two requests.
      expect(sent.map((s) => Boolean(s.body?.query))).toEqual([false, true, false, true]);
    } finally {
      await off.close();
    }
  });
});

describe("shared by replicas through Redis (REDIS_URL)", () => {
  it("a hash registered on one gateway is served by hash alone on another (an Apollo Client there sends only the hash)", async () => {
    const [a, b] = await Promise.all([startTestGateway({ REDIS_URL }), startTestGateway({ REDIS_URL })]);
    const redis = new Redis(REDIS_URL);
    try {
      const { document, alias } = freshQuery();
      const text = print(new InMemoryCache().transformDocument(document));
      const hash = documentHash(text);
      const [keyA, keyB] = [await a.key({ user: "apollo" }), await b.key({ user: "apollo" })];
      // Registered on A with its text (again, until A's connection to Redis is up and the entry is there).
      await expect
        .poll(async () => {
          expect((await post(a, { query: text, extensions: apq(hash) }, false, keyA)).body.errors).toBeUndefined();
          return redis.exists(`wg:apq:${hash}`);
        })
        .toBe(1);
      // B never saw the text: a hash alone can only be found in Redis (a miss registers nothing).
      await expect.poll(async () => (await post(b, { extensions: apq(hash) }, false, keyB)).body.errors).toBeUndefined();
      const { client, sent } = apollo(b, keyB);
      expect((await client.query({ query: document })).data).toEqual({ [alias]: { __typename: "Viewer", id: "apollo" } });
      expect(sent).toHaveLength(1);
      expect(sent[0]!.body?.query).toBeUndefined();
      expect(sent[0]!.body?.extensions?.persistedQuery?.sha256Hash).toBe(hash);
    } finally {
      await Promise.all([a.close(), b.close(), redis.quit()]);
    }
  });

  it("Redis keeps the most recently used entries up to the bound, and a text that is not its hash's is never served", async () => {
    const keyPrefix = `wg:apq-test:${randomUUID()}:`;
    const redis = new Redis(REDIS_URL);
    const log = createLogger("silent");
    const one = createApqCache({ size: 2, redisUrl: REDIS_URL, log, hashOf: documentHash, keyPrefix });
    try {
      const texts = ["{ a: viewer { id } }", "{ b: viewer { id } }", "{ c: viewer { id } }"];
      for (const text of texts) {
        // Set again until it is there: commands fail fast until the connection is made.
        await expect
          .poll(() => {
            one.set(documentHash(text), text);
            return redis.get(keyPrefix + documentHash(text));
          })
          .toBe(text);
      }
      // The oldest went from Redis; a fresh process (its own empty LRU) finds the other two there.
      expect(await redis.exists(keyPrefix + documentHash(texts[0]!))).toBe(0);
      expect(await redis.zcard(`${keyPrefix}lru`)).toBe(2);
      const two = createApqCache({ size: 2, redisUrl: REDIS_URL, log, hashOf: documentHash, keyPrefix });
      try {
        // Until its connection is up a lookup misses: asked until it is.
        await expect.poll(() => two.get(documentHash(texts[2]!))).toBe(texts[2]);
        expect(await two.get(documentHash(texts[0]!))).toBeUndefined();
        // Someone else's write under a known hash is not served.
        await redis.set(keyPrefix + documentHash(texts[1]!), "{ viewer { tenant } }");
        expect(await two.get(documentHash(texts[1]!))).toBeUndefined();
      } finally {
        await two.close();
      }
    } finally {
      await one.close();
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });
});
