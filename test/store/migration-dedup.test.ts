// A database made by the release before content addressing (schema version 2: every version a full
// copy of its .docx, text and markdown), opened by the current store: the migration moves content
// into `contents` once per owner and distinct content, under the hash new writes compute, every
// version reads back whole, usage is what the distinct contents hold, and the database shrinks.
// SQLite (its file) and PostgreSQL (its tables with indexes and TOAST).
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { monotonicFactory } from "ulid";
import { afterAll, describe, expect, it } from "vitest";
import { contentBytes, contentHash } from "../../src/store/content.ts";
import { openPostgresStore } from "../../src/store/postgres.ts";
import { postgresMigrations } from "../../src/store/postgres/migrations.ts";
import { openSqliteStore, sqliteFile } from "../../src/store/sqlite.ts";
import { sqliteMigrations } from "../../src/store/sqlite/migrations.ts";
import { foldName, type DocumentContent, type Store } from "../../src/store/types.ts";
import { usePostgresSchema } from "../helpers/postgres.ts";

const ulid = monotonicFactory();

interface OldVersion extends DocumentContent {
  version: number;
  name: string;
  at: string;
}
interface OldDocument {
  id: string;
  owner: string;
  versions: OldVersion[];
}

/**
 * Documents as the old release stored them: each has 12 versions, most of them renames (a full copy
 * of the same content), one a content change, and the last a restore of version 1 (its content again).
 */
function oldDocuments(): OldDocument[] {
  const owners = [`user_${randomUUID()}`, `user_${randomUUID()}`];
  const contentOf = (i: number, markdown: boolean): DocumentContent => ({
    docx: new Uint8Array(randomBytes(40_000 + i)),
    text: `Text ${i} 🎉 ${randomBytes(20_000).toString("base64")}`,
    markdown: markdown ? `# Text ${i} 漢字 ${randomBytes(20_000).toString("base64")}` : null,
  });
  return Array.from({ length: 4 }, (_, d) => {
    const first = contentOf(d * 2, d !== 1);
    const second = contentOf(d * 2 + 1, true);
    const versions = Array.from({ length: 12 }, (_, i): OldVersion => {
      const content = i === 5 || i === 6 ? second : first;
      return { ...content, version: i + 1, name: `Doc ${d} v${i + 1}`, at: new Date(Date.UTC(2026, 0, 1, d, i)).toISOString() };
    });
    return { id: `doc_${ulid()}`, owner: owners[d % 2]!, versions };
  });
}

/** The row values of version v of an old document, as schema version 2 names them. */
function oldRow(doc: OldDocument, v: OldVersion) {
  return {
    id: doc.id,
    owner: doc.owner,
    name: v.name,
    folded: foldName(v.name),
    at: v.at,
    sizeBytes: v.docx.byteLength,
    characters: v.text.length,
    docx: Buffer.from(v.docx),
    text: v.text,
    markdown: v.markdown,
    version: v.version,
  };
}

/** A share link the old release made (table document_shares), for documents[0]. */
const OLD_SHARE = {
  id: "shr_01JD7Q6R1V2S3T4U5W6X7Y8Z9A",
  tokenHash: "e".repeat(64),
  createdAt: "2026-01-01T00:00:00.000Z",
  expiresAt: "2099-01-01T00:00:00.000Z",
};

async function checkMigrated(store: Store, documents: OldDocument[], distinctRows: () => Promise<number>): Promise<void> {
  // The old share link is a share of kind "document" now, and still reads its document.
  const shared = await store.findShare(OLD_SHARE.tokenHash, "2026-06-01T00:00:00.000Z");
  expect(shared?.share).toEqual({
    id: OLD_SHARE.id,
    kind: "document",
    targetId: documents[0]!.id,
    ownerId: documents[0]!.owner,
    createdAt: OLD_SHARE.createdAt,
    expiresAt: OLD_SHARE.expiresAt,
  });
  expect(shared?.target).toMatchObject({ kind: "document", record: { id: documents[0]!.id } });
  const distinct = new Map<string, Map<string, number>>();
  for (const doc of documents) {
    const versions = (await store.documents.listVersions({ ownerId: doc.owner, id: doc.id, limit: 100 }))!;
    expect(versions.map((v) => v.version)).toEqual(doc.versions.map((v) => v.version).reverse());
    for (const v of doc.versions) {
      const read = await store.documents.readVersionText(doc.owner, doc.id, v.version);
      expect(read?.version).toMatchObject({ name: v.name, createdAt: v.at, sizeBytes: v.docx.byteLength, characters: v.text.length });
      expect(read?.text === v.text).toBe(true);
      expect((await store.documents.readVersionText(doc.owner, doc.id, v.version, "markdown"))?.text).toBe(v.markdown);
      const docx = (await store.documents.readVersionContent(doc.owner, doc.id, v.version))?.docx;
      expect(Buffer.compare(Buffer.from(docx!), Buffer.from(v.docx))).toBe(0);
      const owned = distinct.get(doc.owner) ?? new Map<string, number>();
      owned.set(contentHash(v), contentBytes(v));
      distinct.set(doc.owner, owned);
    }
  }
  // Two distinct contents per document: usage counts each once.
  for (const [owner, contents] of distinct) {
    expect(await store.storageUsage(owner)).toBe([...contents.values()].reduce((a, b) => a + b, 0));
  }
  const rows = await distinctRows();
  expect(rows).toBe(documents.length * 2);
  // The migration used the hash new writes compute: the same content again is no new row.
  const doc = documents[0]!;
  const { docx, text, markdown } = doc.versions[0]!;
  await store.documents.create({
    id: `doc_${ulid()}`,
    ownerId: doc.owner,
    createdBy: doc.owner,
    name: "again",
    createdAt: new Date().toISOString(),
    docx,
    text,
    markdown,
  });
  expect(await distinctRows()).toBe(rows);
}

