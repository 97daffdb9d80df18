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
