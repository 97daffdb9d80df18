// PostgreSQL's schema, as append-only migrations (see sqlite/migrations.ts, the reference), and
// how they are applied: once, under a lock, however many replicas start together.
import type pg from "pg";
import { inTransaction } from "./connection.ts";

/** Append-only: version N is migrations[N - 1]. Never edit an entry once released. */
export const postgresMigrations: string[] = [
  `CREATE TABLE documents (
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
   CREATE INDEX idempotency_created_at ON idempotency (created_at);`,
  // Living documents (see sqlite/migrations.ts): version, author and source of the current version,
  // its markdown (NULL before this migration), the trash, earlier versions and share links.
  `ALTER TABLE documents ADD COLUMN version integer NOT NULL DEFAULT 1;
   ALTER TABLE documents ADD COLUMN updated_by text COLLATE "C";
   UPDATE documents SET updated_by = owner_id;
   ALTER TABLE documents ALTER COLUMN updated_by SET NOT NULL;
   ALTER TABLE documents ADD COLUMN source text NOT NULL DEFAULT 'markdown';
   ALTER TABLE documents ADD COLUMN markdown text;
   ALTER TABLE documents ADD COLUMN deleted_at text COLLATE "C";
   CREATE INDEX documents_deleted_at ON documents (deleted_at) WHERE deleted_at IS NOT NULL;
   CREATE INDEX idempotency_document ON idempotency (document_id);
   CREATE TABLE document_versions (
     document_id text COLLATE "C" NOT NULL,
     version integer NOT NULL,
     name text NOT NULL,
     created_at text COLLATE "C" NOT NULL,
     created_by text COLLATE "C" NOT NULL,
     replaced_at text COLLATE "C" NOT NULL,
     source text NOT NULL,
     size_bytes integer NOT NULL,
     characters integer NOT NULL,
     docx bytea NOT NULL,
     text text NOT NULL,
     markdown text,
     PRIMARY KEY (document_id, version)
   );
   CREATE INDEX document_versions_replaced_at ON document_versions (replaced_at);
   CREATE TABLE document_shares (
     id text COLLATE "C" PRIMARY KEY,
     document_id text COLLATE "C" NOT NULL,
     owner_id text COLLATE "C" NOT NULL,
     token_hash text COLLATE "C" NOT NULL UNIQUE,
     created_at text COLLATE "C" NOT NULL,
     expires_at text COLLATE "C" NOT NULL
   );
   CREATE INDEX document_shares_document ON document_shares (document_id, created_at DESC);
   CREATE INDEX document_shares_expires_at ON document_shares (expires_at);`,
  // Content stored once per owner and distinct content (see sqlite/migrations.ts, version 3): the
  // tables are rebuilt without their content columns, which gives their space back at once. The
  // hash is content.ts's, in SQL; a string's UTF-16 length is its characters plus one per
  // character beyond U+FFFF.
  `CREATE TABLE contents (
     owner_id text COLLATE "C" NOT NULL,
     hash text COLLATE "C" NOT NULL,
     size_bytes bigint NOT NULL,
     text_chars integer NOT NULL,
     markdown_chars integer,
     docx bytea NOT NULL,
     text text NOT NULL,
     markdown text,
     PRIMARY KEY (owner_id, hash)
   );
   CREATE TABLE documents_3 (
     id text COLLATE "C" PRIMARY KEY,
     owner_id text COLLATE "C" NOT NULL,
     name text NOT NULL,
     name_folded text NOT NULL,
     created_at text COLLATE "C" NOT NULL,
     updated_at text COLLATE "C" NOT NULL,
     version integer NOT NULL,
     updated_by text COLLATE "C" NOT NULL,
     source text NOT NULL,
     deleted_at text COLLATE "C",
     size_bytes integer NOT NULL,
     characters integer NOT NULL,
     content_hash text COLLATE "C" NOT NULL
   );
   CREATE TABLE document_versions_3 (
     document_id text COLLATE "C" NOT NULL,
     version integer NOT NULL,
     owner_id text COLLATE "C" NOT NULL,
     name text NOT NULL,
     created_at text COLLATE "C" NOT NULL,
     created_by text COLLATE "C" NOT NULL,
     replaced_at text COLLATE "C" NOT NULL,
     source text NOT NULL,
     size_bytes integer NOT NULL,
     characters integer NOT NULL,
     content_hash text COLLATE "C" NOT NULL,
     PRIMARY KEY (document_id, version)
   );
   CREATE TEMPORARY TABLE content_3 ON COMMIT DROP AS
     SELECT 'd' AS kind, d.id, 0 AS version, d.owner_id, encode(sha256(sha256(d.docx) || sha256(convert_to(d.text, 'UTF8')) ||
       CASE WHEN d.markdown IS NULL THEN '\\x00'::bytea ELSE '\\x01'::bytea || sha256(convert_to(d.markdown, 'UTF8')) END), 'hex') AS hash
     FROM documents d
     UNION ALL
     SELECT 'v', v.document_id, v.version, d.owner_id, encode(sha256(sha256(v.docx) || sha256(convert_to(v.text, 'UTF8')) ||
       CASE WHEN v.markdown IS NULL THEN '\\x00'::bytea ELSE '\\x01'::bytea || sha256(convert_to(v.markdown, 'UTF8')) END), 'hex')
     FROM document_versions v JOIN documents d ON d.id = v.document_id;
   INSERT INTO contents (owner_id, hash, size_bytes, text_chars, markdown_chars, docx, text, markdown)
     SELECT c.owner_id, c.hash, octet_length(d.docx) + octet_length(d.text) + coalesce(octet_length(d.markdown), 0),
       char_length(d.text) + char_length(regexp_replace(d.text, '[^\\U00010000-\\U0010FFFF]', '', 'g')),
       char_length(d.markdown) + char_length(regexp_replace(d.markdown, '[^\\U00010000-\\U0010FFFF]', '', 'g')),
       d.docx, d.text, d.markdown
     FROM content_3 c JOIN documents d ON c.kind = 'd' AND d.id = c.id
     ON CONFLICT (owner_id, hash) DO NOTHING;
   INSERT INTO contents (owner_id, hash, size_bytes, text_chars, markdown_chars, docx, text, markdown)
     SELECT c.owner_id, c.hash, octet_length(v.docx) + octet_length(v.text) + coalesce(octet_length(v.markdown), 0),
       char_length(v.text) + char_length(regexp_replace(v.text, '[^\\U00010000-\\U0010FFFF]', '', 'g')),
       char_length(v.markdown) + char_length(regexp_replace(v.markdown, '[^\\U00010000-\\U0010FFFF]', '', 'g')),
       v.docx, v.text, v.markdown
     FROM content_3 c JOIN document_versions v ON c.kind = 'v' AND v.document_id = c.id AND v.version = c.version
     ON CONFLICT (owner_id, hash) DO NOTHING;
   INSERT INTO documents_3
     SELECT d.id, d.owner_id, d.name, d.name_folded, d.created_at, d.updated_at, d.version, d.updated_by, d.source, d.deleted_at,
       d.size_bytes, d.characters, c.hash
     FROM documents d JOIN content_3 c ON c.kind = 'd' AND c.id = d.id;
   INSERT INTO document_versions_3
     SELECT v.document_id, v.version, c.owner_id, v.name, v.created_at, v.created_by, v.replaced_at, v.source, v.size_bytes,
       v.characters, c.hash
     FROM document_versions v JOIN content_3 c ON c.kind = 'v' AND c.id = v.document_id AND c.version = v.version;
   DROP TABLE document_versions;
   DROP TABLE documents;
   ALTER TABLE documents_3 RENAME TO documents;
   ALTER INDEX documents_3_pkey RENAME TO documents_pkey;
   ALTER TABLE document_versions_3 RENAME TO document_versions;
   ALTER INDEX document_versions_3_pkey RENAME TO document_versions_pkey;
   CREATE INDEX documents_owner_id ON documents (owner_id, id DESC);
   CREATE INDEX documents_deleted_at ON documents (deleted_at) WHERE deleted_at IS NOT NULL;
   CREATE INDEX documents_content ON documents (owner_id, content_hash);
   CREATE INDEX document_versions_replaced_at ON document_versions (replaced_at);
   CREATE INDEX document_versions_content ON document_versions (owner_id, content_hash);
   CREATE TABLE storage_usage (
     owner_id text COLLATE "C" PRIMARY KEY,
     bytes bigint NOT NULL
   );
   INSERT INTO storage_usage (owner_id, bytes) SELECT owner_id, sum(size_bytes) FROM contents GROUP BY owner_id;`,
  // Idempotency records keep the first response and are keyed by operation; version 1's author is
  // the user, not the owner key (see sqlite/migrations.ts, version 4).
  `ALTER TABLE idempotency ADD COLUMN operation text COLLATE "C" NOT NULL DEFAULT 'documents.create';
   ALTER TABLE idempotency ALTER COLUMN operation DROP DEFAULT;
   ALTER TABLE idempotency ADD COLUMN response text;
   ALTER TABLE idempotency RENAME COLUMN document_id TO target_id;
   ALTER TABLE idempotency DROP CONSTRAINT idempotency_pkey;
   ALTER TABLE idempotency ADD CONSTRAINT idempotency_pkey PRIMARY KEY (owner_id, operation, key);
   ALTER INDEX idempotency_document RENAME TO idempotency_target;
   UPDATE documents SET updated_by = split_part(updated_by, chr(31), 1) WHERE strpos(updated_by, chr(31)) > 0;
   UPDATE document_versions SET created_by = split_part(created_by, chr(31), 1) WHERE strpos(created_by, chr(31)) > 0;`,
  // Workbooks, their blobs and value tiles; shares of either kind (see sqlite/migrations.ts, version 5).
  // Nothing writes workbook_values any more (the engine keeps a version's values as blobs); it is
  // dropped once no release that purges from it can still run beside this one (a rolling deploy).
  `CREATE TABLE workbooks (
     id text COLLATE "C" PRIMARY KEY,
     owner_id text COLLATE "C" NOT NULL,
     name text NOT NULL,
     name_folded text NOT NULL,
     created_at text COLLATE "C" NOT NULL,
     updated_at text COLLATE "C" NOT NULL,
     version integer NOT NULL,
     updated_by text COLLATE "C" NOT NULL,
     source text NOT NULL,
     deleted_at text COLLATE "C",
     size_bytes bigint NOT NULL,
     cells bigint NOT NULL,
     sheets text NOT NULL,
     manifest_hash text COLLATE "C" NOT NULL
   );
   CREATE INDEX workbooks_owner_id ON workbooks (owner_id, id DESC);
   CREATE INDEX workbooks_deleted_at ON workbooks (deleted_at) WHERE deleted_at IS NOT NULL;
   CREATE INDEX workbooks_manifest ON workbooks (owner_id, manifest_hash);
   CREATE TABLE workbook_versions (
     workbook_id text COLLATE "C" NOT NULL,
     version integer NOT NULL,
     owner_id text COLLATE "C" NOT NULL,
     name text NOT NULL,
     created_at text COLLATE "C" NOT NULL,
     created_by text COLLATE "C" NOT NULL,
     replaced_at text COLLATE "C" NOT NULL,
     source text NOT NULL,
     size_bytes bigint NOT NULL,
     cells bigint NOT NULL,
     sheets text NOT NULL,
     manifest_hash text COLLATE "C" NOT NULL,
     PRIMARY KEY (workbook_id, version)
   );
   CREATE INDEX workbook_versions_replaced_at ON workbook_versions (replaced_at);
   CREATE INDEX workbook_versions_manifest ON workbook_versions (owner_id, manifest_hash);
   CREATE TABLE blobs (
     owner_id text COLLATE "C" NOT NULL,
     hash text COLLATE "C" NOT NULL,
     size bigint NOT NULL,
     bytes bytea NOT NULL,
     PRIMARY KEY (owner_id, hash)
   );
   CREATE TABLE blob_refs (
     owner_id text COLLATE "C" NOT NULL,
     parent_hash text COLLATE "C" NOT NULL,
     child_hash text COLLATE "C" NOT NULL,
     PRIMARY KEY (owner_id, parent_hash, child_hash)
   );
   CREATE INDEX blob_refs_child ON blob_refs (owner_id, child_hash);
   CREATE TABLE workbook_values (
     workbook_id text COLLATE "C" NOT NULL,
     tile_key text COLLATE "C" NOT NULL,
     version integer NOT NULL,
     bytes bytea NOT NULL,
     PRIMARY KEY (workbook_id, tile_key)
   );
   ALTER TABLE document_shares RENAME TO shares;
   ALTER TABLE shares RENAME COLUMN document_id TO target_id;
   ALTER TABLE shares ADD COLUMN kind text NOT NULL DEFAULT 'document';
   ALTER TABLE shares ALTER COLUMN kind DROP DEFAULT;
   ALTER INDEX document_shares_pkey RENAME TO shares_pkey;
   ALTER INDEX document_shares_token_hash_key RENAME TO shares_token_hash_key;
   ALTER INDEX document_shares_document RENAME TO shares_target;
   ALTER INDEX document_shares_expires_at RENAME TO shares_expires_at;`,
  // The owner's application (types/sessions.ts): sessions behind its cookie, and one-time sign-in
  // links. A session opened by an API key names it, so a revoked key ends its sessions at once.
  `CREATE TABLE sessions (
     id text COLLATE "C" PRIMARY KEY,
     token_hash text COLLATE "C" NOT NULL UNIQUE,
     user_id text COLLATE "C" NOT NULL,
     tenant text,
     scopes text[] NOT NULL,
     method text NOT NULL,
     key_id text COLLATE "C",
     created_at text COLLATE "C" NOT NULL,
     expires_at text COLLATE "C" NOT NULL,
     ended_at text COLLATE "C"
   );
   CREATE INDEX sessions_key ON sessions (key_id) WHERE key_id IS NOT NULL;
   CREATE INDEX sessions_expires_at ON sessions (expires_at);
   CREATE TABLE sign_in_links (
     id text COLLATE "C" PRIMARY KEY,
     token_hash text COLLATE "C" NOT NULL UNIQUE,
     user_id text COLLATE "C" NOT NULL,
     tenant text,
     scopes text[] NOT NULL,
     created_at text COLLATE "C" NOT NULL,
     expires_at text COLLATE "C" NOT NULL,
     used_at text COLLATE "C"
   );
   CREATE INDEX sign_in_links_expires_at ON sign_in_links (expires_at);`,
  // An owner's live items, newest first (the lists, the owner's application): an index whose
  // predicate is the lists' own, so the planner walks it in order and stops after a page whatever
  // its statistics say. On (owner_id, id DESC) alone, a table not yet analyzed (a bulk import
  // minutes old) was read whole and sorted: 10 ms for a page of 10,000 items instead of 0.1.
  `CREATE INDEX documents_live ON documents (owner_id, id DESC) WHERE deleted_at IS NULL;
   CREATE INDEX workbooks_live ON workbooks (owner_id, id DESC) WHERE deleted_at IS NULL;`,
];

/**
 * Applies pending migrations in one transaction under a transaction-scoped advisory lock, so
 * replicas starting together wait for each other instead of racing; the lock is per schema
 * (current_schema()), so separate schemas in one database do not block each other.
 */
export async function migrate(pool: pg.Pool): Promise<void> {
  await inTransaction(pool, async (client) => {
    // A migration may take longer than PG_STATEMENT_TIMEOUT_MS (an index on a large table).
    await client.query(`SET LOCAL statement_timeout = 0`);
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('workspace-gateway:schema_migrations:' || coalesce(current_schema(), '')))`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version integer PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ version: number }>(`SELECT version FROM schema_migrations`);
    const applied = new Set(rows.map((row) => row.version));
    for (const [index, sql] of postgresMigrations.entries()) {
      const version = index + 1;
      if (applied.has(version)) continue;
      await client.query(sql);
      await client.query(`INSERT INTO schema_migrations (version) VALUES ($1)`, [version]);
    }
  });
}
