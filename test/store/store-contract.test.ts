// One contract, every store: the same behaviours run against SQLite (fresh temp dir) and
// PostgreSQL (fresh schema in the test database), so the service can never tell them apart.
//
// PostgreSQL: TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test. Each run creates
// a uniquely named schema, points the stores at it with `options=-c search_path=<schema>` in the
// URL, and drops it (CASCADE) afterwards. PostgreSQL is part of the test environment: when it is
// unreachable these tests fail with a message saying so; they are never skipped.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { monotonicFactory } from "ulid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore } from "../../src/documents/store/postgres.ts";
import { openSqliteStore } from "../../src/documents/store/sqlite.ts";
import { foldName, type ApiKeyRecord, type Store, type NewDocument } from "../../src/documents/store/types.ts";

const PG_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

/** One place a store lives (a directory, a schema); it can be opened any number of times. */
interface Location {
  open(): Promise<Store>;
  destroy(): Promise<void>;
}

interface Backend {
  name: "sqlite" | "postgres";
  createLocation(): Promise<Location>;
}

const sqliteBackend: Backend = {
  name: "sqlite",
  async createLocation() {
    const dir = await mkdtemp(join(tmpdir(), "store-contract-"));
    return {
      open: async () => openSqliteStore(dir),
      destroy: () => rm(dir, { recursive: true, force: true }),
    };
  },
};

function withSearchPath(url: string, schema: string): string {
  const separator = url.includes("?") ? "&" : "?";
  return `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    const reason = error instanceof Error ? error.message || error.name : String(error);
    throw new Error(
      `PostgreSQL is not reachable at ${PG_URL.replace(/\/\/[^@/]*@/, "//***@")} (${reason}). ` +
        `These tests need it; start it or set TEST_DATABASE_URL.`,
      { cause: error },
    );
  }
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const postgresBackend: Backend = {
  name: "postgres",
  async createLocation() {
    // Lower-case letters, digits and '_' only: safe to splice into DDL without quoting.
    const schema = `store_test_${process.pid}_${randomBytes(6).toString("hex")}`;
    await adminQuery(`CREATE SCHEMA ${schema}`);
    const url = withSearchPath(PG_URL, schema);
    return {
      open: () => openPostgresStore(url),
      destroy: () => adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`),
    };
  },
};

const ulid = monotonicFactory();
/** Real-looking ids: doc_ + 26 Crockford base32 characters, strictly increasing. */
const newId = (): string => `doc_${ulid()}`;
const newOwner = (): string => `user_${randomUUID()}`;

const bytes = (length: number, offset = 0): Uint8Array => {
  // A view into the middle of a larger buffer: stores must honour byteOffset/byteLength.
  const backing = randomBytes(length + offset + 7);
  backing[offset] = 0;
  return new Uint8Array(backing.buffer, backing.byteOffset + offset, length);
};

const newDoc = (ownerId: string, overrides: Partial<NewDocument> = {}): NewDocument => ({
  id: newId(),
  ownerId,
  name: "Quarterly report",
  createdAt: "2026-11-22T08:00:00.000Z",
  docx: bytes(64),
  text: "Quarterly report\n\nNumbers.",
  markdown: null,
  ...overrides,
});

const allOf = (store: Store, ownerId: string) => store.listDocuments({ ownerId, limit: 10_000 });

const CLAIM_AT = "2026-11-22T08:00:00.000Z";
const NOT_BEFORE = "2026-11-21T08:00:00.000Z";

