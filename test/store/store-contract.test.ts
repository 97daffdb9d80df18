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
import { openPostgresStore } from "../../src/store/postgres.ts";
import Database from "better-sqlite3";
import { openSqliteStore, sqliteFile } from "../../src/store/sqlite.ts";
import { foldName, type ApiKeyRecord, type DocumentRecord, type NewDocument, type NewShare, type Store } from "../../src/store/types.ts";

const PG_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

/** One place a store lives (a directory, a schema); it can be opened any number of times. */
interface Location {
  open(): Promise<Store>;
  destroy(): Promise<void>;
  /** Rows of `table` whose document_id is `documentId`, counted behind the store's back. */
  countRows(table: "document_versions" | "document_shares" | "idempotency", documentId: string): Promise<number>;
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
      async countRows(table, documentId) {
        const db = new Database(sqliteFile(dir), { readonly: true });
        try {
          return (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE document_id = ?`).get(documentId) as { n: number }).n;
        } finally {
          db.close();
        }
      },
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
      async countRows(table, documentId) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE document_id = $1`, [
            documentId,
          ]);
          return rows[0]!.n;
        } finally {
          await client.end();
        }
      },
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

  const countRows: Location["countRows"] = (table, documentId) => location.countRows(table, documentId);

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

  describe("living documents", () => {
    const at = (minute: number): string => new Date(Date.UTC(2026, 10, 23, 8, minute)).toISOString();
    const content = (text: string, markdown: string | null = `# ${text}`) => ({ docx: bytes(32 + text.length), text, markdown });
    const sameBytes = (a: Uint8Array | undefined, b: Uint8Array) => expect(Buffer.compare(Buffer.from(a!), Buffer.from(b))).toBe(0);

    it("changeDocument replaces content as the next version and keeps the previous one", async () => {
      const owner = newOwner();
      const doc = newDoc(owner, { markdown: "# v1" });
      await store.createDocument(doc);
      const next = content("second text", "# second");

      const result = await store.changeDocument({
        ownerId: owner,
        id: doc.id,
        actorId: "bob",
        at: at(1),
        content: next,
        source: "markdown",
      });
      expect(result.ok).toBe(true);
      const record = (result as { document: DocumentRecord }).document;
      expect(record).toEqual({
        id: doc.id,
        ownerId: owner,
        name: doc.name,
        createdAt: doc.createdAt,
        updatedAt: at(1),
        sizeBytes: next.docx.byteLength,
        characters: next.text.length,
        version: 2,
        updatedBy: "bob",
        source: "markdown",
        deletedAt: null,
      });
      expect(await store.getDocument(owner, doc.id)).toEqual(record);
      expect(await store.readText(owner, doc.id)).toEqual({ document: record, text: "second text" });
      expect((await store.readText(owner, doc.id, "markdown"))?.text).toBe("# second");
      sameBytes((await store.readContent(owner, doc.id))?.docx, next.docx);

      // Version 1 is kept exactly as it was.
      const v1 = await store.readVersionText(owner, doc.id, 1);
      expect(v1?.version).toEqual({
        version: 1,
        name: doc.name,
        createdAt: doc.createdAt,
        createdBy: owner,
        sizeBytes: doc.docx.byteLength,
        characters: doc.text.length,
        source: "markdown",
      });
      expect(v1?.text).toBe(doc.text);
      expect(v1?.document).toEqual(record);
      expect((await store.readVersionText(owner, doc.id, 1, "markdown"))?.text).toBe("# v1");
      sameBytes((await store.readVersionContent(owner, doc.id, 1))?.docx, doc.docx);
      const data = await store.readVersionData(owner, doc.id, 1);
      expect({ text: data?.text, markdown: data?.markdown }).toEqual({ text: doc.text, markdown: "# v1" });
      sameBytes(data?.docx, doc.docx);
    });

    it("a rename is a new version with the same content; content and name can change together", async () => {
      const owner = newOwner();
      const doc = newDoc(owner, { name: "Old name" });
      await store.createDocument(doc);
      const renamed = await store.changeDocument({
        ownerId: owner,
        id: doc.id,
        actorId: owner,
        at: at(2),
        name: "New name",
        source: "rename",
      });
      expect(renamed).toMatchObject({
        ok: true,
        document: { name: "New name", version: 2, source: "rename", sizeBytes: 64, updatedAt: at(2) },
      });
      sameBytes((await store.readContent(owner, doc.id))?.docx, doc.docx);
      expect((await store.readText(owner, doc.id))?.text).toBe(doc.text);
      // Name search follows the new name.
      expect((await store.listDocuments({ ownerId: owner, nameContains: "new name", limit: 5 })).map((d) => d.id)).toEqual([doc.id]);
      expect(await store.listDocuments({ ownerId: owner, nameContains: "old name", limit: 5 })).toEqual([]);

      const both = await store.changeDocument({
        ownerId: owner,
        id: doc.id,
        actorId: owner,
        at: at(3),
        name: "Third",
        content: content("third"),
        source: "docx",
        expectedVersion: 2,
      });
      expect(both).toMatchObject({ ok: true, document: { name: "Third", version: 3, source: "docx", characters: 5 } });
      const versions = await store.listVersions({ ownerId: owner, id: doc.id, limit: 10 });
      expect(versions?.map((v) => [v.version, v.name, v.source])).toEqual([
        [3, "Third", "docx"],
        [2, "New name", "rename"],
        [1, "Old name", "markdown"],
      ]);
      expect(versions?.map((v) => v.createdAt)).toEqual([at(3), at(2), doc.createdAt]);
    });

    it("a stale expectedVersion is a conflict and writes nothing; an unknown or someone else's id is not_found", async () => {
      const owner = newOwner();
      const doc = newDoc(owner);
      await store.createDocument(doc);
      await store.changeDocument({ ownerId: owner, id: doc.id, actorId: owner, at: at(1), content: content("two"), source: "markdown" });
      const before = await store.getDocument(owner, doc.id);

      const stale = await store.changeDocument({
        ownerId: owner,
        id: doc.id,
        actorId: owner,
        at: at(2),
        expectedVersion: 1,
        name: "Nope",
        content: content("three"),
        source: "markdown",
      });
      expect(stale).toEqual({ ok: false, reason: "conflict", current: 2 });
      expect(await store.getDocument(owner, doc.id)).toEqual(before);
      expect((await store.readText(owner, doc.id))?.text).toBe("two");
      expect((await store.listVersions({ ownerId: owner, id: doc.id, limit: 10 }))?.map((v) => v.version)).toEqual([2, 1]);
      expect(await store.trashDocument({ ownerId: owner, id: doc.id, at: at(3), expectedVersion: 3 })).toEqual({
        ok: false,
        reason: "conflict",
        current: 2,
      });
      expect(await store.getDocument(owner, doc.id)).toEqual(before);

      expect(
        await store.changeDocument({ ownerId: newOwner(), id: doc.id, actorId: "x", at: at(4), name: "Stolen", source: "rename" }),
      ).toEqual({
        ok: false,
        reason: "not_found",
      });
      expect(
        await store.changeDocument({ ownerId: owner, id: newId(), actorId: owner, at: at(4), name: "Ghost", source: "rename" }),
      ).toEqual({
        ok: false,
        reason: "not_found",
      });
      expect(await store.getDocument(owner, doc.id)).toEqual(before);
    });

    it("concurrent changes with the same expectedVersion: exactly one wins", async () => {
      for (let round = 0; round < 5; round++) {
        const owner = newOwner();
        const doc = newDoc(owner);
        await store.createDocument(doc);
        const attempts = Array.from({ length: 6 }, (_, i) =>
          store.changeDocument({
            ownerId: owner,
            id: doc.id,
            actorId: `writer-${i}`,
            at: at(10 + i),
            expectedVersion: 1,
            content: content(`attempt ${i}`),
            source: "markdown",
          }),
        );
        const results = await Promise.all(attempts);
        const winners = results.flatMap((r, i) => (r.ok ? [i] : []));
        expect(winners).toHaveLength(1);
        for (const r of results) if (!r.ok) expect(r).toEqual({ ok: false, reason: "conflict", current: 2 });
        const current = await store.getDocument(owner, doc.id);
        expect(current).toMatchObject({ version: 2, updatedBy: `writer-${winners[0]}` });
        expect((await store.readText(owner, doc.id))?.text).toBe(`attempt ${winners[0]}`);
        expect((await store.listVersions({ ownerId: owner, id: doc.id, limit: 10 }))?.map((v) => v.version)).toEqual([2, 1]);
      }
    });

    it("concurrent changes without expectedVersion all land, each as its own version", async () => {
      const owner = newOwner();
      const doc = newDoc(owner);
      await store.createDocument(doc);
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          store.changeDocument({
            ownerId: owner,
            id: doc.id,
            actorId: owner,
            at: at(20 + i),
            content: content(`c${i}`),
            source: "markdown",
          }),
        ),
      );
      expect(results.every((r) => r.ok)).toBe(true);
      expect(results.map((r) => (r.ok ? r.document.version : 0)).sort()).toEqual([2, 3, 4, 5, 6]);
      expect((await store.listVersions({ ownerId: owner, id: doc.id, limit: 10 }))?.map((v) => v.version)).toEqual([6, 5, 4, 3, 2, 1]);
    });