describe("SQLite: a database with full copies per version", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("is migrated in place: every version reads back, content is stored once, and the file shrinks", async () => {
    const documents = oldDocuments();
    const dir = await mkdtemp(join(tmpdir(), "migration-dedup-"));
    dirs.push(dir);
    const db = new Database(sqliteFile(dir));
    db.pragma("journal_mode = WAL");
    db.exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`);
    for (const version of [1, 2]) {
      db.exec(sqliteMigrations[version - 1]!);
      db.prepare(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`).run(version, "2026-01-01T00:00:00.000Z");
    }
    const insertDocument = db.prepare(
      `INSERT INTO documents (id, owner_id, name, name_folded, created_at, updated_at, size_bytes, characters, docx, text, markdown,
         version, updated_by, source)
       VALUES (@id, @owner, @name, @folded, @createdAt, @at, @sizeBytes, @characters, @docx, @text, @markdown, @version, @owner, 'markdown')`,
    );
    const insertVersion = db.prepare(
      `INSERT INTO document_versions (document_id, version, name, created_at, created_by, replaced_at, source, size_bytes, characters,
         docx, text, markdown)
       VALUES (@id, @version, @name, @at, @owner, @replacedAt, 'rename', @sizeBytes, @characters, @docx, @text, @markdown)`,
    );
    for (const doc of documents) {
      const versions = doc.versions;
      for (const v of versions.slice(0, -1)) insertVersion.run({ ...oldRow(doc, v), replacedAt: versions[v.version]!.at });
      insertDocument.run({ ...oldRow(doc, versions.at(-1)!), createdAt: versions[0]!.at });
    }
    db.prepare(`INSERT INTO document_shares (id, document_id, owner_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`).run(
      OLD_SHARE.id,
      documents[0]!.id,
      documents[0]!.owner,
      OLD_SHARE.tokenHash,
      OLD_SHARE.createdAt,
      OLD_SHARE.expiresAt,
    );
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    const sizeOf = () => {
      const file = new Database(sqliteFile(dir), { readonly: true });
      try {
        return (file.prepare(`SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()`).get() as { n: number }).n;
      } finally {
        file.close();
      }
    };
    const before = sizeOf();

    const store = openSqliteStore(dir);
    try {
      const after = sizeOf();
      // 48 full copies before, 8 distinct contents after.
      expect(after).toBeLessThan(before / 3);
      const distinctRows = async () => {
        const file = new Database(sqliteFile(dir), { readonly: true });
        try {
          return (file.prepare(`SELECT count(*) AS n FROM contents`).get() as { n: number }).n;
        } finally {
          file.close();
        }
      };
      await checkMigrated(store, documents, distinctRows);
    } finally {
      await store.close();
    }
  });
});

describe("PostgreSQL: a database with full copies per version", () => {
  const { databaseUrl, schema } = usePostgresSchema("migration_dedup");

  it("is migrated in place: every version reads back, content is stored once, and the tables shrink", async () => {
    const documents = oldDocuments();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const sizeOf = async () =>
      Number(
        (
          await client.query<{ n: string }>(
            `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
             WHERE s.nspname = $1 AND c.relkind = 'r'`,
            [schema],
          )
        ).rows[0]!.n,
      );
    try {
      await client.query(`CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      for (const version of [1, 2]) {
        await client.query(postgresMigrations[version - 1]!);
        await client.query(`INSERT INTO schema_migrations (version) VALUES ($1)`, [version]);
      }
      for (const doc of documents) {
        const versions = doc.versions;
        for (const v of versions.slice(0, -1)) {
          const r = oldRow(doc, v);
          await client.query(
            `INSERT INTO document_versions (document_id, version, name, created_at, created_by, replaced_at, source, size_bytes, characters,
               docx, text, markdown)
             VALUES ($1, $2, $3, $4, $5, $6, 'rename', $7, $8, $9, $10, $11)`,
            [r.id, r.version, r.name, r.at, r.owner, versions[v.version]!.at, r.sizeBytes, r.characters, r.docx, r.text, r.markdown],
          );
        }
        const r = oldRow(doc, versions.at(-1)!);
        await client.query(
          `INSERT INTO documents (id, owner_id, name, name_folded, created_at, updated_at, size_bytes, characters, docx, text, markdown,
             version, updated_by, source)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $2, 'markdown')`,
          [r.id, r.owner, r.name, r.folded, versions[0]!.at, r.at, r.sizeBytes, r.characters, r.docx, r.text, r.markdown, r.version],
        );
      }
      await client.query(
        `INSERT INTO document_shares (id, document_id, owner_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [OLD_SHARE.id, documents[0]!.id, documents[0]!.owner, OLD_SHARE.tokenHash, OLD_SHARE.createdAt, OLD_SHARE.expiresAt],
      );
      const before = await sizeOf();
      const store = await openPostgresStore(databaseUrl);
      try {
        expect(await sizeOf()).toBeLessThan(before / 3);
        const distinctRows = async () => Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM contents`)).rows[0]!.n);
        await checkMigrated(store, documents, distinctRows);
      } finally {
        await store.close();
      }
    } finally {
      await client.end();
    }
  });
});
