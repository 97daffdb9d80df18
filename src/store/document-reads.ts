// What documents read besides the lifecycle, on either database (sql.ts): the .docx of the current
// version, and any version's text, .docx or whole content. The current version is the document
// row, earlier ones rows of document_versions; a version is read in one statement whichever it is.
// (The current text read, the hot one, is each database's own: sqlite/documents.ts, postgres/documents.ts.)
import { ALL_CHARS, textRead } from "./content.ts";
import { documentKind, isVersion } from "./kinds.ts";
import { bytesOf, documentSummaryColumnsOf, prefixedColumns, toDocument, toVersion, unprefixed } from "./rows.ts";
import { versionSummaryColumns, type Row } from "./rows.ts";
import type { Executor } from "./sql.ts";
import type { DocumentReads, DocumentRecord, VersionRecord } from "./types.ts";

/** Version n of a live document with the given columns of its content `c` (`c.docx`…). */
async function versionRow(
  sql: Executor,
  ownerId: string,
  id: string,
  n: number,
  columns: string,
  values: Record<string, unknown> = {},
): Promise<{ document: DocumentRecord; version: VersionRecord; row: Row } | null> {
  if (!isVersion(n) || `${ownerId}${id}`.includes("\u0000")) return null;
  const [row] = await sql.all(
    `SELECT ${documentSummaryColumnsOf("d")}, ${prefixedColumns(versionSummaryColumns, "v", "v_")}, ${columns}
     FROM documents d LEFT JOIN document_versions v ON v.document_id = d.id AND v.version = :n
       LEFT JOIN contents c ON c.owner_id = d.owner_id AND c.hash = CASE WHEN d.version = :n THEN d.content_hash ELSE v.content_hash END
     WHERE d.owner_id = :ownerId AND d.id = :id AND d.deleted_at IS NULL`,
    { ...values, ownerId, id, n },
  );
  if (!row) return null;
  const document = toDocument(row);
  if (n === document.version) return { document, version: documentKind.current(document), row };
  return row["v_version"] == null ? null : { document, version: toVersion(unprefixed<Row>(row, "v_")), row };
}

export function documentReads(sql: Executor): Omit<DocumentReads, "readText"> {
  return {
    async readContent(ownerId, id) {
      if (`${ownerId}${id}`.includes("\u0000")) return null;
      const [row] = await sql.all(
        `SELECT ${documentSummaryColumnsOf("d")}, c.docx FROM documents d JOIN contents c ON c.owner_id = d.owner_id AND c.hash = d.content_hash
         WHERE d.owner_id = :ownerId AND d.id = :id AND d.deleted_at IS NULL`,
        { ownerId, id },
        "read_content",
      );
      return row ? { document: toDocument(row), docx: bytesOf(row["docx"] as Buffer) } : null;
    },
    async readVersionText(ownerId, id, n, format = "text", maxChars = ALL_CHARS) {
      const column = format === "markdown" ? "markdown" : "text";
      const max = Math.min(maxChars, ALL_CHARS);
      const found = await versionRow(sql, ownerId, id, n, `substr(c.${column}, 1, :max) AS body, c.${column}_chars AS total`, { max });
      if (!found) return null;
      const { document, version, row } = found;
      return { document, version, ...textRead(row["body"] as string | null, row["total"] as number | null, max) };
    },
    async readVersionContent(ownerId, id, n) {
      const found = await versionRow(sql, ownerId, id, n, "c.docx");
      return found ? { document: found.document, version: found.version, docx: bytesOf(found.row["docx"] as Buffer) } : null;
    },
    async readVersionData(ownerId, id, n) {
      const found = await versionRow(sql, ownerId, id, n, "c.docx, c.text, c.markdown");
      if (!found) return null;
      const { docx, text, markdown } = found.row as { docx: Buffer; text: string; markdown: string | null };
      return { docx: bytesOf(docx), text, markdown };
    },
  };
}