    it("listVersions pages newest first, the current version included, with beforeVersion", async () => {
      const owner = newOwner();
      const doc = newDoc(owner);
      await store.createDocument(doc);
      for (let i = 2; i <= 7; i++) {
        await store.changeDocument({
          ownerId: owner,
          id: doc.id,
          actorId: owner,
          at: at(i),
          content: content(`v${i}`),
          source: "markdown",
        });
      }
      const all = (await store.listVersions({ ownerId: owner, id: doc.id, limit: 100 }))!;
      expect(all.map((v) => v.version)).toEqual([7, 6, 5, 4, 3, 2, 1]);
      expect(all[0]).toEqual({
        version: 7,
        name: doc.name,
        createdAt: at(7),
        createdBy: owner,
        sizeBytes: 34,
        characters: 2,
        source: "markdown",
      });

      const seen: number[] = [];
      let beforeVersion: number | undefined;
      for (let pages = 0; pages < 10; pages++) {
        const page = (await store.listVersions({ ownerId: owner, id: doc.id, limit: 3, ...(beforeVersion ? { beforeVersion } : {}) }))!;
        if (page.length === 0) break;
        expect(page.length).toBeLessThanOrEqual(3);
        seen.push(...page.map((v) => v.version));
        beforeVersion = page.at(-1)!.version;
      }
      expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1]);
      expect((await store.listVersions({ ownerId: owner, id: doc.id, limit: 1 }))?.map((v) => v.version)).toEqual([7]);
      expect((await store.listVersions({ ownerId: owner, id: doc.id, beforeVersion: 7, limit: 2 }))?.map((v) => v.version)).toEqual([6, 5]);
      expect(await store.listVersions({ ownerId: owner, id: doc.id, beforeVersion: 1, limit: 2 })).toEqual([]);
      // Any bound past the last version is all of them, however large (a made-up cursor is no error).
      for (const beforeVersion of [8, 2_147_483_648, Number.MAX_SAFE_INTEGER]) {
        expect((await store.listVersions({ ownerId: owner, id: doc.id, beforeVersion, limit: 2 }))?.map((v) => v.version)).toEqual([7, 6]);
      }

