// A database made by the release before living documents (schema version 1 only), opened by the
// current store: migration 2 upgrades it in place, every document reads back byte for byte as
// version 1 with no stored markdown, and the new operations work on the old rows. SQLite (a
// DATA_DIR of its own, also served by a gateway) and PostgreSQL (a schema of its own).
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { monotonicFactory } from "ulid";
import { afterAll, describe, expect, it } from "vitest";
import { renderDocument } from "../../src/documents/render/index.ts";
import { openPostgresStore } from "../../src/store/postgres.ts";
import { postgresMigrations } from "../../src/store/postgres/migrations.ts";
import { openSqliteStore, sqliteFile } from "../../src/store/sqlite.ts";
import { sqliteMigrations } from "../../src/store/sqlite/migrations.ts";
import { foldName, type Store } from "../../src/store/types.ts";
import { startTestGateway } from "../helpers/gateway.ts";
import { usePostgresSchema } from "../helpers/postgres.ts";

/**
 * PostgreSQL's migration 1 exactly as the previous release shipped it (src/store/postgres/migrations.ts
 * keeps it as postgresMigrations[0], and a released migration never changes).
 */
const postgresMigration1 = `CREATE TABLE documents (
     id text COLLATE "C" PRIMARY KEY,
     owner_id text COLLATE "C" NOT NULL,
     name text NOT NULL,
     name_folded text NOT NULL,
     created_at text COLLATE "C" NOT NULL,
     updated_at text COLLATE "C" NOT NULL,
     size_bytes integer NOT NULL,
     characters integer NOT NULL,
     docx bytea NOT NULL,
     text text NOT NULL
   );
   CREATE INDEX documents_owner_id ON documents (owner_id, id DESC);
   CREATE TABLE api_keys (
     id text COLLATE "C" PRIMARY KEY,
     user_id text COLLATE "C" NOT NULL,
     tenant text,
     scopes text[] NOT NULL,
     hash text COLLATE "C" NOT NULL UNIQUE,
     prefix text NOT NULL,
     created_at text COLLATE "C" NOT NULL,
     expires_at text COLLATE "C",
     revoked_at text COLLATE "C"
   );
   CREATE INDEX api_keys_user ON api_keys (user_id);
   CREATE TABLE idempotency (
     owner_id text COLLATE "C" NOT NULL,
     key text COLLATE "C" NOT NULL,
     fingerprint text NOT NULL,
     document_id text COLLATE "C" NOT NULL,
     created_at text COLLATE "C" NOT NULL,
     PRIMARY KEY (owner_id, key)
   );
   CREATE INDEX idempotency_created_at ON idempotency (created_at);`;

const ulid = monotonicFactory();

interface OldDocument {
  id: string;
  owner: string;
  name: string;
  createdAt: string;
  docx: Uint8Array;
  text: string;
}

/** Documents as the old release wrote them: random .docx bytes (any byte value) and unicode text. */
function oldDocuments(): OldDocument[] {
  // The second owner has a tenant: the store keys its documents by user U+001F tenant.
  const owners = [`user_${randomUUID()}`, `user_${randomUUID()}\u001facme`];
  return Array.from({ length: 12 }, (_, i) => ({
    id: `doc_${ulid()}`,
    owner: owners[i % 2]!,
    name: i === 3 ? "Ünïcödé — 漢字 🎉" : `Old document ${i}`,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    docx: new Uint8Array(randomBytes(i === 5 ? 0 : 1 + i * 997)),
    text: i === 7 ? "" : `Text ${i}\n\nZeilen mit Ümlauten, 🎉\r\n\ttab ${"x".repeat(i * 50)}`,
  }));
}

const same = (a: Uint8Array | undefined, b: Uint8Array) => expect(Buffer.compare(Buffer.from(a!), Buffer.from(b))).toBe(0);

