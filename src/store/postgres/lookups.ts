// The document lookup several PostgreSQL modules share, as one named statement.
import { documentSummaryColumns, toDocument, type DocumentRow } from "../rows.ts";
import type { DocumentRecord } from "../types.ts";
import type { PgContext } from "./connection.ts";

/** The live document (or, with includeDeleted, one in the trash too), or null. */
export async function findDocument(
  { pool, prepared }: PgContext,
  ownerId: string,
  id: string,
  includeDeleted = false,
): Promise<DocumentRecord | null> {
  const { rows } = await pool.query<DocumentRow>(
    includeDeleted
      ? prepared("get_any_document", `SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = $1 AND id = $2`, [ownerId, id])
      : prepared("get_document", `SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = $1 AND id = $2 AND deleted_at IS NULL`, [
          ownerId,
          id,
        ]),
  );
  const row = rows[0];
  return row ? toDocument(row) : null;
}
