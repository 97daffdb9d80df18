// Documents and their trash on SQLite: create (with its idempotency record), reads, changes (the
// previous version kept in document_versions), trash, restore and purge, each write one
// immediate transaction. Content lives in `contents` (content.ts), shared by versions.
import { bytesOf, documentSummaryColumns, documentSummaryColumnsOf, toDocument, type DocumentRow } from "../rows.ts";
import {
  foldName,
  newRecord,
  type ChangeResult,
  type CreateResult,
  type DocumentChange,
  type DocumentRecord,
  type DocumentStore,
  type IdempotencyClaim,
  type ListQuery,
  type NewDocument,
} from "../types.ts";
import { ALL_CHARS, textRead } from "../content.ts";
import type { SqliteContext } from "./context.ts";
import { idempotencyStatements } from "./idempotency.ts";

const listParams = (query: ListQuery) => ({
  ownerId: query.ownerId,
  beforeId: query.beforeId ?? null,
  needle: query.nameContains ?? null,
  limit: query.limit,
});

/** The live document `d` of @ownerId and @id joined to its content `c`. */
export const liveWithContent = `documents d JOIN contents c ON c.owner_id = d.owner_id AND c.hash = d.content_hash
  WHERE d.owner_id = @ownerId AND d.id = @id AND d.deleted_at IS NULL`;

/** The columns of a cut read of content `c` (at most @max code points; the total in UTF-16 units, as stored). */
export const cutColumns = {
  text: "substr(c.text, 1, @max) AS text, c.text_chars AS total",
  markdown: "substr(c.markdown, 1, @max) AS text, c.markdown_chars AS total",
};

function statements({ db }: SqliteContext) {
  const list = (trashed: boolean) =>
    db.prepare(
      `SELECT ${documentSummaryColumns} FROM documents
       WHERE owner_id = @ownerId AND deleted_at IS ${trashed ? "NOT NULL" : "NULL"} AND (@beforeId IS NULL OR id < @beforeId)
         AND (@needle IS NULL OR instr(name_folded, @needle) > 0)
       ORDER BY id DESC LIMIT @limit`,
    );
  return {
    insert: db.prepare(
      `INSERT INTO documents (id, owner_id, name, name_folded, created_at, updated_at, version, updated_by, source, size_bytes,
         characters, content_hash)
       VALUES (@id, @ownerId, @name, @nameFolded, @createdAt, @createdAt, 1, @updatedBy, @source, @sizeBytes, @characters, @hash)`,
    ),
    readText: db.prepare(`SELECT ${documentSummaryColumnsOf("d")}, ${cutColumns.text} FROM ${liveWithContent}`),
    readMarkdown: db.prepare(`SELECT ${documentSummaryColumnsOf("d")}, ${cutColumns.markdown} FROM ${liveWithContent}`),
    readContent: db.prepare(`SELECT ${documentSummaryColumnsOf("d")}, c.docx FROM ${liveWithContent}`),
    list: list(false),
    listTrash: list(true),
    keepVersion: db.prepare(
      `INSERT INTO document_versions (document_id, version, owner_id, name, created_at, created_by, replaced_at, source, size_bytes,
         characters, content_hash)
       SELECT id, version, owner_id, name, updated_at, updated_by, @at, source, size_bytes, characters, content_hash
       FROM documents WHERE id = @id`,
    ),
    changeContent: db.prepare(
      `UPDATE documents SET name = @name, name_folded = @nameFolded, updated_at = @at, updated_by = @actorId, source = @source,
         version = version + 1, size_bytes = @sizeBytes, characters = @characters, content_hash = @hash
       WHERE id = @id`,
    ),
    changeName: db.prepare(
      `UPDATE documents SET name = @name, name_folded = @nameFolded, updated_at = @at, updated_by = @actorId, source = @source,
         version = version + 1
       WHERE id = @id`,
    ),
    trash: db.prepare(`UPDATE documents SET deleted_at = ? WHERE id = ?`),
    endShares: db.prepare(`DELETE FROM shares WHERE target_id = ?`),
    untrash: db.prepare(`UPDATE documents SET deleted_at = NULL WHERE owner_id = ? AND id = ? AND deleted_at IS NOT NULL`),
    trashedBefore: db.prepare(`SELECT owner_id, id FROM documents WHERE deleted_at IS NOT NULL AND deleted_at < ?`),
    isTrashed: db.prepare(`SELECT 1 FROM documents WHERE owner_id = ? AND id = ? AND deleted_at IS NOT NULL`),
    contentsOf: db.prepare(
      `SELECT content_hash FROM documents WHERE id = @id UNION SELECT content_hash FROM document_versions WHERE document_id = @id`,
    ),
    purge: [
      db.prepare(`DELETE FROM document_versions WHERE document_id = ?`),
      db.prepare(`DELETE FROM shares WHERE target_id = ?`),
      db.prepare(`DELETE FROM idempotency WHERE target_id = ?`),
      db.prepare(`DELETE FROM documents WHERE id = ?`),
    ],
  };
}