/** What every store must show after the upgrade, and the new operations on the old rows. */
async function checkUpgraded(store: Store, documents: OldDocument[]): Promise<void> {
  for (const doc of documents) {
    // The author is the user: the owner key written as version 1's author is cut at U+001F.
    const user = doc.owner.split("\u001f")[0]!;
    const expected = {
      id: doc.id,
      ownerId: doc.owner,
      name: doc.name,
      createdAt: doc.createdAt,
      updatedAt: doc.createdAt,
      sizeBytes: doc.docx.byteLength,
      characters: doc.text.length,
      version: 1,
      updatedBy: user,
      source: "markdown",
      deletedAt: null,
    };
    expect(await store.documents.get(doc.owner, doc.id)).toEqual(expected);
    expect(await store.documents.readText(doc.owner, doc.id)).toEqual({ document: expected, text: doc.text, totalChars: doc.text.length });
    expect((await store.documents.readText(doc.owner, doc.id, "markdown"))?.text).toBeNull();
    const content = await store.documents.readContent(doc.owner, doc.id);
    expect(content?.docx.byteLength).toBe(doc.docx.byteLength);
    same(content?.docx, doc.docx);
    expect(await store.documents.listVersions({ ownerId: doc.owner, id: doc.id, limit: 10 })).toEqual([
      {
        version: 1,
        name: doc.name,
        createdAt: doc.createdAt,
        createdBy: user,
        sizeBytes: doc.docx.byteLength,
        characters: doc.text.length,
        source: "markdown",
      },
    ]);
    same((await store.documents.readVersionContent(doc.owner, doc.id, 1))?.docx, doc.docx);
    expect(await store.listShares(doc.owner, doc.id, new Date().toISOString())).toEqual([]);
  }
  for (const owner of new Set(documents.map((d) => d.owner))) {
    const listed = await store.documents.list({ ownerId: owner, limit: 100 });
    expect(listed.map((d) => d.id)).toEqual(
      documents
        .filter((d) => d.owner === owner)
        .map((d) => d.id)
        .reverse(),
    );
    expect(await store.documents.listTrash({ ownerId: owner, limit: 100 })).toEqual([]);
  }
  // The old idempotency record still replays, and the old API key still authenticates.
  const first = documents[0]!;
  expect(await store.findIdempotent(first.owner, "old-key", "2025-12-31T00:00:00.000Z")).toEqual({
    targetId: first.id,
    response: null,
    fingerprint: "old-fp",
  });
  expect((await store.findApiKeyByHash("a".repeat(64)))?.scopes).toEqual(["docs:read", "docs:write"]);

  // New operations on old rows: change (version 1 kept byte for byte), rename, trash, share, purge, create.
  const [a, b, c] = documents;
  const newDocx = new Uint8Array(randomBytes(300));
  const changed = await store.documents.change({
    ownerId: a!.owner,
    id: a!.id,
    actorId: a!.owner,
    at: "2026-11-23T08:00:00.000Z",
    expectedVersion: 1,
    content: { docx: newDocx, text: "new text", markdown: "new text" },
    source: "markdown",
  });
  expect(changed).toMatchObject({ ok: true, record: { version: 2, sizeBytes: 300, characters: 8 } });
  same((await store.documents.readVersionContent(a!.owner, a!.id, 1))?.docx, a!.docx);
  expect((await store.documents.readVersionText(a!.owner, a!.id, 1))?.text).toBe(a!.text);
  expect((await store.documents.readVersionData(a!.owner, a!.id, 1))?.markdown).toBeNull();
  expect((await store.documents.readText(a!.owner, a!.id, "markdown"))?.text).toBe("new text");
  expect(
    await store.documents.change({
      ownerId: a!.owner,
      id: a!.id,
      actorId: a!.owner,
      at: "2026-11-23T08:01:00.000Z",
      expectedVersion: 1,
      name: "x",
      source: "rename",
    }),
  ).toEqual({ ok: false, reason: "conflict", current: 2 });

  expect(
    await store.documents.change({
      ownerId: b!.owner,
      id: b!.id,
      actorId: b!.owner,
      at: "2026-11-23T08:02:00.000Z",
      name: "Renamed",
      source: "rename",
    }),
  ).toMatchObject({
    ok: true,
    record: { name: "Renamed", version: 2 },
  });
  expect((await store.documents.list({ ownerId: b!.owner, nameContains: foldName("RENAMED"), limit: 5 })).map((d) => d.id)).toEqual([
    b!.id,
  ]);

  const tokenHash = randomBytes(32).toString("hex");
  await store.insertShare({
    id: `shr_${ulid()}`,
    kind: "document",
    targetId: c!.id,
    ownerId: c!.owner,
    createdAt: "2026-11-23T08:00:00.000Z",
    expiresAt: "2099-01-01T00:00:00.000Z",
    tokenHash,
  });
  expect((await store.findShare(tokenHash, "2026-11-23T09:00:00.000Z"))?.target.record.id).toBe(c!.id);
  expect(await store.documents.trash({ ownerId: c!.owner, id: c!.id, at: "2026-11-23T08:03:00.000Z", expectedVersion: 1 })).toMatchObject({
    ok: true,
  });
  expect((await store.documents.listTrash({ ownerId: c!.owner, limit: 10 })).map((d) => d.id)).toEqual([c!.id]);
  expect(await store.findShare(tokenHash, "2026-11-23T09:00:00.000Z")).toBeNull();
  expect(await store.documents.purge(c!.owner, c!.id)).toBe(true);
  expect(await store.documents.get(c!.owner, c!.id, { includeDeleted: true })).toBeNull();

  const created = await store.documents.create({
    id: `doc_${ulid()}`,
    ownerId: a!.owner,
    createdBy: a!.owner,
    name: "After the upgrade",
    createdAt: "2026-11-23T09:00:00.000Z",
    docx: new Uint8Array([1, 2, 3]),
    text: "t",
    markdown: "t",
  });
  expect(created.record).toMatchObject({ version: 1, source: "markdown", deletedAt: null });
  expect((await store.documents.readText(a!.owner, created.record.id, "markdown"))?.text).toBe("t");
}

