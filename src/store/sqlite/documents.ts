// Documents on SQLite: the one lifecycle (../lifecycle.ts) over content kept in `contents`
// (../contents.ts, shared by versions), the reads both databases share (../document-reads.ts), and
// the hot read of the current text, cut in SQL, as one prepared statement.
import { ALL_CHARS, textRead } from "../content.ts";
import { documentContent } from "../contents.ts";
import { documentReads } from "../document-reads.ts";
import { documentKind } from "../kinds.ts";
import { itemLifecycle } from "../lifecycle.ts";
import { documentSummaryColumnsOf, toDocument, type Row } from "../rows.ts";
import type { DocumentItems } from "../types.ts";
import type { SqliteContext } from "./context.ts";

/** The live document `d` of @ownerId and @id joined to its content `c`. */
const liveWithContent = `documents d JOIN contents c ON c.owner_id = d.owner_id AND c.hash = d.content_hash
  WHERE d.owner_id = @ownerId AND d.id = @id AND d.deleted_at IS NULL`;

export function createSqliteDocuments(ctx: SqliteContext): DocumentItems {
  const { db, quota } = ctx;
  const items = itemLifecycle(ctx.sql, documentKind, documentContent(quota));
  // At most @max code points; the total in UTF-16 units, as stored.
  const cut = (column: string) =>
    db.prepare(
      `SELECT ${documentSummaryColumnsOf("d")}, substr(c.${column}, 1, @max) AS text, c.${column}_chars AS total FROM ${liveWithContent}`,
    );
  const stmt = { text: cut("text"), markdown: cut("markdown") };
  return {
    ...items,
    ...documentReads(ctx.sql),
    async readText(ownerId, id, format = "text", maxChars = ALL_CHARS) {
      const row = stmt[format === "markdown" ? "markdown" : "text"].get({ ownerId, id, max: maxChars }) as
        (Row & { text: string | null; total: number | null }) | undefined;
      return row ? { document: toDocument(row), ...textRead(row.text, row.total, maxChars) } : null;
    },
  };
}
