// Documents and their trash on PostgreSQL: create (with its idempotency claim), reads (the text
// read coalesced), changes (the previous version kept in document_versions), trash, restore and
// purge, each write one transaction holding the document's row lock. Content lives in `contents`
// (content.ts), shared by versions.
import type pg from "pg";
import { coalescer } from "../coalesce.ts";
import type { QuotaSettings } from "../quota.ts";
import { bytesOf, documentSummaryColumns, documentSummaryColumnsOf, toDocument, type DocumentRow } from "../rows.ts";
import { foldName, newRecord, type DocumentRecord, type DocumentStore, type ListQuery, type NewDocument } from "../types.ts";
import { hasNul, inTransaction, type PgContext } from "./connection.ts";
import { ALL_CHARS, textRead } from "../content.ts";
import { collectContents, putContent } from "./content.ts";
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

/** Deletes a document with its versions, shares and idempotency records, then the contents nothing else refers to. */
async function purgeOne(client: pg.PoolClient, ownerId: string, id: string): Promise<void> {
  const { rows } = await client.query<{ content_hash: string }>(
    `SELECT content_hash FROM documents WHERE id = $1 UNION SELECT content_hash FROM document_versions WHERE document_id = $1`,
    [id],
  );
  await client.query(`DELETE FROM document_versions WHERE document_id = $1`, [id]);
  await client.query(`DELETE FROM shares WHERE target_id = $1`, [id]);
  await client.query(`DELETE FROM idempotency WHERE target_id = $1`, [id]);
  await client.query(`DELETE FROM documents WHERE id = $1`, [id]);
  await collectContents(
    client,
    ownerId,
    rows.map((row) => row.content_hash),
  );
}

async function insertDocument(client: pg.PoolClient, quota: QuotaSettings, doc: NewDocument): Promise<DocumentRecord> {
  const record = newRecord(doc);
  const { hash } = await putContent(client, quota, doc.ownerId, doc);
  await client.query(
    `INSERT INTO documents (id, owner_id, name, name_folded, created_at, updated_at, version, updated_by, source, size_bytes,
       characters, content_hash)
     VALUES ($1, $2, $3, $4, $5, $5, 1, $10, $6, $7, $8, $9)`,
    [
      record.id,
      record.ownerId,
      record.name,
      foldName(record.name),
      record.createdAt,
      record.source,
      record.sizeBytes,
      record.characters,
      hash,
      record.updatedBy,
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
  // The per-request read of a document's text, coalesced (coalesce.ts) by id and cut: the
  // statement finds rows by primary key only, and each caller keeps the row only if it is its own
  // (owner_id), as `owner_id = $1 AND id = $2` would.
  type TextRow = DocumentRow & { max_chars: number; body: string | null; total: number | null };
  const textKey = (id: string, maxChars: number) => `${maxChars}:${id}`;
  const textReader = (column: "text" | "markdown") =>
    coalescer<string, TextRow>(async (keys) => {
      const pairs = keys.map((key) => key.split(":"));
      const { rows } = await pool.query<TextRow>(
        prepared(
          `read_${column}`,
          `SELECT ${documentSummaryColumnsOf("d")}, q.max_chars, substr(c.${column}, 1, q.max_chars) AS body, c.${column}_chars AS total
           FROM unnest($1::text[], $2::int[]) AS q (id, max_chars)
             JOIN documents d ON d.id = q.id AND d.deleted_at IS NULL
             JOIN contents c ON c.owner_id = d.owner_id AND c.hash = d.content_hash`,
          [pairs.map(([, id]) => id), pairs.map(([max]) => Number(max))],
        ),
      );
      return new Map(rows.map((row) => [textKey(row.id, row.max_chars), row]));
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
    async readText(ownerId, id, format = "text", maxChars = ALL_CHARS) {
      if (hasNul(ownerId, id)) return null;
      const max = Math.min(maxChars, ALL_CHARS);
      const row = await textReads[format === "markdown" ? "markdown" : "text"].load(textKey(id, max));
      return row && row.owner_id === ownerId ? { document: toDocument(row), ...textRead(row.body, row.total, max) } : null;
    },
    async readContent(ownerId, id) {
      const { rows } = await pool.query<DocumentRow & { docx: Buffer }>(
        prepared(
          "read_content",
          `SELECT ${documentSummaryColumnsOf("d")}, c.docx
           FROM documents d JOIN contents c ON c.owner_id = d.owner_id AND c.hash = d.content_hash
           WHERE d.owner_id = $1 AND d.id = $2 AND d.deleted_at IS NULL`,
          [ownerId, id],
        ),
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
          const hit = await claimIdempotency(client, doc.ownerId, claim, doc.id, doc.createdAt, newRecord(doc));
          if (hit) {
            // The first answer, as it was then; a record kept before answers were: the document as it is now.
            const { rows } = await client.query<DocumentRow>(
              `SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = $1 AND id = $2`,
              [doc.ownerId, hit.targetId],
            );
            const document = (hit.response as DocumentRecord | null) ?? (rows[0] ? toDocument(rows[0]) : null);
            if (document) return { document, replayed: true, fingerprint: hit.fingerprint };
            // The record points at a missing document: like SQLite, create the document and leave the record.
          }
        }
        return { document: await insertDocument(client, ctx.quota, doc), replayed: false, fingerprint: claim?.fingerprint ?? "" };
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
          `INSERT INTO document_versions (document_id, version, owner_id, name, created_at, created_by, replaced_at, source, size_bytes,
             characters, content_hash)
           SELECT id, version, owner_id, name, updated_at, updated_by, $2, source, size_bytes, characters, content_hash
           FROM documents WHERE id = $1`,
          [input.id, input.at],
        );
        const name = input.name ?? current.name;
        const head = [input.id, name, foldName(name), input.at, input.actorId, input.source];
        const stored = input.content && (await putContent(client, ctx.quota, input.ownerId, input.content));
        const { rows } =
          input.content && stored
            ? await client.query<DocumentRow>(
                `UPDATE documents SET name = $2, name_folded = $3, updated_at = $4, updated_by = $5, source = $6,
                   version = version + 1, size_bytes = $7, characters = $8, content_hash = $9
                 WHERE id = $1 RETURNING ${documentSummaryColumns}`,
                [...head, input.content.docx.byteLength, stored.textChars, stored.hash],
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
        // Deleting ends the document's links at once, for good: restoring it does not revive them.
        await client.query(`DELETE FROM shares WHERE target_id = $1`, [id]);
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
        await purgeOne(client, ownerId, id);
        return true;
      });
    },

    async purgeTrash(deletedBefore) {
      return inTransaction(pool, async (client) => {
        // In owner order, so that the owners' usage locks are taken in that order too.
        const { rows } = await client.query<{ id: string; owner_id: string }>(
          `SELECT id, owner_id FROM documents WHERE deleted_at IS NOT NULL AND deleted_at < $1 ORDER BY owner_id, id FOR UPDATE SKIP LOCKED`,
          [deletedBefore],
        );
        for (const row of rows) await purgeOne(client, row.owner_id, row.id);
        return rows.length;
      });
    },
  };
}
