// Documents and their trash on PostgreSQL: create (with its idempotency claim), reads (the text
// read coalesced), changes (the previous version kept in document_versions), trash, restore and
// purge, each write one transaction holding the document's row lock.
import type pg from "pg";
import { coalescer } from "../coalesce.ts";
import { bytesOf, documentSummaryColumns, toBuffer, toDocument, type DocumentRow } from "../rows.ts";
import { foldName, newRecord, type DocumentRecord, type DocumentStore, type ListQuery, type NewDocument } from "../types.ts";
import { hasNul, inTransaction, type PgContext } from "./connection.ts";
import { claimIdempotency } from "./idempotency.ts";
import { findDocument } from "./lookups.ts";

const live = "deleted_at IS NULL";

/** The live document, locked for the rest of the transaction (concurrent changes queue behind it). */
export async function lockLive(client: pg.PoolClient, ownerId: string, id: string): Promise<DocumentRecord | null> {
  const { rows } = await client.query<DocumentRow>(
    `SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = $1 AND id = $2 AND ${live} FOR UPDATE`,
    [ownerId, id],
  );
  const row = rows[0];
  return row ? toDocument(row) : null;
}

/** Deletes a document with its versions, shares and idempotency records. */
async function purgeOne(client: pg.PoolClient, id: string): Promise<void> {
  await client.query(`DELETE FROM document_versions WHERE document_id = $1`, [id]);
  await client.query(`DELETE FROM document_shares WHERE document_id = $1`, [id]);
  await client.query(`DELETE FROM idempotency WHERE document_id = $1`, [id]);
  await client.query(`DELETE FROM documents WHERE id = $1`, [id]);
}

async function insertDocument(client: pg.PoolClient, doc: NewDocument): Promise<DocumentRecord> {
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
  return record;
}

/** Live or trashed documents, newest first, one prepared statement per shape. */
async function list({ pool, prepared }: PgContext, query: ListQuery, trashed: boolean): Promise<DocumentRecord[]> {
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

/** The reads: point lookups, the coalesced text read, lists. */
function reads(
  ctx: PgContext,
): Pick<DocumentStore, "getDocument" | "getDocuments" | "readText" | "readContent" | "listDocuments" | "listTrash"> {
  const { pool, prepared } = ctx;
  // The per-request read of a document's text, coalesced (coalesce.ts): the statement finds rows
  // by primary key only, and each caller keeps the row only if it is its own (owner_id), as
  // `owner_id = $1 AND id = $2` would.
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
  return {
    getDocument: (ownerId, id, options) => findDocument(ctx, ownerId, id, options?.includeDeleted === true),
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
    listDocuments: (query) => list(ctx, query, false),
    listTrash: (query) => list(ctx, query, true),
  };
}

export function createPostgresDocuments(ctx: PgContext): DocumentStore {
  const { pool } = ctx;
  return {
    ...reads(ctx),

    // The idempotency record is claimed first, then the document is inserted, in one transaction:
    // a concurrent create with the same key blocks on the claimed row until the first transaction
    // ends; if that committed, the loser finds a fresh record, inserts nothing and answers with the
    // winner's document.
    async createDocument(doc, claim) {
      return inTransaction(pool, async (client) => {
        if (claim) {
          const hit = await claimIdempotency(client, doc.ownerId, claim, doc.id, doc.createdAt);
          if (hit) {
            const { rows } = await client.query<DocumentRow>(
              `SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = $1 AND id = $2`,
              [doc.ownerId, hit.documentId],
            );
            const row = rows[0];
            if (row) return { document: toDocument(row), replayed: true, fingerprint: hit.fingerprint };
            // The record points at a missing document: like SQLite, create the document and leave the record.
          }
        }
        return { document: await insertDocument(client, doc), replayed: false, fingerprint: claim?.fingerprint ?? "" };
      });
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
  };
}