describe("SQLite: a database from the previous release", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  /** DATA_DIR with gateway.sqlite at schema version 1, as the previous release left it. */
  async function oldDataDir(documents: OldDocument[]): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), "migration-sqlite-"));
    dirs.push(dir);
    const db = new Database(sqliteFile(dir));
    db.pragma("journal_mode = WAL");
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`);
    db.exec(sqliteMigrations[0]!);
    db.prepare(`INSERT INTO schema_migrations (version, applied_at) VALUES (1, ?)`).run("2026-01-01T00:00:00.000Z");
    const insert = db.prepare(
      `INSERT INTO documents (id, owner_id, name, name_folded, created_at, updated_at, size_bytes, characters, docx, text)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const doc of documents) {
      insert.run(
        doc.id,
        doc.owner,
        doc.name,
        foldName(doc.name),
        doc.createdAt,
        doc.createdAt,
        doc.docx.byteLength,
        doc.text.length,
        Buffer.from(doc.docx),
        doc.text,
      );
    }
    const first = documents[0]!;
    db.prepare(`INSERT INTO idempotency (owner_id, key, fingerprint, document_id, created_at) VALUES (?, ?, ?, ?, ?)`).run(
      first.owner,
      "old-key",
      "old-fp",
      first.id,
      "2026-01-01T00:00:00.000Z",
    );
    db.prepare(
      `INSERT INTO api_keys (id, user_id, tenant, scopes, hash, prefix, created_at, expires_at, revoked_at) VALUES (?, ?, NULL, ?, ?, ?, ?, NULL, NULL)`,
    ).run(`key_${ulid()}`, first.owner, "docs:read docs:write", "a".repeat(64), "wgk_abcd", "2026-01-01T00:00:00.000Z");
    db.close();
    return dir;
  }

  it("upgrades in place: every document reads back byte for byte as version 1, and new operations work", async () => {
    const documents = oldDocuments();
    const dir = await oldDataDir(documents);
    const store = openSqliteStore(dir);
    try {
      await checkUpgraded(store, documents);
    } finally {
      await store.close();
    }
    const db = new Database(sqliteFile(dir), { readonly: true });
    try {
      expect(
        (db.prepare(`SELECT version FROM schema_migrations ORDER BY version`).all() as { version: number }[]).map((r) => r.version),
      ).toEqual(sqliteMigrations.map((_, i) => i + 1));
    } finally {
      db.close();
    }
    // Opening again applies nothing twice and keeps everything.
    const again = openSqliteStore(dir);
    try {
      const untouched = documents[4]!;
      same((await again.documents.readContent(untouched.owner, untouched.id))?.docx, untouched.docx);
      expect((await again.documents.get(documents[0]!.owner, documents[0]!.id))?.version).toBe(2);
    } finally {
      await again.close();
    }
  });

  it("a gateway on the upgraded DATA_DIR serves old documents: text, markdown derived from the .docx, download, versions, update", async () => {
    const rendered = await renderDocument("# Old heading\n\nA paragraph with **bold**.\n\n- one\n- two\n", { title: "Old" });
    const owner = "alice";
    const old: OldDocument = {
      id: `doc_${ulid()}`,
      owner,
      name: "Made before",
      createdAt: "2026-01-01T00:00:00.000Z",
      docx: rendered.docx,
      text: rendered.text,
    };
    const dir = await oldDataDir([old]);
    const tg = await startTestGateway({ DATA_DIR: dir });
    try {
      const auth = { authorization: `Bearer ${await tg.key({ user: owner })}` };
      const url = `${tg.url}/api/v1/documents/${old.id}`;
      const text = await fetch(url, { headers: auth });
      expect(text.status).toBe(200);
      expect(text.headers.get("etag")).toBe('"v1"');
      expect(await text.json()).toMatchObject({ id: old.id, name: "Made before", version: 1, text: rendered.text, format: "text" });
      const markdown = (await (await fetch(`${url}?format=markdown`, { headers: auth })).json()) as { text: string; format: string };
      expect(markdown.format).toBe("markdown");
      expect(markdown.text).toMatch(/^# Old heading/m);
      expect(markdown.text).toMatch(/\*\*bold\*\*/);
      expect(markdown.text).toMatch(/^[-*] one$/m);
      const download = await fetch(`${url}/content`, { headers: auth });
      same(new Uint8Array(await download.arrayBuffer()), old.docx);
      const updated = await fetch(url, {
        method: "PUT",
        headers: { ...auth, "content-type": "application/json", "if-match": '"v1"' },
        body: JSON.stringify({ markdown: "# New heading\n" }),
      });
      expect(updated.status).toBe(200);
      expect(updated.headers.get("etag")).toBe('"v2"');
      const v1 = await fetch(`${url}/versions/1/content`, { headers: auth });
      same(new Uint8Array(await v1.arrayBuffer()), old.docx);
      // Version 1, now an earlier version, still has no stored markdown: it is derived from its .docx too.
      const v1Markdown = (await (await fetch(`${url}/versions/1?format=markdown`, { headers: auth })).json()) as {
        text: string;
        version: number;
      };
      expect(v1Markdown.version).toBe(1);
      expect(v1Markdown.text).toMatch(/^# Old heading/m);
      expect((await (await fetch(`${url}?format=markdown`, { headers: auth })).json()) as { text: string }).toMatchObject({
        text: "# New heading",
      });
    } finally {
      // close() removes DATA_DIR, which afterAll would do too.
      await tg.close();
    }
  });
});

