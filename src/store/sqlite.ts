// Embedded store: one SQLite file under DATA_DIR, WAL mode, versioned migrations.
// better-sqlite3 is synchronous, so a transaction can never interleave with another request.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import {
  foldName,
  newRecord,
  type ApiKeyRecord,
  type ChangeResult,
  type CreateResult,
  type DocumentChange,
  type DocumentContent,
  type DocumentRecord,
  type IdempotencyClaim,
  type IdempotencyHit,
  type ListQuery,
  type NewDocument,
  type NewShare,
  type Store,
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
import { sqliteMigrations } from "./sqlite-migrations.ts";

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

export function openSqliteStore(dataDir: string): Store {
  const db = new Database(createPrivately(dataDir));
  db.pragma("journal_mode = WAL");
  // NORMAL is durable against a process crash in WAL mode; only power loss could drop the last commit.
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  migrate(db);

  const live = "deleted_at IS NULL";
  const stmt = {
    insertDocument: db.prepare(
      `INSERT INTO documents (id, owner_id, name, name_folded, created_at, updated_at, size_bytes, characters, docx, text,
         markdown, version, updated_by, source)
       VALUES (@id, @ownerId, @name, @nameFolded, @createdAt, @createdAt, @sizeBytes, @characters, @docx, @text,
         @markdown, 1, @ownerId, @source)`,
    ),
    insertIdempotency: db.prepare(
      `INSERT INTO idempotency (owner_id, key, fingerprint, document_id, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (owner_id, key) DO UPDATE SET fingerprint = excluded.fingerprint,
         document_id = excluded.document_id, created_at = excluded.created_at
       WHERE idempotency.created_at < ?`,
    ),
    findIdempotency: db.prepare(`SELECT document_id, fingerprint FROM idempotency WHERE owner_id = ? AND key = ? AND created_at >= ?`),
    getDocument: db.prepare(`SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = ? AND id = ? AND ${live}`),
    getAnyDocument: db.prepare(`SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = ? AND id = ?`),
    readText: db.prepare(`SELECT ${documentSummaryColumns}, text FROM documents WHERE owner_id = ? AND id = ? AND ${live}`),
    readMarkdown: db.prepare(`SELECT ${documentSummaryColumns}, markdown AS text FROM documents WHERE owner_id = ? AND id = ? AND ${live}`),
    readContent: db.prepare(`SELECT ${documentSummaryColumns}, docx FROM documents WHERE owner_id = ? AND id = ? AND ${live}`),
    readData: db.prepare(`SELECT docx, text, markdown FROM documents WHERE owner_id = ? AND id = ? AND ${live}`),
    list: db.prepare(
      `SELECT ${documentSummaryColumns} FROM documents
       WHERE owner_id = @ownerId AND ${live} AND (@beforeId IS NULL OR id < @beforeId)
         AND (@needle IS NULL OR instr(name_folded, @needle) > 0)
       ORDER BY id DESC LIMIT @limit`,
    ),
    listTrash: db.prepare(
      `SELECT ${documentSummaryColumns} FROM documents
       WHERE owner_id = @ownerId AND deleted_at IS NOT NULL AND (@beforeId IS NULL OR id < @beforeId)
         AND (@needle IS NULL OR instr(name_folded, @needle) > 0)
       ORDER BY id DESC LIMIT @limit`,
    ),
    keepVersion: db.prepare(
      `INSERT INTO document_versions (document_id, version, name, created_at, created_by, replaced_at, source, size_bytes,
         characters, docx, text, markdown)
       SELECT id, version, name, updated_at, updated_by, @at, source, size_bytes, characters, docx, text, markdown
       FROM documents WHERE id = @id`,
    ),
    changeContent: db.prepare(
      `UPDATE documents SET name = @name, name_folded = @nameFolded, updated_at = @at, updated_by = @actorId, source = @source,
         version = version + 1, size_bytes = @sizeBytes, characters = @characters, docx = @docx, text = @text, markdown = @markdown
       WHERE id = @id`,
    ),
    changeName: db.prepare(
      `UPDATE documents SET name = @name, name_folded = @nameFolded, updated_at = @at, updated_by = @actorId, source = @source,
         version = version + 1
       WHERE id = @id`,
    ),
    trash: db.prepare(`UPDATE documents SET deleted_at = ? WHERE id = ?`),
    untrash: db.prepare(`UPDATE documents SET deleted_at = NULL WHERE owner_id = ? AND id = ? AND deleted_at IS NOT NULL`),
    trashedBefore: db.prepare(`SELECT owner_id, id FROM documents WHERE deleted_at IS NOT NULL AND deleted_at < ?`),
    isTrashed: db.prepare(`SELECT 1 FROM documents WHERE owner_id = ? AND id = ? AND deleted_at IS NOT NULL`),
    purgeVersions: db.prepare(`DELETE FROM document_versions WHERE document_id = ?`),
    purgeShares: db.prepare(`DELETE FROM document_shares WHERE document_id = ?`),
    purgeIdempotency: db.prepare(`DELETE FROM idempotency WHERE document_id = ?`),
    purgeDocument: db.prepare(`DELETE FROM documents WHERE id = ?`),
    listVersions: db.prepare(
      `SELECT ${versionSummaryColumns} FROM document_versions
       WHERE document_id = @id AND version < @before ORDER BY version DESC LIMIT @limit`,
    ),
    getVersion: db.prepare(`SELECT ${versionSummaryColumns} FROM document_versions WHERE document_id = ? AND version = ?`),
    versionText: db.prepare(`SELECT ${versionSummaryColumns}, text FROM document_versions WHERE document_id = ? AND version = ?`),
    versionMarkdown: db.prepare(
      `SELECT ${versionSummaryColumns}, markdown AS text FROM document_versions WHERE document_id = ? AND version = ?`,
    ),
    versionContent: db.prepare(`SELECT ${versionSummaryColumns}, docx FROM document_versions WHERE document_id = ? AND version = ?`),
    versionData: db.prepare(`SELECT docx, text, markdown FROM document_versions WHERE document_id = ? AND version = ?`),
    pruneVersions: db.prepare(
      `DELETE FROM document_versions WHERE replaced_at < ?
         AND version <= (SELECT d.version FROM documents d WHERE d.id = document_versions.document_id) - ?`,
    ),
    insertShare: db.prepare(
      `INSERT INTO document_shares (id, document_id, owner_id, token_hash, created_at, expires_at)
       VALUES (@id, @documentId, @ownerId, @tokenHash, @createdAt, @expiresAt)`,
    ),
    listShares: db.prepare(
      `SELECT ${shareColumns} FROM document_shares WHERE owner_id = ? AND document_id = ? AND expires_at > ?
       ORDER BY created_at DESC, id DESC`,
    ),
    deleteShare: db.prepare(`DELETE FROM document_shares WHERE owner_id = ? AND document_id = ? AND id = ?`),
    findShare: db.prepare(
      `SELECT s.id AS share_id, s.created_at AS share_created_at, s.expires_at AS share_expires_at, ${documentSummaryColumnsOf("d")}
       FROM document_shares s JOIN documents d ON d.id = s.document_id AND d.owner_id = s.owner_id
       WHERE s.token_hash = ? AND s.expires_at > ? AND d.deleted_at IS NULL`,
    ),
    pruneShares: db.prepare(`DELETE FROM document_shares WHERE expires_at < ?`),
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

  const liveDocument = (ownerId: string, id: string): DocumentRecord | null => {
    const row = stmt.getDocument.get(ownerId, id) as DocumentRow | undefined;
    return row ? toDocument(row) : null;
  };

  // The document row and its idempotency record land together or not at all.
  const create = db.transaction((doc: NewDocument, claim: IdempotencyClaim | undefined): CreateResult => {
    if (claim) {
      const hit = stmt.findIdempotency.get(doc.ownerId, claim.key, claim.notBefore) as
        { document_id: string; fingerprint: string } | undefined;
      if (hit) {
        const existing = stmt.getAnyDocument.get(doc.ownerId, hit.document_id) as DocumentRow | undefined;
        if (existing) return { document: toDocument(existing), replayed: true, fingerprint: hit.fingerprint };
      }
    }
    const record = newRecord(doc);
    stmt.insertDocument.run({
      id: record.id,
      ownerId: record.ownerId,
      name: record.name,
      createdAt: record.createdAt,
      sizeBytes: record.sizeBytes,
      characters: record.characters,
      nameFolded: foldName(doc.name),
      docx: toBuffer(doc.docx),
      text: doc.text,
      markdown: doc.markdown,
      source: record.source,
    });
    if (claim) {
      stmt.insertIdempotency.run(doc.ownerId, claim.key, claim.fingerprint, doc.id, doc.createdAt, claim.notBefore);
    }
    return { document: record, replayed: false, fingerprint: claim?.fingerprint ?? "" };
  });

  // The current version is copied into document_versions, then replaced, in one transaction; a
  // stale expectedVersion writes nothing.
  const change = db.transaction((input: DocumentChange): ChangeResult => {
    const current = liveDocument(input.ownerId, input.id);
    if (!current) return { ok: false, reason: "not_found" };
    if (input.expectedVersion !== undefined && input.expectedVersion !== current.version) {
      return { ok: false, reason: "conflict", current: current.version };
    }
    stmt.keepVersion.run({ id: input.id, at: input.at });
    const name = input.name ?? current.name;
    const common = { id: input.id, name, nameFolded: foldName(name), at: input.at, actorId: input.actorId, source: input.source };
    if (input.content) {
      const { docx, text, markdown } = input.content;
      stmt.changeContent.run({ ...common, sizeBytes: docx.byteLength, characters: text.length, docx: toBuffer(docx), text, markdown });
    } else {
      stmt.changeName.run(common);
    }
    return { ok: true, document: liveDocument(input.ownerId, input.id)! };
  });

  const trash = db.transaction((ownerId: string, id: string, at: string, expectedVersion: number | undefined): ChangeResult => {
    const current = liveDocument(ownerId, id);
    if (!current) return { ok: false, reason: "not_found" };
    if (expectedVersion !== undefined && expectedVersion !== current.version) {
      return { ok: false, reason: "conflict", current: current.version };
    }
    stmt.trash.run(at, id);
    return { ok: true, document: { ...current, deletedAt: at } };
  });

  const purgeOne = (id: string): void => {
    stmt.purgeVersions.run(id);
    stmt.purgeShares.run(id);
    stmt.purgeIdempotency.run(id);
    stmt.purgeDocument.run(id);
  };
  const purge = db.transaction((ownerId: string, id: string): boolean => {
    if (!stmt.isTrashed.get(ownerId, id)) return false;
    purgeOne(id);
    return true;
  });
  const purgeTrash = db.transaction((before: string): number => {
    const rows = stmt.trashedBefore.all(before) as { owner_id: string; id: string }[];
    for (const row of rows) purgeOne(row.id);
    return rows.length;
  });

  /** A version of a live document: the current one from the document row, an earlier one from its history. */
  function version<T>(
    ownerId: string,
    id: string,
    n: number,
    fromCurrent: (document: DocumentRecord) => T,
    fromHistory: (document: DocumentRecord) => T | null,
  ): T | null {
    const document = liveDocument(ownerId, id);
    if (!document || n < 1 || n > document.version) return null;
    return n === document.version ? fromCurrent(document) : fromHistory(document);
  }

  return {
    kind: "sqlite",
    async createDocument(doc, idempotency) {
      return create.immediate(doc, idempotency);
    },
    async findIdempotent(ownerId, key, notBefore): Promise<IdempotencyHit | null> {
      const row = stmt.findIdempotency.get(ownerId, key, notBefore) as { document_id: string; fingerprint: string } | undefined;
      return row ? { documentId: row.document_id, fingerprint: row.fingerprint } : null;
    },
    async getDocument(ownerId, id, options) {
      const row = (options?.includeDeleted ? stmt.getAnyDocument : stmt.getDocument).get(ownerId, id) as DocumentRow | undefined;
      return row ? toDocument(row) : null;
    },
    async getDocuments(ownerId, ids) {
      if (ids.length === 0) return [];
      const placeholders = ids.map(() => "?").join(", ");
      const rows = db
        .prepare(`SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = ? AND ${live} AND id IN (${placeholders})`)
        .all(ownerId, ...ids) as DocumentRow[];
      return rows.map(toDocument);
    },
    async readText(ownerId, id, format = "text") {
      const row = (format === "markdown" ? stmt.readMarkdown : stmt.readText).get(ownerId, id) as
        (DocumentRow & { text: string | null }) | undefined;
      return row ? { document: toDocument(row), text: row.text } : null;
    },
    async readContent(ownerId, id) {
      const row = stmt.readContent.get(ownerId, id) as (DocumentRow & { docx: Buffer }) | undefined;
      return row ? { document: toDocument(row), docx: bytesOf(row.docx) } : null;
    },
    async listDocuments(query: ListQuery) {
      const rows = stmt.list.all(listParams(query)) as DocumentRow[];
      return rows.map(toDocument);
    },
    async changeDocument(input) {
      return change.immediate(input);
    },
    async trashDocument({ ownerId, id, at, expectedVersion }) {
      return trash.immediate(ownerId, id, at, expectedVersion);
    },
    async listTrash(query) {
      return (stmt.listTrash.all(listParams(query)) as DocumentRow[]).map(toDocument);
    },
    async restoreFromTrash(ownerId, id) {
      if (stmt.untrash.run(ownerId, id).changes === 0) return null;
      return liveDocument(ownerId, id);
    },
    async purgeDocument(ownerId, id) {
      return purge.immediate(ownerId, id);
    },
    async purgeTrash(deletedBefore) {
      return purgeTrash.immediate(deletedBefore);
    },
    async listVersions({ ownerId, id, beforeVersion, limit }) {
      const document = liveDocument(ownerId, id);
      if (!document) return null;
      const before = beforeVersion ?? Number.MAX_SAFE_INTEGER;
      const head = document.version < before ? [currentVersion(document)] : [];
      const rest = limit - head.length;
      const older = rest > 0 ? (stmt.listVersions.all({ id, before, limit: rest }) as VersionRow[]).map(toVersion) : [];
      return [...head, ...older];
    },
    async readVersionText(ownerId, id, n, format = "text") {
      const byFormat = format === "markdown" ? stmt.versionMarkdown : stmt.versionText;
      return version(
        ownerId,
        id,
        n,
        (document) => {
          const row = (format === "markdown" ? stmt.readMarkdown : stmt.readText).get(ownerId, id) as { text: string | null };
          return { document, version: currentVersion(document), text: row.text };
        },
        (document) => {
          const row = byFormat.get(id, n) as (VersionRow & { text: string | null }) | undefined;
          return row ? { document, version: toVersion(row), text: row.text } : null;
        },
      );
    },
    async readVersionContent(ownerId, id, n) {
      return version(
        ownerId,
        id,
        n,
        (document) => {
          const row = stmt.readContent.get(ownerId, id) as { docx: Buffer };
          return { document, version: currentVersion(document), docx: bytesOf(row.docx) };
        },
        (document) => {
          const row = stmt.versionContent.get(id, n) as (VersionRow & { docx: Buffer }) | undefined;
          return row ? { document, version: toVersion(row), docx: bytesOf(row.docx) } : null;
        },
      );
    },
    async readVersionData(ownerId, id, n) {
      const toData = (row: { docx: Buffer; text: string; markdown: string | null } | undefined): DocumentContent | null =>
        row ? { docx: bytesOf(row.docx), text: row.text, markdown: row.markdown } : null;
      return version(
        ownerId,
        id,
        n,
        () => toData(stmt.readData.get(ownerId, id) as { docx: Buffer; text: string; markdown: string | null } | undefined),
        () => toData(stmt.versionData.get(id, n) as { docx: Buffer; text: string; markdown: string | null } | undefined),
      );
    },
    async pruneVersions(replacedBefore, keepMin) {
      return stmt.pruneVersions.run(replacedBefore, keepMin).changes;
    },
    async insertShare(share: NewShare) {
      stmt.insertShare.run(share);
    },
    async listShares(ownerId, documentId, now) {
      return (stmt.listShares.all(ownerId, documentId, now) as ShareRow[]).map(toShare);
    },
    async deleteShare(ownerId, documentId, shareId) {
      return stmt.deleteShare.run(ownerId, documentId, shareId).changes > 0;
    },
    async findShare(tokenHash, now) {
      const row = stmt.findShare.get(tokenHash, now) as
        (DocumentRow & { share_id: string; share_created_at: string; share_expires_at: string }) | undefined;
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
      return stmt.pruneShares.run(expiredBefore).changes;
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

const listParams = (query: ListQuery) => ({
  ownerId: query.ownerId,
  beforeId: query.beforeId ?? null,
  needle: query.nameContains ?? null,
  limit: query.limit,
});

function migrate(db: Database.Database): void {
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