      // Not live, not there, or someone else's: null.
      expect(await store.listVersions({ ownerId: newOwner(), id: doc.id, limit: 10 })).toBeNull();
      expect(await store.listVersions({ ownerId: owner, id: newId(), limit: 10 })).toBeNull();
    });

    it("reads versions current and old; versions out of range, someone else's or of a trashed document are null", async () => {
      const owner = newOwner();
      const doc = newDoc(owner, { markdown: null, text: "one" });
      await store.createDocument(doc);
      const two = content("two", "# two");
      await store.changeDocument({ ownerId: owner, id: doc.id, actorId: owner, at: at(1), content: two, source: "markdown" });

      const current = await store.readVersionText(owner, doc.id, 2);
      expect(current?.text).toBe("two");
      expect(current?.version).toMatchObject({ version: 2, createdAt: at(1), source: "markdown" });
      expect((await store.readVersionText(owner, doc.id, 2, "markdown"))?.text).toBe("# two");
      sameBytes((await store.readVersionContent(owner, doc.id, 2))?.docx, two.docx);
      const currentData = await store.readVersionData(owner, doc.id, 2);
      expect(currentData?.text).toBe("two");
      sameBytes(currentData?.docx, two.docx);
      // Version 1 had no markdown stored: null, to be derived from its .docx.
      expect((await store.readVersionText(owner, doc.id, 1, "markdown"))?.text).toBeNull();
      expect((await store.readVersionData(owner, doc.id, 1))?.markdown).toBeNull();

      for (const n of [0, 3, 99, -1]) {
        expect(await store.readVersionText(owner, doc.id, n)).toBeNull();
        expect(await store.readVersionContent(owner, doc.id, n)).toBeNull();
        expect(await store.readVersionData(owner, doc.id, n)).toBeNull();
      }
      const mallory = newOwner();
      expect(await store.readVersionText(mallory, doc.id, 1)).toBeNull();
      expect(await store.readVersionContent(mallory, doc.id, 2)).toBeNull();
      expect(await store.readVersionData(mallory, doc.id, 1)).toBeNull();

      await store.trashDocument({ ownerId: owner, id: doc.id, at: at(2) });
      expect(await store.readVersionText(owner, doc.id, 1)).toBeNull();
      expect(await store.readVersionContent(owner, doc.id, 2)).toBeNull();
      expect(await store.readVersionData(owner, doc.id, 1)).toBeNull();
      expect(await store.listVersions({ ownerId: owner, id: doc.id, limit: 10 })).toBeNull();
    });

    it("trash hides a document from every read, restore brings it back, purge deletes it with its versions, shares and idempotency records", async () => {
      const owner = newOwner();
      const doc = newDoc(owner, { createdAt: CLAIM_AT });
      await store.createDocument(doc, { key: "trash-key", fingerprint: "fp", notBefore: NOT_BEFORE });
      await store.changeDocument({ ownerId: owner, id: doc.id, actorId: owner, at: at(1), content: content("v2"), source: "markdown" });
      const share = {
        id: `shr_${ulid()}`,
        documentId: doc.id,
        ownerId: owner,
        createdAt: at(1),
        expiresAt: "2099-01-01T00:00:00.000Z",
        tokenHash: randomBytes(32).toString("hex"),
      };
      await store.insertShare(share);
      const live = (await store.getDocument(owner, doc.id))!;

      const trashed = await store.trashDocument({ ownerId: owner, id: doc.id, at: at(5), expectedVersion: 2 });
      expect(trashed).toEqual({ ok: true, document: { ...live, deletedAt: at(5) } });
      expect(await store.getDocument(owner, doc.id)).toBeNull();
      expect(await store.getDocument(owner, doc.id, { includeDeleted: true })).toEqual({ ...live, deletedAt: at(5) });
      expect(await store.getDocuments(owner, [doc.id])).toEqual([]);
      expect(await store.readText(owner, doc.id)).toBeNull();
      expect(await store.readContent(owner, doc.id)).toBeNull();
      expect(await allOf(store, owner)).toEqual([]);
      expect(await store.findShare(share.tokenHash, at(6))).toBeNull();
      // Trashing twice, or changing it, finds nothing live.
      expect(await store.trashDocument({ ownerId: owner, id: doc.id, at: at(6) })).toEqual({ ok: false, reason: "not_found" });
      expect(await store.changeDocument({ ownerId: owner, id: doc.id, actorId: owner, at: at(6), name: "x", source: "rename" })).toEqual({
        ok: false,
        reason: "not_found",
      });
      expect(await store.listTrash({ ownerId: owner, limit: 10 })).toEqual([{ ...live, deletedAt: at(5) }]);
      expect(await store.listTrash({ ownerId: newOwner(), limit: 10 })).toEqual([]);
      // Someone else cannot restore or purge it; a live document cannot be restored or purged.
      expect(await store.restoreFromTrash(newOwner(), doc.id)).toBeNull();
      expect(await store.purgeDocument(newOwner(), doc.id)).toBe(false);

      expect(await store.restoreFromTrash(owner, doc.id)).toEqual(live);
      expect(await store.getDocument(owner, doc.id)).toEqual(live);
      expect((await store.listVersions({ ownerId: owner, id: doc.id, limit: 10 }))?.map((v) => v.version)).toEqual([2, 1]);
      expect((await store.findShare(share.tokenHash, at(6)))?.share.id).toBe(share.id);
      expect(await store.listTrash({ ownerId: owner, limit: 10 })).toEqual([]);
      expect(await store.restoreFromTrash(owner, doc.id)).toBeNull();
      expect(await store.purgeDocument(owner, doc.id)).toBe(false);

      await store.trashDocument({ ownerId: owner, id: doc.id, at: at(7) });
      expect(await store.purgeDocument(owner, doc.id)).toBe(true);
      expect(await store.purgeDocument(owner, doc.id)).toBe(false);
      expect(await store.getDocument(owner, doc.id, { includeDeleted: true })).toBeNull();
      expect(await store.listTrash({ ownerId: owner, limit: 10 })).toEqual([]);
      expect(await store.restoreFromTrash(owner, doc.id)).toBeNull();
      expect(await store.findIdempotent(owner, "trash-key", NOT_BEFORE)).toBeNull();
      expect(await store.findShare(share.tokenHash, at(8))).toBeNull();
      expect(await store.listShares(owner, doc.id, at(8))).toEqual([]);
      // Its versions are gone too: a new document cannot see them, and nothing is left to count.
      expect(await countRows("document_versions", doc.id)).toBe(0);
      expect(await countRows("document_shares", doc.id)).toBe(0);
      expect(await countRows("idempotency", doc.id)).toBe(0);
    });

    it("listTrash pages newest first and filters by name", async () => {
      const owner = newOwner();
      const docs = Array.from({ length: 5 }, (_, i) => newDoc(owner, { name: i % 2 ? `odd ${i}` : `even ${i}` }));
      for (const doc of docs) await store.createDocument(doc);
      for (const doc of docs) await store.trashDocument({ ownerId: owner, id: doc.id, at: at(1) });
      const ids = docs.map((d) => d.id).reverse();
      expect((await store.listTrash({ ownerId: owner, limit: 2 })).map((d) => d.id)).toEqual(ids.slice(0, 2));
      expect((await store.listTrash({ ownerId: owner, limit: 10, beforeId: ids[1]! })).map((d) => d.id)).toEqual(ids.slice(2));
      expect((await store.listTrash({ ownerId: owner, limit: 10, nameContains: "odd" })).map((d) => d.id)).toEqual([
        docs[3]!.id,
        docs[1]!.id,
      ]);
      expect((await store.listTrash({ ownerId: owner, limit: 10 })).every((d) => d.deletedAt === at(1))).toBe(true);
      // A needle no name can hold (names have no control characters; PostgreSQL text has no NUL) matches nothing.
      expect(await store.listTrash({ ownerId: owner, limit: 10, nameContains: "odd\u0000" })).toEqual([]);
      expect(await store.listDocuments({ ownerId: owner, limit: 10, nameContains: "\u0000" })).toEqual([]);
    });

    it("shares: insert, list (valid ones, newest first), find by hash (expired or trashed → null), delete, prune", async () => {
      const owner = newOwner();
      const doc = newDoc(owner);
      const other = newDoc(owner);
      await store.createDocument(doc);
      await store.createDocument(other);
      const share = (overrides: Partial<NewShare>): NewShare => ({
        id: `shr_${ulid()}`,
        documentId: doc.id,
        ownerId: owner,
        createdAt: at(1),
        expiresAt: at(30),
        tokenHash: randomBytes(32).toString("hex"),
        ...overrides,
      });
      const s1 = share({ createdAt: at(1) });
      const s2 = share({ createdAt: at(2), expiresAt: at(40) });
      const expired = share({ createdAt: at(0), expiresAt: at(3) });
      const onOther = share({ documentId: other.id });
      for (const s of [s1, s2, expired, onOther]) await store.insertShare(s);
      const { tokenHash: _hash, ...publicS1 } = s1;
      const { tokenHash: _hash2, ...publicS2 } = s2;

      expect(await store.listShares(owner, doc.id, at(10))).toEqual([publicS2, publicS1]);
      expect(await store.listShares(owner, doc.id, at(35))).toEqual([publicS2]);
      expect(await store.listShares(newOwner(), doc.id, at(10))).toEqual([]);

      const found = await store.findShare(s1.tokenHash, at(10));
      expect(found?.share).toEqual(publicS1);
      expect(found?.document).toEqual(await store.getDocument(owner, doc.id));
      expect(await store.findShare(s1.tokenHash, at(30))).toBeNull(); // expiresAt is exclusive
      expect(await store.findShare(expired.tokenHash, at(10))).toBeNull();
      expect(await store.findShare(randomBytes(32).toString("hex"), at(10))).toBeNull();
      // The token hash is unique.
      await expect(store.insertShare(share({ tokenHash: s1.tokenHash }))).rejects.toThrow();

      // A trashed document's links find nothing, and work again once it is restored.
      await store.trashDocument({ ownerId: owner, id: other.id, at: at(5) });
      expect(await store.findShare(onOther.tokenHash, at(10))).toBeNull();
      await store.restoreFromTrash(owner, other.id);
      expect((await store.findShare(onOther.tokenHash, at(10)))?.document.id).toBe(other.id);

      // Delete: only the owner's, on that document.
      expect(await store.deleteShare(newOwner(), doc.id, s1.id)).toBe(false);
      expect(await store.deleteShare(owner, other.id, s1.id)).toBe(false);
      expect(await store.deleteShare(owner, doc.id, s1.id)).toBe(true);
      expect(await store.deleteShare(owner, doc.id, s1.id)).toBe(false);
      expect(await store.findShare(s1.tokenHash, at(10))).toBeNull();

      // Prune drops shares expired before the instant (here only `expired`, which ended at minute 3).
      expect(await store.pruneShares(at(4))).toBeGreaterThanOrEqual(1);
      expect(await countRows("document_shares", doc.id)).toBe(1);
      expect(await store.listShares(owner, doc.id, at(10))).toEqual([publicS2]);
    });

    it("pruneVersions keeps each document's keepMin newest (the current one counts) and anything replaced after the cutoff", async () => {
      const owner = newOwner();
      // Replaced in 1990 (old) then in 2090 (recent): the cutoff is 2000.
      const old = (i: number) => new Date(Date.UTC(1990, 0, 1, 0, i)).toISOString();
      const recent = (i: number) => new Date(Date.UTC(2090, 0, 1, 0, i)).toISOString();
      const doc = newDoc(owner);
      await store.createDocument(doc);
      // Versions 1..6 replaced long ago (by changes making versions 2..7), 7..8 replaced recently; current is 9.
      for (let i = 1; i <= 8; i++) {
        await store.changeDocument({
          ownerId: owner,
          id: doc.id,
          actorId: owner,
          at: i <= 6 ? old(i) : recent(i),
          content: content(`v${i + 1}`),
          source: "markdown",
        });
      }
      const small = newDoc(owner);
      await store.createDocument(small);
      await store.changeDocument({ ownerId: owner, id: small.id, actorId: owner, at: old(1), content: content("s2"), source: "markdown" });

      // keepMin 4: versions 9 (current), 8, 7, 6 are kept; 7 and 8 also because they are recent. 1..5 go.
      const cutoff = "2000-01-01T00:00:00.000Z";
      expect(await store.pruneVersions(cutoff, 4)).toBe(5);
      expect((await store.listVersions({ ownerId: owner, id: doc.id, limit: 20 }))?.map((v) => v.version)).toEqual([9, 8, 7, 6]);
      expect(await store.readVersionText(owner, doc.id, 5)).toBeNull();
      expect((await store.readVersionText(owner, doc.id, 6))?.text).toBe("v6");
      // The small document has 2 versions: under keepMin, untouched.
      expect((await store.listVersions({ ownerId: owner, id: small.id, limit: 20 }))?.map((v) => v.version)).toEqual([2, 1]);

      // keepMin 1: only the current version must stay, but 7 and 8 were replaced after the cutoff.
      expect(await store.pruneVersions(cutoff, 1)).toBe(2);
      expect((await store.listVersions({ ownerId: owner, id: doc.id, limit: 20 }))?.map((v) => v.version)).toEqual([9, 8, 7]);
      expect((await store.listVersions({ ownerId: owner, id: small.id, limit: 20 }))?.map((v) => v.version)).toEqual([2]);
      expect(await store.pruneVersions(cutoff, 1)).toBe(0);
    });

    it("purgeTrash purges documents trashed before the instant, with their versions and shares", async () => {
      const owner = newOwner();
      const longAgo = newDoc(owner);
      const lately = newDoc(owner);
      const live = newDoc(owner);
      for (const d of [longAgo, lately, live]) await store.createDocument(d);
      await store.changeDocument({ ownerId: owner, id: longAgo.id, actorId: owner, at: at(1), name: "renamed", source: "rename" });
      await store.insertShare({
        id: `shr_${ulid()}`,
        documentId: longAgo.id,
        ownerId: owner,
        createdAt: at(1),
        expiresAt: "2099-01-01T00:00:00.000Z",
        tokenHash: randomBytes(32).toString("hex"),
      });
      await store.trashDocument({ ownerId: owner, id: longAgo.id, at: "1991-01-01T00:00:00.000Z" });
      await store.trashDocument({ ownerId: owner, id: lately.id, at: "2091-01-01T00:00:00.000Z" });

      // The only documents trashed before 1992 in this store are this test's.
      expect(await store.purgeTrash("1992-01-01T00:00:00.000Z")).toBe(1);
      expect(await store.getDocument(owner, longAgo.id, { includeDeleted: true })).toBeNull();
      expect(await countRows("document_versions", longAgo.id)).toBe(0);
      expect(await countRows("document_shares", longAgo.id)).toBe(0);
      expect((await store.listTrash({ ownerId: owner, limit: 10 })).map((d) => d.id)).toEqual([lately.id]);
      expect(await store.getDocument(owner, live.id)).not.toBeNull();
      expect(await store.purgeTrash("1992-01-01T00:00:00.000Z")).toBe(0);
    });
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