describe("PostgreSQL: a database from the previous release", () => {
  const { databaseUrl } = usePostgresSchema("migration_test");

  it("upgrades in place: every document reads back byte for byte as version 1, and new operations work", async () => {
    const documents = oldDocuments();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(`CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      await client.query(postgresMigration1);
      await client.query(`INSERT INTO schema_migrations (version) VALUES (1)`);
      for (const doc of documents) {
        await client.query(
          `INSERT INTO documents (id, owner_id, name, name_folded, created_at, updated_at, size_bytes, characters, docx, text)
           VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9)`,
          [
            doc.id,
            doc.owner,
            doc.name,
            foldName(doc.name),
            doc.createdAt,
            doc.docx.byteLength,
            doc.text.length,
            Buffer.from(doc.docx),
            doc.text,
          ],
        );
      }
      const first = documents[0]!;
      await client.query(
        `INSERT INTO idempotency (owner_id, key, fingerprint, document_id, created_at) VALUES ($1, 'old-key', 'old-fp', $2, '2026-01-01T00:00:00.000Z')`,
        [first.owner, first.id],
      );
      await client.query(
        `INSERT INTO api_keys (id, user_id, tenant, scopes, hash, prefix, created_at) VALUES ($1, $2, NULL, $3::text[], $4, 'wgk_abcd', '2026-01-01T00:00:00.000Z')`,
        [`key_${ulid()}`, first.owner, ["docs:read", "docs:write"], "a".repeat(64)],
      );
    } finally {
      await client.end();
    }

    const store = await openPostgresStore(databaseUrl);
    try {
      await checkUpgraded(store, documents);
      const { rows } = await store.pool.query<{ version: number }>(`SELECT version FROM schema_migrations ORDER BY version`);
      expect(rows.map((r) => r.version)).toEqual(postgresMigrations.map((_, i) => i + 1));
    } finally {
      await store.close();
    }
    // Two replicas opening the upgraded database at once apply nothing twice.
    const replicas = await Promise.all([openPostgresStore(databaseUrl), openPostgresStore(databaseUrl)]);
    try {
      const untouched = documents[4]!;
      for (const replica of replicas) same((await replica.documents.readContent(untouched.owner, untouched.id))?.docx, untouched.docx);
    } finally {
      for (const replica of replicas) await replica.close();
    }
  });
});
