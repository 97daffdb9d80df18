// Document versions' content on PostgreSQL: the current version is the document row, earlier ones
// rows of document_versions; a version is read in one round trip whichever it is.
import { bytesOf, currentVersion, documentSummaryColumnsOf, toDocument, toVersion } from "../rows.ts";
import type { ItemRow } from "../rows.ts";
import type { DocumentReads, DocumentRecord, VersionRecord } from "../types.ts";
import { ALL_CHARS, textRead } from "../content.ts";
import type { PgContext } from "./connection.ts";

const MAX_INT = 2_147_483_647;

/**
 * Version n of a live document with the given columns of its content (`c.text`, `c.docx`…): the
 * current version from the document row, an earlier one from its history, in one round trip.
 */
async function versionRow<T>(
  { pool }: PgContext,
  ownerId: string,
  id: string,
  n: number,
  columns: string,
  params: unknown[] = [],
): Promise<{ document: DocumentRecord; version: VersionRecord; row: T } | null> {
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_INT) return null;
  const { rows } = await pool.query<ItemRow & { v_version: number | null } & Record<string, unknown>>(
    `SELECT ${documentSummaryColumnsOf("d")}, v.version AS v_version, v.name AS v_name, v.created_at AS v_created_at,
       v.created_by AS v_created_by, v.size_bytes AS v_size_bytes, v.characters AS v_characters, v.source AS v_source, ${columns}
     FROM documents d LEFT JOIN document_versions v ON v.document_id = d.id AND v.version = $3
       LEFT JOIN contents c ON c.owner_id = d.owner_id AND c.hash = CASE WHEN d.version = $3 THEN d.content_hash ELSE v.content_hash END
     WHERE d.owner_id = $1 AND d.id = $2 AND d.deleted_at IS NULL`,
    [ownerId, id, n, ...params],
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

/** The content reads of any version; the version list and pruning are the lifecycle's (lifecycle.ts). */
export function createPostgresVersionReads(
  ctx: PgContext,
): Pick<DocumentReads, "readVersionText" | "readVersionContent" | "readVersionData"> {
  return {
    async readVersionText(ownerId, id, n, format = "text", maxChars = ALL_CHARS) {
      const column = format === "markdown" ? "markdown" : "text";
      const max = Math.min(maxChars, ALL_CHARS);
      const found = await versionRow<{ body: string | null; total: number | null }>(
        ctx,
        ownerId,
        id,
        n,
        `substr(c.${column}, 1, $4) AS body, c.${column}_chars AS total`,
        [max],
      );
      return found ? { document: found.document, version: found.version, ...textRead(found.row.body, found.row.total, max) } : null;
    },
    async readVersionContent(ownerId, id, n) {
      const found = await versionRow<{ docx: Buffer }>(ctx, ownerId, id, n, "c.docx");
      return found ? { document: found.document, version: found.version, docx: bytesOf(found.row.docx) } : null;
    },
    async readVersionData(ownerId, id, n) {
      const found = await versionRow<{ docx: Buffer; text: string; markdown: string | null }>(
        ctx,
        ownerId,
        id,
        n,
        "c.docx, c.text, c.markdown",
      );
      return found ? { docx: bytesOf(found.row.docx), text: found.row.text, markdown: found.row.markdown } : null;
    },
  };
}
