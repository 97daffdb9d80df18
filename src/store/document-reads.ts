// Documents on either database (sql.ts): the one lifecycle (lifecycle.ts) over content kept in
// `contents` (contents.ts, shared by versions), and what only documents read: the text or .docx of
// the current version or of any other. The current version is the document row, earlier ones rows
// of document_versions; a version is read in one statement whichever it is. (PostgreSQL coalesces
// the hot current-text read, postgres/documents.ts.)
import { ALL_CHARS, textRead } from "./content.ts";
import { documentContent } from "./contents.ts";
import { documentKind } from "./kinds.ts";
import { isVersion, itemLifecycle } from "./lifecycle.ts";
import type { QuotaSettings } from "./quota.ts";
import { bytesOf, prefixedColumns, unprefixed, type Row } from "./rows.ts";
import { hasNul, type Executor } from "./sql.ts";
import type { DocumentContent, DocumentRecord, TextFormat, VersionRecord } from "./types.ts";

/** The document columns of `d` (for joins). */
export const documentColumns = prefixedColumns(documentKind.summaryColumns, "d");

/** Version n of a live document with the given columns of its content `c` (`c.docx`…). */
async function versionRow(
  sql: Executor,
  { ownerId, id, n }: { ownerId: string; id: string; n: number },
  columns: string,
  values: Record<string, unknown> = {},
): Promise<{ document: DocumentRecord; version: VersionRecord; row: Row } | null> {
  if (!isVersion(n) || hasNul(ownerId, id)) return null;
  const [row] = await sql.all(
    `SELECT ${documentColumns}, ${prefixedColumns(documentKind.versionColumns, "v", "v_")}, ${columns}
     FROM documents d LEFT JOIN document_versions v ON v.document_id = d.id AND v.version = :n
       LEFT JOIN contents c ON c.owner_id = d.owner_id AND c.hash = CASE WHEN d.version = :n THEN d.content_hash ELSE v.content_hash END
     WHERE d.owner_id = :ownerId AND d.id = :id AND d.deleted_at IS NULL`,
    { ...values, ownerId, id, n },
  );
  if (!row) return null;
  const document = documentKind.toRecord(row);
  if (n === document.version) return { document, version: documentKind.current(document), row };
  return row["v_version"] == null ? null : { document, version: documentKind.toVersion(unprefixed(row, "v_")), row };
}

/** The live document of :ownerId and :id, `d`, joined to its content `c`. */
const liveWithContent = `documents d JOIN contents c ON c.owner_id = d.owner_id AND c.hash = d.content_hash
  WHERE d.owner_id = :ownerId AND d.id = :id AND d.deleted_at IS NULL`;

/** The text or markdown of `c` cut to :max code points, and its whole length in UTF-16 units, as stored. */
const cut = (format: TextFormat) => {
  const column = format === "markdown" ? "markdown" : "text";
  return `substr(c.${column}, 1, :max) AS body, c.${column}_chars AS total`;
};
const cutRead = (row: Row, max: number) => textRead(row["body"] as string | null, row["total"] as number | null, max);

/** The live document's row with its current text or markdown cut (`body`, `total`): one statement, or the database's own read. */
export type CurrentText = (ownerId: string, id: string, format: TextFormat, max: number) => Promise<Row | undefined>;

export function documentStore(sql: Executor, quota: QuotaSettings, current?: CurrentText) {
  const currentText: CurrentText =
    current ??
    (async (ownerId, id, format, max) =>
      (await sql.all(`SELECT ${documentColumns}, ${cut(format)} FROM ${liveWithContent}`, { ownerId, id, max }))[0]);
  return {
    ...itemLifecycle(sql, documentKind, documentContent(quota)),
    /** The text or markdown, cut in the store to `maxChars` (default: all of it, content.ts's textRead); never more is read into memory. */
    async readText(ownerId: string, id: string, format: TextFormat = "text", maxChars = ALL_CHARS) {
      if (hasNul(ownerId, id)) return null;
      const max = Math.min(maxChars, ALL_CHARS);
      const row = await currentText(ownerId, id, format, max);
      return row ? { document: documentKind.toRecord(row), ...cutRead(row, max) } : null;
    },
    async readContent(ownerId: string, id: string) {
      if (hasNul(ownerId, id)) return null;
      const [row] = await sql.all(`SELECT ${documentColumns}, c.docx FROM ${liveWithContent}`, { ownerId, id }, "read_content");
      return row ? { document: documentKind.toRecord(row), docx: bytesOf(row["docx"] as Buffer) } : null;
    },
    /** Version n's text or markdown, as readText. */
    async readVersionText(ownerId: string, id: string, n: number, format: TextFormat = "text", maxChars = ALL_CHARS) {
      const max = Math.min(maxChars, ALL_CHARS);
      const found = await versionRow(sql, { ownerId, id, n }, cut(format), { max });
      return found && { document: found.document, version: found.version, ...cutRead(found.row, max) };
    },
    async readVersionContent(ownerId: string, id: string, n: number) {
      const found = await versionRow(sql, { ownerId, id, n }, "c.docx");
      return found ? { document: found.document, version: found.version, docx: bytesOf(found.row["docx"] as Buffer) } : null;
    },
    /** The whole content of a version (to restore it). */
    async readVersionData(ownerId: string, id: string, n: number): Promise<DocumentContent | null> {
      const found = await versionRow(sql, { ownerId, id, n }, "c.docx, c.text, c.markdown");
      if (!found) return null;
      const { docx, text, markdown } = found.row as { docx: Buffer; text: string; markdown: string | null };
      return { docx: bytesOf(docx), text, markdown };
    },
  };
}
