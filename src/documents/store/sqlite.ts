// Embedded store: one SQLite file under DATA_DIR, WAL mode, versioned migrations.
// better-sqlite3 is synchronous, so a transaction can never interleave with another request.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import {
  foldName,
  type ApiKeyRecord,
  type CreateResult,
  type DocumentRecord,
  type DocumentStore,
  type IdempotencyClaim,
  type IdempotencyHit,
  type ListQuery,
  type NewDocument,
} from "./types.ts";
import { documentSummaryColumns, toDocument, type DocumentRow } from "./rows.ts";

const migrations: string[] = [
  `CREATE TABLE documents (
     id TEXT PRIMARY KEY,
     owner_id TEXT NOT NULL,
     name TEXT NOT NULL,
     name_folded TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     size_bytes INTEGER NOT NULL,
     characters INTEGER NOT NULL,
     docx BLOB NOT NULL,
     text TEXT NOT NULL
   ) STRICT;
   CREATE INDEX documents_owner_id ON documents (owner_id, id DESC);
   CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     tenant TEXT,
     scopes TEXT NOT NULL,
     hash TEXT NOT NULL UNIQUE,
     prefix TEXT NOT NULL,
     created_at TEXT NOT NULL,
     expires_at TEXT,
     revoked_at TEXT
   ) STRICT;
   CREATE INDEX api_keys_user ON api_keys (user_id);
   CREATE TABLE idempotency (
     owner_id TEXT NOT NULL,
     key TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     document_id TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (owner_id, key)
   ) STRICT;`,
];

interface ApiKeyRow {
  id: string;
  user_id: string;
  tenant: string | null;
  scopes: string;
  hash: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

const toApiKey = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  userId: row.user_id,
  tenant: row.tenant,
  scopes: row.scopes === "" ? [] : row.scopes.split(" "),
  hash: row.hash,
  prefix: row.prefix,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
});

export function sqliteFile(dataDir: string): string {
  return join(resolve(dataDir), "gateway.sqlite");
}

/**
 * The store holds every document and the API key hashes: only the gateway's user may read it
 * (docs/security.md). DATA_DIR is created 0700 (an existing one is left as its owner set it), the
 * database file 0600 before SQLite opens it; SQLite gives the -wal and -shm files the database
 * file's mode. Files left 0644 by an older version are narrowed.
 */
