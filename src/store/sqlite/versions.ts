// Document versions on SQLite: the current version is the document row, earlier ones rows of
// document_versions.
import { bytesOf, currentVersion, toVersion, versionSummaryColumns, type VersionRow } from "../rows.ts";
import type { DocumentContent, DocumentRecord, VersionStore } from "../types.ts";
import type { Db } from "./connection.ts";
import { documentLookups } from "./lookups.ts";

type DataRow = { docx: Buffer; text: string; markdown: string | null };
const toData = (row: DataRow | undefined): DocumentContent | null =>
  row ? { docx: bytesOf(row.docx), text: row.text, markdown: row.markdown } : null;

function statements(db: Db) {
  const live = "owner_id = ? AND id = ? AND deleted_at IS NULL";
  const old = "document_id = ? AND version = ?";
  return {
    list: db.prepare(
      `SELECT ${versionSummaryColumns} FROM document_versions
       WHERE document_id = @id AND version < @before ORDER BY version DESC LIMIT @limit`,
    ),
    currentText: db.prepare(`SELECT text FROM documents WHERE ${live}`),
    currentMarkdown: db.prepare(`SELECT markdown AS text FROM documents WHERE ${live}`),
    currentDocx: db.prepare(`SELECT docx FROM documents WHERE ${live}`),
    currentData: db.prepare(`SELECT docx, text, markdown FROM documents WHERE ${live}`),
    text: db.prepare(`SELECT ${versionSummaryColumns}, text FROM document_versions WHERE ${old}`),
    markdown: db.prepare(`SELECT ${versionSummaryColumns}, markdown AS text FROM document_versions WHERE ${old}`),
    docx: db.prepare(`SELECT ${versionSummaryColumns}, docx FROM document_versions WHERE ${old}`),
    data: db.prepare(`SELECT docx, text, markdown FROM document_versions WHERE ${old}`),
    prune: db.prepare(
      `DELETE FROM document_versions WHERE replaced_at < ?
         AND version <= (SELECT d.version FROM documents d WHERE d.id = document_versions.document_id) - ?`,
    ),
  };
}

export function createSqliteVersions(db: Db): VersionStore {
  const stmt = statements(db);
  const lookups = documentLookups(db);

  /** A version of a live document: the current one from the document row, an earlier one from its history. */
  function version<T>(
    ownerId: string,
    id: string,
    n: number,
    fromCurrent: (document: DocumentRecord) => T,
    fromHistory: (document: DocumentRecord) => T | null,
  ): T | null {
    const document = lookups.live(ownerId, id);
    if (!document || n < 1 || n > document.version) return null;
    return n === document.version ? fromCurrent(document) : fromHistory(document);
  }

  return {
    async listVersions({ ownerId, id, beforeVersion, limit }) {
      const document = lookups.live(ownerId, id);
      if (!document) return null;
      const before = beforeVersion ?? Number.MAX_SAFE_INTEGER;
      const head = document.version < before ? [currentVersion(document)] : [];
      const rest = limit - head.length;
      const older = rest > 0 ? (stmt.list.all({ id, before, limit: rest }) as VersionRow[]).map(toVersion) : [];
      return [...head, ...older];
    },
    async readVersionText(ownerId, id, n, format = "text") {
      const markdown = format === "markdown";
      return version(
        ownerId,
        id,
        n,
        (document) => {
          const row = (markdown ? stmt.currentMarkdown : stmt.currentText).get(ownerId, id) as { text: string | null };
          return { document, version: currentVersion(document), text: row.text };
        },
        (document) => {
          const row = (markdown ? stmt.markdown : stmt.text).get(id, n) as (VersionRow & { text: string | null }) | undefined;
          return row ? { document, version: toVersion(row), text: row.text } : null;
        },
      );
    },
    async readVersionContent(ownerId, id, n) {
      return version(
        ownerId,
        id,
        n,
        (document) => {
          const row = stmt.currentDocx.get(ownerId, id) as { docx: Buffer };
          return { document, version: currentVersion(document), docx: bytesOf(row.docx) };
        },
        (document) => {
          const row = stmt.docx.get(id, n) as (VersionRow & { docx: Buffer }) | undefined;
          return row ? { document, version: toVersion(row), docx: bytesOf(row.docx) } : null;
        },
      );
    },
    async readVersionData(ownerId, id, n) {
      return version(
        ownerId,
        id,
        n,
        () => toData(stmt.currentData.get(ownerId, id) as DataRow | undefined),
        () => toData(stmt.data.get(id, n) as DataRow | undefined),
      );
    },
    async pruneVersions(replacedBefore, keepMin) {
      return stmt.prune.run(replacedBefore, keepMin).changes;
    },
  };
}
