// The embedded store's schema, as append-only migrations: version N is sqliteMigrations[N - 1].
// Never edit an entry once released; a database made by an older release is upgraded in place.
import type Database from "better-sqlite3";

export const sqliteMigrations: string[] = [
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
  // Living documents: a version number, who made the current version and from what, the markdown
  // it came from (NULL for documents made before this migration: derived from the .docx on read),
  // the trash, earlier versions and share links.
  `ALTER TABLE documents ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
   ALTER TABLE documents ADD COLUMN updated_by TEXT NOT NULL DEFAULT '';
   UPDATE documents SET updated_by = owner_id;
   ALTER TABLE documents ADD COLUMN source TEXT NOT NULL DEFAULT 'markdown';
   ALTER TABLE documents ADD COLUMN markdown TEXT;
   ALTER TABLE documents ADD COLUMN deleted_at TEXT;
   CREATE INDEX documents_deleted_at ON documents (deleted_at) WHERE deleted_at IS NOT NULL;
   CREATE INDEX idempotency_created_at ON idempotency (created_at);
   CREATE INDEX idempotency_document ON idempotency (document_id);
   CREATE TABLE document_versions (
     document_id TEXT NOT NULL,
     version INTEGER NOT NULL,
     name TEXT NOT NULL,
     created_at TEXT NOT NULL,
     created_by TEXT NOT NULL,
     replaced_at TEXT NOT NULL,
     source TEXT NOT NULL,
     size_bytes INTEGER NOT NULL,
     characters INTEGER NOT NULL,
     docx BLOB NOT NULL,
     text TEXT NOT NULL,
     markdown TEXT,
     PRIMARY KEY (document_id, version)
   ) STRICT;
   CREATE INDEX document_versions_replaced_at ON document_versions (replaced_at);
   CREATE TABLE document_shares (
     id TEXT PRIMARY KEY,
     document_id TEXT NOT NULL,
     owner_id TEXT NOT NULL,
     token_hash TEXT NOT NULL UNIQUE,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL
   ) STRICT;
   CREATE INDEX document_shares_document ON document_shares (document_id, created_at DESC);
   CREATE INDEX document_shares_expires_at ON document_shares (expires_at);`,
];

/** Applies the pending migrations, each in its own immediate transaction with its schema_migrations row. */
export function migrate(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`);
  const applied = new Set((db.prepare(`SELECT version FROM schema_migrations`).all() as { version: number }[]).map((r) => r.version));
  sqliteMigrations.forEach((sql, index) => {
    const version = index + 1;
    if (applied.has(version)) return;
    db.transaction(() => {
      db.exec(sql);
      db.prepare(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`).run(version, new Date().toISOString());
    }).immediate();
  });
}
