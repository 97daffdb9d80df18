// Document versions' content on SQLite: the current version is the document row, earlier ones
// rows of document_versions; each refers to its content in `contents` by hash.
import { bytesOf, currentVersion, toVersion, versionSummaryColumnsOf, type Row } from "../rows.ts";
import type { DocumentContent, DocumentReads, DocumentRecord } from "../types.ts";
import type { SqliteContext } from "./context.ts";
import { ALL_CHARS, textRead } from "../content.ts";

/** The live document `d` of @ownerId and @id joined to its content `c`. */
export const liveWithContent = `documents d JOIN contents c ON c.owner_id = d.owner_id AND c.hash = d.content_hash
  WHERE d.owner_id = @ownerId AND d.id = @id AND d.deleted_at IS NULL`;

/** The columns of a cut read of content `c` (at most @max code points; the total in UTF-16 units, as stored). */
export const cutColumns = {
  text: "substr(c.text, 1, @max) AS text, c.text_chars AS total",
  markdown: "substr(c.markdown, 1, @max) AS text, c.markdown_chars AS total",
};

type DataRow = { docx: Buffer; text: string; markdown: string | null };
const toData = (row: DataRow | undefined): DocumentContent | null =>
  row ? { docx: bytesOf(row.docx), text: row.text, markdown: row.markdown } : null;

function statements({ db }: SqliteContext) {
  const old = `document_versions v JOIN contents c ON c.owner_id = v.owner_id AND c.hash = v.content_hash
    WHERE v.document_id = @id AND v.version = @n`;
  const columns = versionSummaryColumnsOf("v");
  return {
    currentText: db.prepare(`SELECT ${cutColumns.text} FROM ${liveWithContent}`),
    currentMarkdown: db.prepare(`SELECT ${cutColumns.markdown} FROM ${liveWithContent}`),
    currentDocx: db.prepare(`SELECT c.docx FROM ${liveWithContent}`),
    currentData: db.prepare(`SELECT c.docx, c.text, c.markdown FROM ${liveWithContent}`),
    text: db.prepare(`SELECT ${columns}, ${cutColumns.text} FROM ${old}`),
    markdown: db.prepare(`SELECT ${columns}, ${cutColumns.markdown} FROM ${old}`),
    docx: db.prepare(`SELECT ${columns}, c.docx FROM ${old}`),
    data: db.prepare(`SELECT c.docx, c.text, c.markdown FROM ${old}`),
  };
}

/** The content reads of any version; the version list and pruning are the lifecycle's (lifecycle.ts). */
export function createSqliteVersionReads(
  ctx: SqliteContext,
  live: (ownerId: string, id: string) => DocumentRecord | null,
): Pick<DocumentReads, "readVersionText" | "readVersionContent" | "readVersionData"> {
  const stmt = statements(ctx);

  /** A version of a live document: the current one from the document row, an earlier one from its history. */
  function version<T>(
    ownerId: string,
    id: string,
    n: number,
    fromCurrent: (document: DocumentRecord) => T,
    fromHistory: (document: DocumentRecord) => T | null,
  ): T | null {
    const document = live(ownerId, id);
    if (!document || n < 1 || n > document.version) return null;
    return n === document.version ? fromCurrent(document) : fromHistory(document);
  }

  return {
    async readVersionText(ownerId, id, n, format = "text", maxChars = ALL_CHARS) {
      const markdown = format === "markdown";
      type Cut = { text: string | null; total: number | null };
      return version(
        ownerId,
        id,
        n,
        (document) => {
          const row = (markdown ? stmt.currentMarkdown : stmt.currentText).get({ ownerId, id, max: maxChars }) as Cut;
          return { document, version: currentVersion(document), ...textRead(row.text, row.total, maxChars) };
        },
        (document) => {
          const row = (markdown ? stmt.markdown : stmt.text).get({ id, n, max: maxChars }) as (Row & Cut) | undefined;
          return row ? { document, version: toVersion(row), ...textRead(row.text, row.total, maxChars) } : null;
        },
      );
    },
    async readVersionContent(ownerId, id, n) {
      return version(
        ownerId,
        id,
        n,
        (document) => {
          const row = stmt.currentDocx.get({ ownerId, id }) as { docx: Buffer };
          return { document, version: currentVersion(document), docx: bytesOf(row.docx) };
        },
        (document) => {
          const row = stmt.docx.get({ id, n }) as (Row & { docx: Buffer }) | undefined;
          return row ? { document, version: toVersion(row), docx: bytesOf(row.docx) } : null;
        },
      );
    },
    async readVersionData(ownerId, id, n) {
      return version(
        ownerId,
        id,
        n,
        () => toData(stmt.currentData.get({ ownerId, id }) as DataRow | undefined),
        () => toData(stmt.data.get({ id, n }) as DataRow | undefined),
      );
    },
  };
}
