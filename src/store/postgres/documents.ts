// Documents on PostgreSQL: the one lifecycle (../lifecycle.ts) over content kept in `contents`
// (../contents.ts, shared by versions), the reads both databases share (../document-reads.ts), and
// the hot read of the current text, coalesced.
import { coalescer } from "../coalesce.ts";
import { documentKind } from "../kinds.ts";
import { documentSummaryColumnsOf, toDocument, type ItemRow } from "../rows.ts";
import type { DocumentItems, DocumentReads } from "../types.ts";
import { hasNul, type PgContext } from "./connection.ts";
import { ALL_CHARS, textRead } from "../content.ts";
import { documentContent } from "../contents.ts";
import { itemLifecycle } from "../lifecycle.ts";
import type { Executor } from "../sql.ts";
import type pg from "pg";
import { documentReads } from "../document-reads.ts";

/** The hot read of the current text, coalesced. */
function reads(ctx: PgContext): Pick<DocumentReads, "readText"> {
  const { pool, prepared } = ctx;
  // The per-request read of a document's text, coalesced (coalesce.ts) by id and cut: the
  // statement finds rows by primary key only, and each caller keeps the row only if it is its own
  // (owner_id), as `owner_id = $1 AND id = $2` would.
  type TextRow = ItemRow & { max_chars: number; body: string | null; total: number | null };
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
    async readText(ownerId, id, format = "text", maxChars = ALL_CHARS) {
      if (hasNul(ownerId, id)) return null;
      const max = Math.min(maxChars, ALL_CHARS);
      const row = await textReads[format === "markdown" ? "markdown" : "text"].load(textKey(id, max));
      return row && row.owner_id === ownerId ? { document: toDocument(row), ...textRead(row.body, row.total, max) } : null;
    },
  };
}

export function createPostgresDocuments(ctx: PgContext, sql: Executor<pg.PoolClient>): DocumentItems {
  const items = itemLifecycle(sql, documentKind, documentContent(ctx.quota));
  return { ...items, ...reads(ctx), ...documentReads(sql) };
}
