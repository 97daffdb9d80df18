// Documents on PostgreSQL: those of both databases (../document-reads.ts), but the hot read of the
// current text coalesced (../coalesce.ts) by id and cut: the statement finds rows by primary key
// only, and each caller keeps the row only if it is its own (owner_id), as `owner_id = $1 AND id = $2` would.
import { coalescer } from "../coalesce.ts";
import { documentColumns, documentStore } from "../document-reads.ts";
import type { Row } from "../rows.ts";
import type { Executor } from "../sql.ts";
import type { DocumentItems } from "../types.ts";
import type { PgContext } from "./connection.ts";

export function createPostgresDocuments({ pool, prepared, quota }: PgContext, sql: Executor): DocumentItems {
  const textKey = (id: string, maxChars: number) => `${maxChars}:${id}`;
  const textReader = (column: "text" | "markdown") =>
    coalescer<string, Row>(async (keys) => {
      const pairs = keys.map((key) => key.split(":"));
      const { rows } = await pool.query<Row>(
        prepared(
          `read_${column}`,
          `SELECT ${documentColumns}, q.max_chars, substr(c.${column}, 1, q.max_chars) AS body, c.${column}_chars AS total
           FROM unnest($1::text[], $2::int[]) AS q (id, max_chars)
             JOIN documents d ON d.id = q.id AND d.deleted_at IS NULL
             JOIN contents c ON c.owner_id = d.owner_id AND c.hash = d.content_hash`,
          [pairs.map(([, id]) => id), pairs.map(([max]) => Number(max))],
        ),
      );
      return new Map(rows.map((row) => [textKey(row["id"] as string, row["max_chars"] as number), row]));
    });
  const textReads = { text: textReader("text"), markdown: textReader("markdown") };
  return documentStore(sql, quota, async (ownerId, id, format, max) => {
    const row = await textReads[format === "markdown" ? "markdown" : "text"].load(textKey(id, max));
    return row?.["owner_id"] === ownerId ? row : undefined;
  });
}
