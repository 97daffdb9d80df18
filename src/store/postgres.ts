// Shared store: PostgreSQL through a small connection pool, for running several gateway replicas.
// Same schema and semantics as the SQLite store (sqlite.ts is the reference): timestamps are the
// ISO strings the service hands in, stored as text, so they come back byte-for-byte and compare
// exactly like they do in SQLite. Every text key column uses the "C" collation so ordering and
// `<` are plain byte order whatever the database's default collation is.
import pg from "pg";
import { GatewayError } from "../core/errors.ts";
import {
  foldName,
  newRecord,
  type ApiKeyRecord,
  type CreateResult,
  type DocumentRecord,
  type IdempotencyHit,
  type ListQuery,
  type Store,
  type VersionRecord,
} from "./types.ts";
import {
  bytesOf,
  currentVersion,
  documentSummaryColumns,
  documentSummaryColumnsOf,
  shareColumns,
  toBuffer,
  toDocument,
  toShare,
  toVersion,
  versionSummaryColumns,
  type DocumentRow,
  type ShareRow,
  type VersionRow,
} from "./rows.ts";
import { coalescer } from "./coalesce.ts";

/** Append-only: version N is migrations[N - 1]. Never edit an entry once released. */
const migrations: string[] = [
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
  // Living documents (see sqlite-migrations.ts): version, author and source of the current version,
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

interface ApiKeyRow {
  id: string;
  user_id: string;
  tenant: string | null;
  scopes: string[];
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
  scopes: row.scopes,
  hash: row.hash,
  prefix: row.prefix,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
});

/** The pool's settings (PG_* variables, docs/deploy.md#postgresql). */
export interface PostgresSettings {
  poolMax: number;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  /** 0: none. Sent as a startup parameter, so it holds for every statement on every connection. */
  statementTimeoutMs: number;
  /**
   * Behind PgBouncer in transaction mode: nothing session-scoped. PgBouncer refuses startup
   * parameters it does not know (statement_timeout, options) unless told to ignore them, so none
   * is sent; set the timeout on the role instead (ALTER ROLE … SET statement_timeout). Statements
   * are unnamed (no prepared statement outlives its transaction). The store never relies on
   * session state otherwise: no SET, and the migration lock is transaction-scoped
   * (pg_advisory_xact_lock).
   */
  pgbouncer: boolean;
}

export const defaultPostgresSettings: PostgresSettings = {
  poolMax: 10,
  connectTimeoutMs: 10_000,
  idleTimeoutMs: 30_000,
  statementTimeoutMs: 30_000,
  pgbouncer: false,
};

/** Connection-level failures (network, PostgreSQL restarting or refusing, pool timeout), as opposed to a bad statement. */
const unavailableCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006", // connection exceptions
  "57P01",
  "57P02",
  "57P03", // admin_shutdown, crash_shutdown, cannot_connect_now
  "53300", // too_many_connections
]);

/**
 * A database that cannot be reached is a 503 with Retry-After for the caller (docs/deploy.md),
 * not a 500: the request can be retried once PostgreSQL is back, with no restart of the gateway.
 */