function createPrivately(dataDir: string): string {
  mkdirSync(resolve(dataDir), { recursive: true, mode: 0o700 });
  const file = sqliteFile(dataDir);
  closeSync(openSync(file, "a", 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) chmodSync(path, 0o600);
  return file;
}

export function openSqliteStore(dataDir: string): DocumentStore {
  const db = new Database(createPrivately(dataDir));
  db.pragma("journal_mode = WAL");
  // NORMAL is durable against a process crash in WAL mode; only power loss could drop the last commit.
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  migrate(db);

  const stmt = {
    insertDocument: db.prepare(
      `INSERT INTO documents (id, owner_id, name, name_folded, created_at, updated_at, size_bytes, characters, docx, text)
       VALUES (@id, @ownerId, @name, @nameFolded, @createdAt, @createdAt, @sizeBytes, @characters, @docx, @text)`,
    ),
    insertIdempotency: db.prepare(
      `INSERT INTO idempotency (owner_id, key, fingerprint, document_id, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (owner_id, key) DO UPDATE SET fingerprint = excluded.fingerprint,
         document_id = excluded.document_id, created_at = excluded.created_at
       WHERE idempotency.created_at < ?`,
    ),
    findIdempotency: db.prepare(
      `SELECT document_id, fingerprint FROM idempotency WHERE owner_id = ? AND key = ? AND created_at >= ?`,
    ),
    getDocument: db.prepare(`SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = ? AND id = ?`),
    readText: db.prepare(`SELECT ${documentSummaryColumns}, text FROM documents WHERE owner_id = ? AND id = ?`),
    readContent: db.prepare(`SELECT ${documentSummaryColumns}, docx FROM documents WHERE owner_id = ? AND id = ?`),
    list: db.prepare(
      `SELECT ${documentSummaryColumns} FROM documents
       WHERE owner_id = @ownerId AND (@beforeId IS NULL OR id < @beforeId)
         AND (@needle IS NULL OR instr(name_folded, @needle) > 0)
       ORDER BY id DESC LIMIT @limit`,
    ),
    insertApiKey: db.prepare(
      `INSERT INTO api_keys (id, user_id, tenant, scopes, hash, prefix, created_at, expires_at, revoked_at)
       VALUES (@id, @userId, @tenant, @scopes, @hash, @prefix, @createdAt, @expiresAt, @revokedAt)`,
    ),
    findApiKey: db.prepare(`SELECT * FROM api_keys WHERE hash = ?`),
    listApiKeys: db.prepare(`SELECT * FROM api_keys WHERE (@userId IS NULL OR user_id = @userId) ORDER BY created_at, id`),
    revokeApiKey: db.prepare(`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?`),
    pruneIdempotency: db.prepare(`DELETE FROM idempotency WHERE created_at < ?`),
    ping: db.prepare(`SELECT 1`),
  };

  // The document row and its idempotency record land together or not at all.
  const create = db.transaction((doc: NewDocument, claim: IdempotencyClaim | undefined): CreateResult => {
    if (claim) {
      const hit = stmt.findIdempotency.get(doc.ownerId, claim.key, claim.notBefore) as
        | { document_id: string; fingerprint: string }
        | undefined;
      if (hit) {
        const existing = stmt.getDocument.get(doc.ownerId, hit.document_id) as DocumentRow | undefined;
        if (existing) return { document: toDocument(existing), replayed: true, fingerprint: hit.fingerprint };
      }
    }
    const record: DocumentRecord = {
      id: doc.id,
      ownerId: doc.ownerId,
      name: doc.name,
      createdAt: doc.createdAt,
      updatedAt: doc.createdAt,
      sizeBytes: doc.docx.byteLength,
      characters: doc.text.length,
    };
    stmt.insertDocument.run({
      ...record,
      nameFolded: foldName(doc.name),
      docx: Buffer.from(doc.docx.buffer, doc.docx.byteOffset, doc.docx.byteLength),
      text: doc.text,
    });
    if (claim) {
      stmt.insertIdempotency.run(doc.ownerId, claim.key, claim.fingerprint, doc.id, doc.createdAt, claim.notBefore);
    }
    return { document: record, replayed: false, fingerprint: claim?.fingerprint ?? "" };
  });

  return {
    kind: "sqlite",
    async createDocument(doc, idempotency) {
      return create.immediate(doc, idempotency);
    },
    async findIdempotent(ownerId, key, notBefore): Promise<IdempotencyHit | null> {
      const row = stmt.findIdempotency.get(ownerId, key, notBefore) as
        | { document_id: string; fingerprint: string }
        | undefined;
      return row ? { documentId: row.document_id, fingerprint: row.fingerprint } : null;
    },
    async getDocument(ownerId, id) {
      const row = stmt.getDocument.get(ownerId, id) as DocumentRow | undefined;
      return row ? toDocument(row) : null;
    },
    async getDocuments(ownerId, ids) {
      if (ids.length === 0) return [];
      const placeholders = ids.map(() => "?").join(", ");
      const rows = db
        .prepare(`SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = ? AND id IN (${placeholders})`)
        .all(ownerId, ...ids) as DocumentRow[];
      return rows.map(toDocument);
    },
    async readText(ownerId, id) {
      const row = stmt.readText.get(ownerId, id) as (DocumentRow & { text: string }) | undefined;
      return row ? { document: toDocument(row), text: row.text } : null;
    },
    async readContent(ownerId, id) {
      const row = stmt.readContent.get(ownerId, id) as (DocumentRow & { docx: Buffer }) | undefined;
      return row ? { document: toDocument(row), docx: new Uint8Array(row.docx.buffer, row.docx.byteOffset, row.docx.byteLength) } : null;
    },
    async listDocuments(query: ListQuery) {
      const rows = stmt.list.all({
        ownerId: query.ownerId,
        beforeId: query.beforeId ?? null,
        needle: query.nameContains ?? null,
        limit: query.limit,
      }) as DocumentRow[];
      return rows.map(toDocument);
    },
    async insertApiKey(key) {
      stmt.insertApiKey.run({ ...key, scopes: key.scopes.join(" ") });
    },
    async findApiKeyByHash(hash) {
      const row = stmt.findApiKey.get(hash) as ApiKeyRow | undefined;
      return row ? toApiKey(row) : null;
    },
    async listApiKeys(userId) {
      return (stmt.listApiKeys.all({ userId: userId ?? null }) as ApiKeyRow[]).map(toApiKey);
    },
    async revokeApiKey(id, at) {
      return stmt.revokeApiKey.run(at, id).changes > 0;
    },
    async pruneIdempotency(olderThan) {
      return stmt.pruneIdempotency.run(olderThan).changes;
    },
    async ping() {
      stmt.ping.get();
    },
    async close() {
      if (db.open) db.close();
    },
  };
}

function migrate(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`);
  const applied = new Set(
    (db.prepare(`SELECT version FROM schema_migrations`).all() as { version: number }[]).map((r) => r.version),
  );
  migrations.forEach((sql, index) => {
    const version = index + 1;
    if (applied.has(version)) return;
    db.transaction(() => {
      db.exec(sql);
      db.prepare(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`).run(version, new Date().toISOString());
    }).immediate();
  });
}