/** The write transactions (better-sqlite3 runs each as BEGIN IMMEDIATE … COMMIT). */
function writes(ctx: SqliteContext, stmt: ReturnType<typeof statements>) {
  const { db, lookups, contents } = ctx;
  const idempotency = idempotencyStatements(db);

  // The document row, its content and its idempotency record (with the answer) land together or
  // not at all. A replay answers the first record, as it was then.
  const create = db.transaction((doc: NewDocument, claim: IdempotencyClaim | undefined): CreateResult => {
    if (claim) {
      const hit = idempotency.find(doc.ownerId, claim);
      const existing = hit && ((hit.response as DocumentRecord | null) ?? lookups.any(doc.ownerId, hit.targetId));
      if (hit && existing) return { document: existing, replayed: true, fingerprint: hit.fingerprint };
    }
    const record = newRecord(doc);
    const { hash } = contents.put(doc.ownerId, doc);
    stmt.insert.run({ ...record, nameFolded: foldName(doc.name), hash });
    if (claim) idempotency.claim(doc.ownerId, claim, doc.id, doc.createdAt, record);
    return { document: record, replayed: false, fingerprint: claim?.fingerprint ?? "" };
  });

  // The current version's metadata is copied into document_versions (its content stays where it
  // is, shared), then replaced, in one transaction; a stale expectedVersion writes nothing.
  const change = db.transaction((input: DocumentChange): ChangeResult => {
    const current = lookups.live(input.ownerId, input.id);
    if (!current) return { ok: false, reason: "not_found" };
    if (input.expectedVersion !== undefined && input.expectedVersion !== current.version) {
      return { ok: false, reason: "conflict", current: current.version };
    }
    stmt.keepVersion.run({ id: input.id, at: input.at });
    const name = input.name ?? current.name;
    const common = { id: input.id, name, nameFolded: foldName(name), at: input.at, actorId: input.actorId, source: input.source };
    if (input.content) {
      const { hash, textChars } = contents.put(input.ownerId, input.content);
      stmt.changeContent.run({ ...common, sizeBytes: input.content.docx.byteLength, characters: textChars, hash });
    } else {
      stmt.changeName.run(common);
    }
    return { ok: true, document: lookups.live(input.ownerId, input.id)! };
  });

  const trash = db.transaction((ownerId: string, id: string, at: string, expectedVersion: number | undefined): ChangeResult => {
    const current = lookups.live(ownerId, id);
    if (!current) return { ok: false, reason: "not_found" };
    if (expectedVersion !== undefined && expectedVersion !== current.version) {
      return { ok: false, reason: "conflict", current: current.version };
    }
    stmt.trash.run(at, id);
    // Deleting ends the document's links at once, for good: restoring it does not revive them.
    stmt.endShares.run(id);
    return { ok: true, document: { ...current, deletedAt: at } };
  });

  /** Deletes a document with everything that belongs to it, then the contents nothing else refers to. */
  const purgeOne = (ownerId: string, id: string): void => {
    const hashes = (stmt.contentsOf.all({ id }) as { content_hash: string }[]).map((row) => row.content_hash);
    for (const statement of stmt.purge) statement.run(id);
    contents.collect(ownerId, hashes);
  };
  const purge = db.transaction((ownerId: string, id: string): boolean => {
    if (!stmt.isTrashed.get(ownerId, id)) return false;
    purgeOne(ownerId, id);
    return true;
  });
  const purgeTrash = db.transaction((before: string): number => {
    const rows = stmt.trashedBefore.all(before) as { owner_id: string; id: string }[];
    for (const row of rows) purgeOne(row.owner_id, row.id);
    return rows.length;
  });
  return { create, change, trash, purge, purgeTrash };
}

export function createSqliteDocuments(ctx: SqliteContext): DocumentStore {
  const { db, lookups } = ctx;
  const stmt = statements(ctx);
  const { create, change, trash, purge, purgeTrash } = writes(ctx, stmt);
  return {
    async createDocument(doc, idempotency) {
      return create.immediate(doc, idempotency);
    },
    async getDocument(ownerId, id, options) {
      return options?.includeDeleted ? lookups.any(ownerId, id) : lookups.live(ownerId, id);
    },
    async getDocuments(ownerId, ids) {
      if (ids.length === 0) return [];
      const placeholders = ids.map(() => "?").join(", ");
      const rows = db
        .prepare(`SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = ? AND deleted_at IS NULL AND id IN (${placeholders})`)
        .all(ownerId, ...ids) as DocumentRow[];
      return rows.map(toDocument);
    },
    async readText(ownerId, id, format = "text", maxChars = ALL_CHARS) {
      const row = (format === "markdown" ? stmt.readMarkdown : stmt.readText).get({ ownerId, id, max: maxChars }) as
        (DocumentRow & { text: string | null; total: number | null }) | undefined;
      return row ? { document: toDocument(row), ...textRead(row.text, row.total, maxChars) } : null;
    },
    async readContent(ownerId, id) {
      const row = stmt.readContent.get({ ownerId, id }) as (DocumentRow & { docx: Buffer }) | undefined;
      return row ? { document: toDocument(row), docx: bytesOf(row.docx) } : null;
    },
    async listDocuments(query) {
      return (stmt.list.all(listParams(query)) as DocumentRow[]).map(toDocument);
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
      return lookups.live(ownerId, id);
    },
    async purgeDocument(ownerId, id) {
      return purge.immediate(ownerId, id);
    },
    async purgeTrash(deletedBefore) {
      return purgeTrash.immediate(deletedBefore);
    },
  };
}