function asUnavailable(error: unknown): unknown {
  if (error instanceof GatewayError || !(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  const connectionLevel =
    (typeof code === "string" && unavailableCodes.has(code)) ||
    /timeout exceeded when trying to connect|Connection terminated/i.test(error.message);
  return connectionLevel
    ? new GatewayError("SERVICE_UNAVAILABLE", "The document store is unavailable; retry shortly", { retryAfter: 1, cause: error })
    : error;
}

/** The store, and its pool for tests and diagnostics. */
export type PostgresStore = Store & { readonly pool: pg.Pool };

export async function openPostgresStore(url: string, options: Partial<PostgresSettings> = {}): Promise<PostgresStore> {
  const settings = { ...defaultPostgresSettings, ...options };
  const pool = new pg.Pool({
    connectionString: url,
    // pg-pool reads its size and timeouts only from here, never from the URL.
    max: settings.poolMax,
    // Fail a request (and readiness) instead of queueing forever when the database is unreachable.
    connectionTimeoutMillis: settings.connectTimeoutMs,
    idleTimeoutMillis: settings.idleTimeoutMs,
    // Connection parameters in the URL (application_name, options…) win over these.
    application_name: "workspace-gateway",
    ...(settings.statementTimeoutMs > 0 && !settings.pgbouncer ? { statement_timeout: settings.statementTimeoutMs } : {}),
  });
  // An idle client losing its connection emits 'error' on the pool; without a listener that would
  // crash the process. The pool drops the client, and the next query reports the problem itself.
  pool.on("error", () => {});

  try {
    await migrate(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }

  let closing: Promise<void> | undefined;
  /**
   * The hot reads as named prepared statements: parsed and planned once per connection, then only
   * bound and executed. Not behind PgBouncer in transaction mode, where the next transaction may
   * run on a server connection that never saw the Parse.
   */
  const prepared = (name: string, text: string, values: unknown[]): pg.QueryConfig =>
    settings.pgbouncer ? { text, values } : { name: `wg_${name}`, text, values };

  const live = "deleted_at IS NULL";

  // The per-request reads of the read path (an API key, then a document's text), coalesced
  // (coalesce.ts): the statement finds rows by primary or unique key only, and each caller keeps
  // the row only if it is its own (owner_id), as `owner_id = $1 AND id = $2` would.
  const apiKeys = coalescer<string, ApiKeyRow>(async (hashes) => {
    const { rows } = await pool.query<ApiKeyRow>(
      prepared(
        "find_api_key",
        `SELECT id, user_id, tenant, scopes, hash, prefix, created_at, expires_at, revoked_at FROM api_keys WHERE hash = ANY($1::text[])`,
        [hashes],
      ),
    );
    return new Map(rows.map((row) => [row.hash, row]));
  });
  type TextRow = DocumentRow & { body: string | null };
  const textReader = (column: "text" | "markdown") =>
    coalescer<string, TextRow>(async (ids) => {
      const { rows } = await pool.query<TextRow>(
        prepared(
          `read_${column}`,
          `SELECT ${documentSummaryColumns}, ${column} AS body FROM documents WHERE id = ANY($1::text[]) AND ${live}`,
          [ids],
        ),
      );
      return new Map(rows.map((row) => [row.id, row]));
    });
  const textReads = { text: textReader("text"), markdown: textReader("markdown") };
  // PostgreSQL text cannot hold NUL: such a key would fail the whole batch, and matches nothing anyway.
  const hasNul = (...values: string[]) => values.some((value) => value.includes("\u0000"));

  /** Live or trashed documents, newest first, one prepared statement per shape. */
  async function list(query: ListQuery, trashed: boolean): Promise<DocumentRecord[]> {
    // No name holds a control character, and PostgreSQL text cannot hold NUL (an error, not "no match").
    if (query.nameContains?.includes("\u0000")) return [];
    const params: unknown[] = [query.ownerId];
    let where = `owner_id = $1 AND deleted_at IS ${trashed ? "NOT NULL" : "NULL"}`;
    if (query.beforeId !== undefined) {
      params.push(query.beforeId);
      where += ` AND id < $${params.length}`;
    }
    if (query.nameContains !== undefined) {
      // strpos, not LIKE: '%' and '_' in the needle are literal characters.
      params.push(query.nameContains);
      where += ` AND strpos(name_folded, $${params.length}) > 0`;
    }
    params.push(query.limit);
    const shape = `${trashed ? "trash" : "list"}_${query.beforeId !== undefined ? "c" : ""}${query.nameContains !== undefined ? "q" : ""}`;
    const { rows } = await pool.query<DocumentRow>(
      prepared(shape, `SELECT ${documentSummaryColumns} FROM documents WHERE ${where} ORDER BY id DESC LIMIT $${params.length}`, params),
    );
    return rows.map(toDocument);
  }

  /** The live document, locked for the rest of the transaction (concurrent changes queue behind it). */
  async function lockLive(client: pg.PoolClient, ownerId: string, id: string): Promise<DocumentRecord | null> {
    const { rows } = await client.query<DocumentRow>(
      `SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = $1 AND id = $2 AND ${live} FOR UPDATE`,
      [ownerId, id],
    );
    const row = rows[0];
    return row ? toDocument(row) : null;
  }

  async function purgeOne(client: pg.PoolClient, id: string): Promise<void> {
    await client.query(`DELETE FROM document_versions WHERE document_id = $1`, [id]);
    await client.query(`DELETE FROM document_shares WHERE document_id = $1`, [id]);
    await client.query(`DELETE FROM idempotency WHERE document_id = $1`, [id]);
    await client.query(`DELETE FROM documents WHERE id = $1`, [id]);
  }

  /**
   * Version n of a live document with the given columns: the current version from the document
   * row, an earlier one from its history, in one round trip.
   */
  async function versionRow<T>(
    ownerId: string,
    id: string,
    n: number,
    columns: string,
  ): Promise<{ document: DocumentRecord; version: VersionRecord; row: T } | null> {
    if (!Number.isSafeInteger(n) || n < 1 || n > 2_147_483_647) return null;
    const { rows } = await pool.query<DocumentRow & { v_version: number | null } & Record<string, unknown>>(
      `SELECT ${documentSummaryColumnsOf("d")}, v.version AS v_version, v.name AS v_name, v.created_at AS v_created_at,
         v.created_by AS v_created_by, v.size_bytes AS v_size_bytes, v.characters AS v_characters, v.source AS v_source,
         ${columns
           .split(", ")
           .map((column) => {
             const [expression, alias] = column.split(" AS ");
             return `CASE WHEN d.version = $3 THEN d.${expression} ELSE v.${expression} END AS ${alias ?? expression}`;
           })
           .join(", ")}
       FROM documents d LEFT JOIN document_versions v ON v.document_id = d.id AND v.version = $3
       WHERE d.owner_id = $1 AND d.id = $2 AND d.deleted_at IS NULL`,
      [ownerId, id, n],
    );
    const row = rows[0];
    if (!row) return null;
    const document = toDocument(row);
    if (n === document.version) return { document, version: currentVersion(document), row: row as unknown as T };
    if (row.v_version === null) return null;
    const version = toVersion({
      version: row.v_version,
      name: row["v_name"] as string,
      created_at: row["v_created_at"] as string,
      created_by: row["v_created_by"] as string,
      size_bytes: row["v_size_bytes"] as number,
      characters: row["v_characters"] as number,
      source: row["v_source"] as string,
    });
    return { document, version, row: row as unknown as T };
  }

  const store: PostgresStore = {
    kind: "postgres",
    pool,

    // The idempotency record is claimed first (INSERT ... ON CONFLICT on its primary key), then
    // the document is inserted, in one transaction. A concurrent create with the same key blocks on
    // the claimed row until the first transaction ends; if that committed, the loser finds a fresh
    // record, inserts nothing and answers with the winner's document.
    async createDocument(doc, claim): Promise<CreateResult> {
      return inTransaction(pool, async (client) => {
        if (claim) {
          const claimed = await client.query(
            `INSERT INTO idempotency (owner_id, key, fingerprint, document_id, created_at)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (owner_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
               document_id = EXCLUDED.document_id, created_at = EXCLUDED.created_at
             WHERE idempotency.created_at < $6`,
            [doc.ownerId, claim.key, claim.fingerprint, doc.id, doc.createdAt, claim.notBefore],
          );
          if (claimed.rowCount === 0) {
            // A fresh record exists; ON CONFLICT DO UPDATE has locked it even though it updated nothing.
            const hit = await client.query<{ document_id: string; fingerprint: string }>(
              `SELECT document_id, fingerprint FROM idempotency WHERE owner_id = $1 AND key = $2`,
              [doc.ownerId, claim.key],
            );
            const record = hit.rows[0];
            if (record) {
              const existing = await client.query<DocumentRow>(
                `SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = $1 AND id = $2`,
                [doc.ownerId, record.document_id],
              );
              const row = existing.rows[0];
              if (row) return { document: toDocument(row), replayed: true, fingerprint: record.fingerprint };
            }
            // The record points at a missing document: like SQLite, create the document and leave the record.
          }
        }
        const record = newRecord(doc);
        await client.query(
          `INSERT INTO documents (id, owner_id, name, name_folded, created_at, updated_at, size_bytes, characters, docx, text,
             markdown, version, updated_by, source)
           VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9, $10, 1, $2, $11)`,
          [
            record.id,
            record.ownerId,
            record.name,
            foldName(record.name),
            record.createdAt,
            record.sizeBytes,
            record.characters,
            toBuffer(doc.docx),
            doc.text,
            doc.markdown,
            record.source,
          ],
        );
        return { document: record, replayed: false, fingerprint: claim?.fingerprint ?? "" };
      });
    },

    async findIdempotent(ownerId, key, notBefore): Promise<IdempotencyHit | null> {
      const { rows } = await pool.query<{ document_id: string; fingerprint: string }>(
        prepared(
          "find_idempotent",
          `SELECT document_id, fingerprint FROM idempotency WHERE owner_id = $1 AND key = $2 AND created_at >= $3`,
          [ownerId, key, notBefore],
        ),
      );
      const row = rows[0];
      return row ? { documentId: row.document_id, fingerprint: row.fingerprint } : null;
    },

    async getDocument(ownerId, id, options) {
      const { rows } = await pool.query<DocumentRow>(
        options?.includeDeleted
          ? prepared("get_any_document", `SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = $1 AND id = $2`, [ownerId, id])
          : prepared("get_document", `SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = $1 AND id = $2 AND ${live}`, [
              ownerId,
              id,
            ]),
      );
      const row = rows[0];
      return row ? toDocument(row) : null;
    },

    async getDocuments(ownerId, ids) {
      if (ids.length === 0) return [];
      const { rows } = await pool.query<DocumentRow>(
        prepared(
          "get_documents",
          `SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = $1 AND id = ANY($2::text[]) AND ${live}`,
          [ownerId, [...ids]],
        ),
      );
      return rows.map(toDocument);
    },

    async readText(ownerId, id, format = "text") {
      if (hasNul(ownerId, id)) return null;
      const row = await textReads[format === "markdown" ? "markdown" : "text"].load(id);
      return row && row.owner_id === ownerId ? { document: toDocument(row), text: row.body } : null;
    },

    async readContent(ownerId, id) {
      const { rows } = await pool.query<DocumentRow & { docx: Buffer }>(
        prepared("read_content", `SELECT ${documentSummaryColumns}, docx FROM documents WHERE owner_id = $1 AND id = $2 AND ${live}`, [
          ownerId,
          id,
        ]),
      );
      const row = rows[0];
      return row ? { document: toDocument(row), docx: bytesOf(row.docx) } : null;
    },

    async listDocuments(query: ListQuery) {
      return list(query, false);
    },

    async changeDocument(input) {
      return inTransaction(pool, async (client) => {
        const current = await lockLive(client, input.ownerId, input.id);
        if (!current) return { ok: false, reason: "not_found" } as const;
        if (input.expectedVersion !== undefined && input.expectedVersion !== current.version) {
          return { ok: false, reason: "conflict", current: current.version } as const;
        }
        await client.query(
          `INSERT INTO document_versions (document_id, version, name, created_at, created_by, replaced_at, source, size_bytes,
             characters, docx, text, markdown)
           SELECT id, version, name, updated_at, updated_by, $2, source, size_bytes, characters, docx, text, markdown
           FROM documents WHERE id = $1`,
          [input.id, input.at],
        );
        const name = input.name ?? current.name;
        const head = [input.id, name, foldName(name), input.at, input.actorId, input.source];
        const { rows } = input.content
          ? await client.query<DocumentRow>(
              `UPDATE documents SET name = $2, name_folded = $3, updated_at = $4, updated_by = $5, source = $6,
                 version = version + 1, size_bytes = $7, characters = $8, docx = $9, text = $10, markdown = $11
               WHERE id = $1 RETURNING ${documentSummaryColumns}`,
              [
                ...head,
                input.content.docx.byteLength,
                input.content.text.length,
                toBuffer(input.content.docx),
                input.content.text,
                input.content.markdown,
              ],
            )
          : await client.query<DocumentRow>(
              `UPDATE documents SET name = $2, name_folded = $3, updated_at = $4, updated_by = $5, source = $6, version = version + 1
               WHERE id = $1 RETURNING ${documentSummaryColumns}`,
              head,
            );
        return { ok: true, document: toDocument(rows[0]!) } as const;
      });
    },

    async trashDocument({ ownerId, id, at, expectedVersion }) {
      return inTransaction(pool, async (client) => {
        const current = await lockLive(client, ownerId, id);
        if (!current) return { ok: false, reason: "not_found" } as const;
        if (expectedVersion !== undefined && expectedVersion !== current.version) {
          return { ok: false, reason: "conflict", current: current.version } as const;
        }
        await client.query(`UPDATE documents SET deleted_at = $2 WHERE id = $1`, [id, at]);
        return { ok: true, document: { ...current, deletedAt: at } } as const;
      });
    },

    async listTrash(query) {
      return list(query, true);
    },

    async restoreFromTrash(ownerId, id) {
      const { rows } = await pool.query<DocumentRow>(
        `UPDATE documents SET deleted_at = NULL WHERE owner_id = $1 AND id = $2 AND deleted_at IS NOT NULL
         RETURNING ${documentSummaryColumns}`,
        [ownerId, id],
      );
      const row = rows[0];
      return row ? toDocument(row) : null;
    },

    async purgeDocument(ownerId, id) {
      return inTransaction(pool, async (client) => {
        const { rows } = await client.query(
          `SELECT id FROM documents WHERE owner_id = $1 AND id = $2 AND deleted_at IS NOT NULL FOR UPDATE`,
          [ownerId, id],
        );
        if (rows.length === 0) return false;
        await purgeOne(client, id);
        return true;
      });
    },

    async purgeTrash(deletedBefore) {
      return inTransaction(pool, async (client) => {
        const { rows } = await client.query<{ id: string }>(
          `SELECT id FROM documents WHERE deleted_at IS NOT NULL AND deleted_at < $1 FOR UPDATE SKIP LOCKED`,
          [deletedBefore],
        );
        for (const row of rows) await purgeOne(client, row.id);
        return rows.length;
      });
    },

    async listVersions({ ownerId, id, beforeVersion, limit }) {
      const document = await store.getDocument(ownerId, id);
      if (!document) return null;
      // Versions are integer columns: a larger bound (any cursor a caller makes up) is "all of them", as in SQLite, not an error.
      const before = Math.min(beforeVersion ?? 2_147_483_647, 2_147_483_647);
      const head = document.version < before ? [currentVersion(document)] : [];
      const rest = limit - head.length;
      if (rest <= 0) return head;
      const { rows } = await pool.query<VersionRow>(
        `SELECT ${versionSummaryColumns} FROM document_versions WHERE document_id = $1 AND version < $2 ORDER BY version DESC LIMIT $3`,
        [id, before, rest],
      );
      return [...head, ...rows.map(toVersion)];
    },

    async readVersionText(ownerId, id, n, format = "text") {
      const column = format === "markdown" ? "markdown" : "text";
      const found = await versionRow<{ body: string | null }>(ownerId, id, n, column === "text" ? "text AS body" : "markdown AS body");
      return found ? { document: found.document, version: found.version, text: found.row.body } : null;
    },

    async readVersionContent(ownerId, id, n) {
      const found = await versionRow<{ docx: Buffer }>(ownerId, id, n, "docx");
      return found ? { document: found.document, version: found.version, docx: bytesOf(found.row.docx) } : null;
    },

    async readVersionData(ownerId, id, n) {
      const found = await versionRow<{ docx: Buffer; text: string; markdown: string | null }>(ownerId, id, n, "docx, text, markdown");
      return found ? { docx: bytesOf(found.row.docx), text: found.row.text, markdown: found.row.markdown } : null;
    },

    async pruneVersions(replacedBefore, keepMin) {
      const result = await pool.query(
        `DELETE FROM document_versions v USING documents d
         WHERE d.id = v.document_id AND v.replaced_at < $1 AND v.version <= d.version - $2`,
        [replacedBefore, keepMin],
      );
      return result.rowCount ?? 0;
    },

    async insertShare(share) {
      await pool.query(
        `INSERT INTO document_shares (id, document_id, owner_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [share.id, share.documentId, share.ownerId, share.tokenHash, share.createdAt, share.expiresAt],
      );
    },

    async listShares(ownerId, documentId, now) {
      const { rows } = await pool.query<ShareRow>(
        `SELECT ${shareColumns} FROM document_shares WHERE owner_id = $1 AND document_id = $2 AND expires_at > $3
         ORDER BY created_at DESC, id DESC`,
        [ownerId, documentId, now],
      );
      return rows.map(toShare);
    },

    async deleteShare(ownerId, documentId, shareId) {
      const result = await pool.query(`DELETE FROM document_shares WHERE owner_id = $1 AND document_id = $2 AND id = $3`, [
        ownerId,
        documentId,
        shareId,
      ]);
      return (result.rowCount ?? 0) > 0;
    },

    async findShare(tokenHash, now) {
      const { rows } = await pool.query<DocumentRow & { share_id: string; share_created_at: string; share_expires_at: string }>(
        prepared(
          "find_share",
          `SELECT s.id AS share_id, s.created_at AS share_created_at, s.expires_at AS share_expires_at, ${documentSummaryColumnsOf("d")}
           FROM document_shares s JOIN documents d ON d.id = s.document_id AND d.owner_id = s.owner_id
           WHERE s.token_hash = $1 AND s.expires_at > $2 AND d.deleted_at IS NULL`,
          [tokenHash, now],
        ),
      );
      const row = rows[0];
      if (!row) return null;
      return {
        share: {
          id: row.share_id,
          documentId: row.id,
          ownerId: row.owner_id,
          createdAt: row.share_created_at,
          expiresAt: row.share_expires_at,
        },
        document: toDocument(row),
      };
    },

    async pruneShares(expiredBefore) {
      const result = await pool.query(`DELETE FROM document_shares WHERE expires_at < $1`, [expiredBefore]);
      return result.rowCount ?? 0;
    },

    async insertApiKey(key) {
      await pool.query(
        `INSERT INTO api_keys (id, user_id, tenant, scopes, hash, prefix, created_at, expires_at, revoked_at)
         VALUES ($1, $2, $3, $4::text[], $5, $6, $7, $8, $9)`,
        [key.id, key.userId, key.tenant, key.scopes, key.hash, key.prefix, key.createdAt, key.expiresAt, key.revokedAt],
      );
    },

    async findApiKeyByHash(hash) {
      if (hasNul(hash)) return null;
      const row = await apiKeys.load(hash);
      return row ? toApiKey(row) : null;
    },

    async listApiKeys(userId) {
      const { rows } =
        userId === undefined
          ? await pool.query<ApiKeyRow>(`SELECT * FROM api_keys ORDER BY created_at, id`)
          : await pool.query<ApiKeyRow>(`SELECT * FROM api_keys WHERE user_id = $1 ORDER BY created_at, id`, [userId]);
      return rows.map(toApiKey);
    },

    async revokeApiKey(id, at) {
      // Revoking twice keeps the first instant and still reports that the key exists.
      const result = await pool.query(`UPDATE api_keys SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2`, [at, id]);
      return (result.rowCount ?? 0) > 0;
    },

    async pruneIdempotency(olderThan) {
      const result = await pool.query(`DELETE FROM idempotency WHERE created_at < $1`, [olderThan]);
      return result.rowCount ?? 0;
    },

    async ping() {
      await pool.query(`SELECT 1`);
    },

    poolStats: () => ({ max: settings.poolMax, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),

    async close() {
      closing ??= pool.end();
      await closing;
    },
  };
  const methods = store as unknown as Record<string, unknown>;
  for (const [name, method] of Object.entries(store)) {
    if (typeof method !== "function" || name === "close" || name === "poolStats") continue;
    const call = method as (...args: unknown[]) => Promise<unknown>;
    methods[name] = async (...args: unknown[]) => {
      try {
        return await call.apply(store, args);
      } catch (error) {
        throw asUnavailable(error);
      }
    };
  }
  return store;
}

async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A client whose ROLLBACK failed is in an unknown state: destroy it instead of returning it to the pool.
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((rollbackError: unknown) => {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * Applies pending migrations in one transaction under a transaction-scoped advisory lock, so
 * replicas starting together wait for each other instead of racing; the lock is per schema
 * (current_schema()), so separate schemas in one database do not block each other.
 */
async function migrate(pool: pg.Pool): Promise<void> {
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
    for (const [index, sql] of migrations.entries()) {
      const version = index + 1;
      if (applied.has(version)) continue;
      await client.query(sql);
      await client.query(`INSERT INTO schema_migrations (version) VALUES ($1)`, [version]);
    }
  });
}
