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
  // Content stored once per owner and distinct content (content.ts): the .docx, text and markdown
  // move to `contents`, keyed by (owner, hash); documents and versions keep only metadata and the
  // hash, so a rename stores no copy. content_hash() and utf16_length() are the connection's own
  // functions (registered before migrating, connection.ts), the same code new writes use. Versions
  // gain their owner, so that what still refers to a content is one indexed lookup. storage_usage
  // holds what each owner's contents take up (the quota, quota.ts). The file shrinks by a VACUUM
  // once this has run (migrate()).
  `CREATE TABLE contents (
     owner_id TEXT NOT NULL,
     hash TEXT NOT NULL,
     size_bytes INTEGER NOT NULL,
     text_chars INTEGER NOT NULL,
     markdown_chars INTEGER,
     docx BLOB NOT NULL,
     text TEXT NOT NULL,
     markdown TEXT,
     PRIMARY KEY (owner_id, hash)
   ) STRICT;
   CREATE TABLE documents_3 (
     id TEXT PRIMARY KEY,
     owner_id TEXT NOT NULL,
     name TEXT NOT NULL,
     name_folded TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     version INTEGER NOT NULL,
     updated_by TEXT NOT NULL,
     source TEXT NOT NULL,
     deleted_at TEXT,
     size_bytes INTEGER NOT NULL,
     characters INTEGER NOT NULL,
     content_hash TEXT NOT NULL
   ) STRICT;
   INSERT INTO documents_3
     SELECT id, owner_id, name, name_folded, created_at, updated_at, version, updated_by, source, deleted_at, size_bytes,
       characters, content_hash(docx, text, markdown)
     FROM documents;
   CREATE TABLE document_versions_3 (
     document_id TEXT NOT NULL,
     version INTEGER NOT NULL,
     owner_id TEXT NOT NULL,
     name TEXT NOT NULL,
     created_at TEXT NOT NULL,
     created_by TEXT NOT NULL,
     replaced_at TEXT NOT NULL,
     source TEXT NOT NULL,
     size_bytes INTEGER NOT NULL,
     characters INTEGER NOT NULL,
     content_hash TEXT NOT NULL,
     PRIMARY KEY (document_id, version)
   ) STRICT;
   INSERT INTO document_versions_3
     SELECT v.document_id, v.version, d.owner_id, v.name, v.created_at, v.created_by, v.replaced_at, v.source, v.size_bytes,
       v.characters, content_hash(v.docx, v.text, v.markdown)
     FROM document_versions v JOIN documents d ON d.id = v.document_id;
   INSERT OR IGNORE INTO contents (owner_id, hash, size_bytes, text_chars, markdown_chars, docx, text, markdown)
     SELECT n.owner_id, n.content_hash,
       length(o.docx) + length(CAST(o.text AS BLOB)) + coalesce(length(CAST(o.markdown AS BLOB)), 0),
       utf16_length(o.text), utf16_length(o.markdown), o.docx, o.text, o.markdown
     FROM documents_3 n JOIN documents o ON o.id = n.id;
   INSERT OR IGNORE INTO contents (owner_id, hash, size_bytes, text_chars, markdown_chars, docx, text, markdown)
     SELECT n.owner_id, n.content_hash,
       length(o.docx) + length(CAST(o.text AS BLOB)) + coalesce(length(CAST(o.markdown AS BLOB)), 0),
       utf16_length(o.text), utf16_length(o.markdown), o.docx, o.text, o.markdown
     FROM document_versions_3 n JOIN document_versions o ON o.document_id = n.document_id AND o.version = n.version;
   DROP TABLE document_versions;
   DROP TABLE documents;
   ALTER TABLE documents_3 RENAME TO documents;
   ALTER TABLE document_versions_3 RENAME TO document_versions;
   CREATE INDEX documents_owner_id ON documents (owner_id, id DESC);
   CREATE INDEX documents_deleted_at ON documents (deleted_at) WHERE deleted_at IS NOT NULL;
   CREATE INDEX documents_content ON documents (owner_id, content_hash);
   CREATE INDEX document_versions_replaced_at ON document_versions (replaced_at);
   CREATE INDEX document_versions_content ON document_versions (owner_id, content_hash);
   CREATE TABLE storage_usage (
     owner_id TEXT PRIMARY KEY,
     bytes INTEGER NOT NULL
   ) STRICT;
   INSERT INTO storage_usage (owner_id, bytes) SELECT owner_id, sum(size_bytes) FROM contents GROUP BY owner_id;`,
  // Idempotency records keep what the first request answered (`response`, the record as JSON; NULL
  // for records made before), and are keyed by operation too, so one key used for two operations
  // ("documents.create", "sheets.create", "sheets.append"…) never collides; `target_id` is what the
  // operation made or changed. Authors were written as the owner key (user U+001F tenant) for
  // version 1: keep the user only, as every later version has it.
  `CREATE TABLE idempotency_4 (
     owner_id TEXT NOT NULL,
     operation TEXT NOT NULL,
     key TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     target_id TEXT NOT NULL,
     response TEXT,
     created_at TEXT NOT NULL,
     PRIMARY KEY (owner_id, operation, key)
   ) STRICT;
   INSERT INTO idempotency_4 (owner_id, operation, key, fingerprint, target_id, response, created_at)
     SELECT owner_id, 'documents.create', key, fingerprint, document_id, NULL, created_at FROM idempotency;
   DROP TABLE idempotency;
   ALTER TABLE idempotency_4 RENAME TO idempotency;
   CREATE INDEX idempotency_created_at ON idempotency (created_at);
   CREATE INDEX idempotency_target ON idempotency (target_id);
   UPDATE documents SET updated_by = substr(updated_by, 1, instr(updated_by, char(31)) - 1) WHERE instr(updated_by, char(31)) > 0;
   UPDATE document_versions SET created_by = substr(created_by, 1, instr(created_by, char(31)) - 1)
     WHERE instr(created_by, char(31)) > 0;`,
  // Workbooks (types/workbooks.ts): records and versions like documents', their content as blobs
  // stored once per owner and hash (a manifest root, its pages, their tiles; blob_refs says which
  // blob refers to which, so collecting unreferenced blobs is a query, not a decode), and the
  // current version's computed values (workbook_values, no longer written: the engine keeps a
  // version's values as blobs). Share links target a document or a workbook (`kind`).
  `CREATE TABLE workbooks (
     id TEXT PRIMARY KEY,
     owner_id TEXT NOT NULL,
     name TEXT NOT NULL,
     name_folded TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     version INTEGER NOT NULL,
     updated_by TEXT NOT NULL,
     source TEXT NOT NULL,
     deleted_at TEXT,
     size_bytes INTEGER NOT NULL,
     cells INTEGER NOT NULL,
     sheets TEXT NOT NULL,
     manifest_hash TEXT NOT NULL
   ) STRICT;
   CREATE INDEX workbooks_owner_id ON workbooks (owner_id, id DESC);
   CREATE INDEX workbooks_deleted_at ON workbooks (deleted_at) WHERE deleted_at IS NOT NULL;
   CREATE INDEX workbooks_manifest ON workbooks (owner_id, manifest_hash);
   CREATE TABLE workbook_versions (
     workbook_id TEXT NOT NULL,
     version INTEGER NOT NULL,
     owner_id TEXT NOT NULL,
     name TEXT NOT NULL,
     created_at TEXT NOT NULL,
     created_by TEXT NOT NULL,
     replaced_at TEXT NOT NULL,
     source TEXT NOT NULL,
     size_bytes INTEGER NOT NULL,
     cells INTEGER NOT NULL,
     sheets TEXT NOT NULL,
     manifest_hash TEXT NOT NULL,
     PRIMARY KEY (workbook_id, version)
   ) STRICT;
   CREATE INDEX workbook_versions_replaced_at ON workbook_versions (replaced_at);
   CREATE INDEX workbook_versions_manifest ON workbook_versions (owner_id, manifest_hash);
   CREATE TABLE blobs (
     owner_id TEXT NOT NULL,
     hash TEXT NOT NULL,
     size INTEGER NOT NULL,
     bytes BLOB NOT NULL,
     PRIMARY KEY (owner_id, hash)
   ) STRICT;
   CREATE TABLE blob_refs (
     owner_id TEXT NOT NULL,
     parent_hash TEXT NOT NULL,
     child_hash TEXT NOT NULL,
     PRIMARY KEY (owner_id, parent_hash, child_hash)
   ) STRICT, WITHOUT ROWID;
   CREATE INDEX blob_refs_child ON blob_refs (owner_id, child_hash);
   CREATE TABLE workbook_values (
     workbook_id TEXT NOT NULL,
     tile_key TEXT NOT NULL,
     version INTEGER NOT NULL,
     bytes BLOB NOT NULL,
     PRIMARY KEY (workbook_id, tile_key)
   ) STRICT;
   CREATE TABLE shares (
     id TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     target_id TEXT NOT NULL,
     owner_id TEXT NOT NULL,
     token_hash TEXT NOT NULL UNIQUE,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL
   ) STRICT;
   INSERT INTO shares (id, kind, target_id, owner_id, token_hash, created_at, expires_at)
     SELECT id, 'document', document_id, owner_id, token_hash, created_at, expires_at FROM document_shares;
   DROP TABLE document_shares;
   CREATE INDEX shares_target ON shares (target_id, created_at DESC);
   CREATE INDEX shares_expires_at ON shares (expires_at);`,
  // The owner's application (types/sessions.ts): sessions behind its cookie, and one-time sign-in
  // links. A session opened by an API key names it, so a revoked key ends its sessions at once.
  `CREATE TABLE sessions (
     id TEXT PRIMARY KEY,
     token_hash TEXT NOT NULL UNIQUE,
     user_id TEXT NOT NULL,
     tenant TEXT,
     scopes TEXT NOT NULL,
     method TEXT NOT NULL,
     key_id TEXT,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     ended_at TEXT
   ) STRICT;
   CREATE INDEX sessions_key ON sessions (key_id) WHERE key_id IS NOT NULL;
   CREATE INDEX sessions_expires_at ON sessions (expires_at);
   CREATE TABLE sign_in_links (
     id TEXT PRIMARY KEY,
     token_hash TEXT NOT NULL UNIQUE,
     user_id TEXT NOT NULL,
     tenant TEXT,
     scopes TEXT NOT NULL,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     used_at TEXT
   ) STRICT;
   CREATE INDEX sign_in_links_expires_at ON sign_in_links (expires_at);`,
  // Workbook blobs written ahead of the write that names them (sqlite/blobs.ts `stage`): a row per
  // stage under way, gone with the write, so that what a crash left unnamed is collected at the next open.
  `CREATE TABLE blob_stages (
     id TEXT PRIMARY KEY,
     owner_id TEXT NOT NULL,
     root_hash TEXT NOT NULL
   ) STRICT;`,
];

/** Migrations that free much of the file: a VACUUM after them gives the space back. */
const vacuumAfter = new Set([3]);

/** Applies the pending migrations, each in its own immediate transaction with its schema_migrations row. */
export function migrate(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`);
  let vacuum = false;
  sqliteMigrations.forEach((sql, index) => {
    const version = index + 1;
    // Checked inside the write lock: another process opening the same file may have just applied it.
    const ran = db
      .transaction(() => {
        if (db.prepare(`SELECT 1 FROM schema_migrations WHERE version = ?`).get(version)) return false;
        db.exec(sql);
        db.prepare(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`).run(version, new Date().toISOString());
        return true;
      })
      .immediate();
    vacuum ||= ran && vacuumAfter.has(version);
  });
  if (!vacuum) return;
  try {
    db.exec("VACUUM");
  } catch {
    // Another process holds the file (the CLI): the freed pages are reused by later writes instead.
  }
}