describe.each([sqliteBackend, postgresBackend])("$name store", (backend) => {
  let location: Location;
  let store: Store;
  const extraLocations: Location[] = [];

  beforeAll(async () => {
    location = await backend.createLocation();
    store = await location.open();
  });

  afterAll(async () => {
    await store?.close();
    await location?.destroy();
    for (const extra of extraLocations) await extra.destroy();
  });

  it("reports its kind and answers ping", async () => {
    expect(store.kind).toBe(backend.name);
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it("creates a document and reads it back exactly", async () => {
    const owner = newOwner();
    const docx = bytes(4096, 13);
    const text = "Zeilen mit Ümlauten, emoji 🎉, CJK 漢字\nand a second line\r\n\ttab";
    const input = newDoc(owner, { name: "Résumé draft", docx, text, createdAt: "2026-11-22T08:00:00.000Z" });

    const created = await store.createDocument(input);
    const expected = {
      id: input.id,
      ownerId: owner,
      name: "Résumé draft",
      createdAt: "2026-11-22T08:00:00.000Z",
      updatedAt: "2026-11-22T08:00:00.000Z",
      sizeBytes: 4096,
      characters: text.length,
      version: 1,
      updatedBy: owner,
      source: "markdown",
      deletedAt: null,
    };
    expect(created).toEqual({ document: expected, replayed: false, fingerprint: "" });
    expect(input.id).toMatch(/^doc_[0-9A-HJKMNP-TV-Z]{26}$/);

    expect(await store.getDocument(owner, input.id)).toEqual(expected);

    const readText = await store.readText(owner, input.id);
    expect(readText).toEqual({ document: expected, text });

    const content = await store.readContent(owner, input.id);
    expect(content?.document).toEqual(expected);
    expect(content?.docx).toBeInstanceOf(Uint8Array);
    expect(content?.docx.byteLength).toBe(4096);
    expect(Buffer.compare(Buffer.from(content!.docx), Buffer.from(docx))).toBe(0);
  });

  it("returns null for unknown ids", async () => {
    const owner = newOwner();
    const id = newId();
    expect(await store.getDocument(owner, id)).toBeNull();
    expect(await store.readText(owner, id)).toBeNull();
    expect(await store.readContent(owner, id)).toBeNull();
  });

  it("isolates owners: someone else's document is invisible", async () => {
    const alice = newOwner();
    const mallory = newOwner();
    const doc = newDoc(alice);
    await store.createDocument(doc);

    expect(await store.getDocument(mallory, doc.id)).toBeNull();
    expect(await store.readText(mallory, doc.id)).toBeNull();
    expect(await store.readContent(mallory, doc.id)).toBeNull();
    expect(await store.getDocuments(mallory, [doc.id])).toEqual([]);
    expect(await allOf(store, mallory)).toEqual([]);
    expect((await allOf(store, alice)).map((d) => d.id)).toEqual([doc.id]);
  });

  it("lists newest first and pages with beforeId over 120 documents without repeats or gaps", async () => {
    const owner = newOwner();
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) {
      const doc = newDoc(owner, { name: `Doc ${i}`, docx: bytes(8) });
      await store.createDocument(doc);
      ids.push(doc.id);
    }
    // Someone else's documents interleaved in id order must not show up.
    await store.createDocument(newDoc(newOwner()));
    const newestFirst = [...ids].reverse();

    const firstPage = await store.listDocuments({ ownerId: owner, limit: 10 });
    expect(firstPage.map((d) => d.id)).toEqual(newestFirst.slice(0, 10));

    const seen: string[] = [];
    let beforeId: string | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const page = await store.listDocuments({ ownerId: owner, limit: 7, ...(beforeId ? { beforeId } : {}) });
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(7);
      seen.push(...page.map((d) => d.id));
      beforeId = page.at(-1)!.id;
    }
    expect(seen).toEqual(newestFirst);
    expect(new Set(seen).size).toBe(120);

    // beforeId is strictly smaller: the cursor document itself is not repeated.
    const after = await store.listDocuments({ ownerId: owner, beforeId: ids[50]!, limit: 3 });
    expect(after.map((d) => d.id)).toEqual([ids[49], ids[48], ids[47]]);
    expect(await store.listDocuments({ ownerId: owner, beforeId: ids[0]!, limit: 5 })).toEqual([]);
  });

  it("filters by a folded substring of the name, unicode included, with no wildcards", async () => {
    const owner = newOwner();
    const unicode = newDoc(owner, { name: 'Ünïcödé "quoted" name' });
    // Same visible name, decomposed (NFD): folding normalises it, so it matches too.
    const decomposed = newDoc(owner, { name: 'Ünïcödé "quoted" name'.normalize("NFD") });
    const percent = newDoc(owner, { name: "50% off" });
    const underscore = newDoc(owner, { name: "snake_case notes" });
    const plain = newDoc(owner, { name: "Plain name" });
    for (const doc of [unicode, decomposed, percent, underscore, plain]) await store.createDocument(doc);

    const search = async (query: string) =>
      (await store.listDocuments({ ownerId: owner, nameContains: foldName(query), limit: 50 })).map((d) => d.id);

    expect(await search('ÜNÏCÖDÉ "QUOTED"')).toEqual([decomposed.id, unicode.id]);
    expect(await search('"quoted" n')).toEqual([decomposed.id, unicode.id]);
    expect(await search("NAME")).toEqual([plain.id, decomposed.id, unicode.id]);
    expect(await search("%")).toEqual([percent.id]);
    expect(await search("_")).toEqual([underscore.id]);
    expect(await search("50%")).toEqual([percent.id]);
    expect(await search("nothing like this")).toEqual([]);
    // The original spelling is returned, not the folded one.
    const found = await store.listDocuments({ ownerId: owner, nameContains: foldName("ünïcödé"), limit: 1 });
    expect(found.map((d) => d.name)).toEqual(['Ünïcödé "quoted" name'.normalize("NFD")]);
    // Paging and filtering combine.
    expect(
      (await store.listDocuments({ ownerId: owner, nameContains: "name", beforeId: decomposed.id, limit: 50 })).map((d) => d.id),
    ).toEqual([unicode.id]);
  });

  it("getDocuments returns only the owner's documents among the ids asked for", async () => {
    const owner = newOwner();
    const other = newOwner();
    const mine = [newDoc(owner), newDoc(owner), newDoc(owner)];
    const theirs = newDoc(other);
    for (const doc of [...mine, theirs]) await store.createDocument(doc);

    const found = await store.getDocuments(owner, [mine[2]!.id, theirs.id, newId(), mine[0]!.id]);
    expect(found.map((d) => d.id).sort()).toEqual([mine[0]!.id, mine[2]!.id].sort());
    expect(found.every((d) => d.ownerId === owner)).toBe(true);
    expect(await store.getDocuments(owner, [])).toEqual([]);
  });

  it("replays the first document when the same idempotency key is used twice", async () => {
    const owner = newOwner();
    const first = newDoc(owner, { name: "First", createdAt: CLAIM_AT });
    const created = await store.createDocument(first, { key: "key-1", fingerprint: "fp-1", notBefore: NOT_BEFORE });
    expect(created.replayed).toBe(false);
    expect(created.fingerprint).toBe("fp-1");

    const second = newDoc(owner, { name: "Second", createdAt: "2026-11-22T09:00:00.000Z" });
    const replayed = await store.createDocument(second, { key: "key-1", fingerprint: "fp-2", notBefore: NOT_BEFORE });
    expect(replayed).toEqual({ document: created.document, replayed: true, fingerprint: "fp-1" });

    expect(await store.findIdempotent(owner, "key-1", NOT_BEFORE)).toEqual({ documentId: first.id, fingerprint: "fp-1" });
    // Only records at or after notBefore count.
    expect(await store.findIdempotent(owner, "key-1", "2026-11-22T08:00:00.001Z")).toBeNull();
    expect(await store.findIdempotent(owner, "key-1", CLAIM_AT)).not.toBeNull();
    // Keys are per owner.
    expect(await store.findIdempotent(newOwner(), "key-1", NOT_BEFORE)).toBeNull();
    expect(await store.getDocument(owner, second.id)).toBeNull();
    expect((await allOf(store, owner)).map((d) => d.id)).toEqual([first.id]);
  });

  it("replaces a stale idempotency record with a new document", async () => {
    const owner = newOwner();
    const old = newDoc(owner, { createdAt: "2026-11-20T08:00:00.000Z" });
    await store.createDocument(old, { key: "key-stale", fingerprint: "fp-old", notBefore: "2026-11-19T08:00:00.000Z" });

    const fresh = newDoc(owner, { createdAt: CLAIM_AT });
    const result = await store.createDocument(fresh, { key: "key-stale", fingerprint: "fp-new", notBefore: NOT_BEFORE });
    expect(result.replayed).toBe(false);
    expect(result.document.id).toBe(fresh.id);
    expect(result.fingerprint).toBe("fp-new");

    expect(await store.findIdempotent(owner, "key-stale", NOT_BEFORE)).toEqual({ documentId: fresh.id, fingerprint: "fp-new" });
    expect((await allOf(store, owner)).map((d) => d.id)).toEqual([fresh.id, old.id]);
  });

  it("creates exactly one document when concurrent requests share an idempotency key", async () => {
    for (let round = 0; round < 5; round++) {
      const owner = newOwner();
      const attempts = Array.from({ length: 5 }, (_, i) => newDoc(owner, { name: `Attempt ${i}`, createdAt: CLAIM_AT }));
      const results = await Promise.all(
        attempts.map((doc, i) => store.createDocument(doc, { key: "same-key", fingerprint: `fp-${i}`, notBefore: NOT_BEFORE })),
      );

      const winners = results.filter((r) => !r.replayed);
      expect(winners).toHaveLength(1);
      const winner = winners[0]!;
      expect(new Set(results.map((r) => r.document.id))).toEqual(new Set([winner.document.id]));
      for (const result of results) {
        expect(result.document).toEqual(winner.document);
        expect(result.fingerprint).toBe(winner.fingerprint);
      }
      expect((await allOf(store, owner)).map((d) => d.id)).toEqual([winner.document.id]);
      expect(await store.findIdempotent(owner, "same-key", NOT_BEFORE)).toEqual({
        documentId: winner.document.id,
        fingerprint: winner.fingerprint,
      });
    }
  });

  it("creates distinct documents concurrently without idempotency keys", async () => {
    const owner = newOwner();
    const docs = Array.from({ length: 8 }, () => newDoc(owner));
    const results = await Promise.all(docs.map((doc) => store.createDocument(doc)));
    expect(results.every((r) => !r.replayed)).toBe(true);
    expect((await allOf(store, owner)).map((d) => d.id)).toEqual(docs.map((d) => d.id).reverse());
  });

  it("prunes idempotency records older than the given instant", async () => {
    // The only records dated in 2000 in this store: nothing else is old enough to be pruned here.
    const owner = newOwner();
    const older = newDoc(owner, { createdAt: "2000-01-01T00:00:00.000Z" });
    const newer = newDoc(owner, { createdAt: "2000-12-01T00:00:00.000Z" });
    await store.createDocument(older, { key: "old", fingerprint: "fp", notBefore: "1999-01-01T00:00:00.000Z" });
    await store.createDocument(newer, { key: "new", fingerprint: "fp", notBefore: "1999-01-01T00:00:00.000Z" });

    expect(await store.pruneIdempotency("2000-06-01T00:00:00.000Z")).toBe(1);
    expect(await store.findIdempotent(owner, "old", "1999-01-01T00:00:00.000Z")).toBeNull();
    expect(await store.findIdempotent(owner, "new", "1999-01-01T00:00:00.000Z")).toEqual({ documentId: newer.id, fingerprint: "fp" });
    expect(await store.pruneIdempotency("2000-06-01T00:00:00.000Z")).toBe(0);
    // Documents are untouched.
    expect(await store.getDocument(owner, older.id)).not.toBeNull();
  });

  it("stores, finds, lists and revokes api keys", async () => {
    const alice = `user_${randomUUID()}`;
    const bob = `user_${randomUUID()}`;
    const key = (overrides: Partial<ApiKeyRecord>): ApiKeyRecord => ({
      id: `key_${ulid()}`,
      userId: alice,
      tenant: null,
      scopes: ["docs:read"],
      hash: randomBytes(32).toString("hex"),
      prefix: "wg_abcd",
      createdAt: "2026-11-22T08:00:00.000Z",
      expiresAt: null,
      revokedAt: null,
      ...overrides,
    });
    const a1 = key({ scopes: ["docs:read", "docs:write"], tenant: "acme", expiresAt: "2027-01-01T00:00:00.000Z" });
    const a2 = key({ scopes: [], createdAt: "2026-11-22T07:00:00.000Z" });
    const b1 = key({ userId: bob });
    for (const k of [a1, a2, b1]) await store.insertApiKey(k);

    expect(await store.findApiKeyByHash(a1.hash)).toEqual(a1);
    expect(await store.findApiKeyByHash(a2.hash)).toEqual(a2);
    expect(await store.findApiKeyByHash(randomBytes(32).toString("hex"))).toBeNull();

    // Ordered by creation time, then id.
    expect(await store.listApiKeys(alice)).toEqual([a2, a1]);
    expect(await store.listApiKeys(bob)).toEqual([b1]);
    expect(await store.listApiKeys(`user_${randomUUID()}`)).toEqual([]);
    const everyone = await store.listApiKeys();
    expect(everyone).toEqual(expect.arrayContaining([a1, a2, b1]));

    // The hash is unique.
    await expect(store.insertApiKey(key({ hash: a1.hash }))).rejects.toThrow();

    expect(await store.revokeApiKey(a1.id, "2026-11-23T00:00:00.000Z")).toBe(true);
    expect((await store.findApiKeyByHash(a1.hash))?.revokedAt).toBe("2026-11-23T00:00:00.000Z");
    // Idempotent: revoking again keeps the first instant.
    expect(await store.revokeApiKey(a1.id, "2026-11-24T00:00:00.000Z")).toBe(true);
    expect((await store.findApiKeyByHash(a1.hash))?.revokedAt).toBe("2026-11-23T00:00:00.000Z");
    expect(await store.revokeApiKey(`key_${ulid()}`, "2026-11-23T00:00:00.000Z")).toBe(false);
    expect((await store.findApiKeyByHash(a2.hash))?.revokedAt).toBeNull();
  });

  it("runs migrations again on reopen, keeping the data", async () => {
    const owner = newOwner();
    const doc = newDoc(owner);
    await store.createDocument(doc);

    // Reopen while the first store is still open (another replica) and again after closing it.
    const second = await location.open();
    try {
      expect(await second.getDocument(owner, doc.id)).toEqual((await store.getDocument(owner, doc.id))!);
    } finally {
      await second.close();
    }
    const third = await location.open();
    try {
      await expect(third.ping()).resolves.toBeUndefined();
      expect((await allOf(third, owner)).map((d) => d.id)).toEqual([doc.id]);
    } finally {
      await third.close();
    }
  });

  it("migrates safely when several instances open an empty location at once", async () => {
    const fresh = await backend.createLocation();
    extraLocations.push(fresh);
    const stores = await Promise.all([fresh.open(), fresh.open(), fresh.open()]);
    try {
      const owner = newOwner();
      const doc = newDoc(owner);
      await stores[0]!.createDocument(doc);
      for (const s of stores) expect(await s.getDocument(owner, doc.id)).not.toBeNull();
    } finally {
      for (const s of stores) await s.close();
    }
  });

  it("close releases the store; closing twice is harmless; use after close fails", async () => {
    const other = await location.open();
    await other.ping();
    await other.close();
    await expect(other.close()).resolves.toBeUndefined();
    await expect(other.ping()).rejects.toThrow();
    // The shared store is unaffected.
    await expect(store.ping()).resolves.toBeUndefined();
  });
});

describe("postgres store errors", () => {
  it("rejects when the database cannot be reached, instead of hanging or swallowing it", async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused straight away.
    await expect(openPostgresStore("postgres://postgres@127.0.0.1:1/test")).rejects.toThrow();
  });
});
