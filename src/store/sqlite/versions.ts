// Document versions on SQLite: the current version is the document row, earlier ones rows of
// document_versions; each refers to its content in `contents` by hash.
import { bytesOf, currentVersion, toVersion, versionSummaryColumns, versionSummaryColumnsOf, type VersionRow } from "../rows.ts";
import type { DocumentContent, DocumentRecord, VersionStore } from "../types.ts";
import type { SqliteContext } from "./context.ts";
import { cutColumns, liveWithContent } from "./documents.ts";
import { ALL_CHARS, byOwner, textRead } from "../content.ts";

type DataRow = { docx: Buffer; text: string; markdown: string | null };
const toData = (row: DataRow | undefined): DocumentContent | null =>
  row ? { docx: bytesOf(row.docx), text: row.text, markdown: row.markdown } : null;

function statements({ db }: SqliteContext) {
  const old = `document_versions v JOIN contents c ON c.owner_id = v.owner_id AND c.hash = v.content_hash
    WHERE v.document_id = @id AND v.version = @n`;
  const columns = versionSummaryColumnsOf("v");
  return {
    list: db.prepare(
      `SELECT ${versionSummaryColumns} FROM document_versions
       WHERE document_id = @id AND version < @before ORDER BY version DESC LIMIT @limit`,
    ),
    currentText: db.prepare(`SELECT ${cutColumns.text} FROM ${liveWithContent}`),
    currentMarkdown: db.prepare(`SELECT ${cutColumns.markdown} FROM ${liveWithContent}`),
    currentDocx: db.prepare(`SELECT c.docx FROM ${liveWithContent}`),
    currentData: db.prepare(`SELECT c.docx, c.text, c.markdown FROM ${liveWithContent}`),
    text: db.prepare(`SELECT ${columns}, ${cutColumns.text} FROM ${old}`),
    markdown: db.prepare(`SELECT ${columns}, ${cutColumns.markdown} FROM ${old}`),
    docx: db.prepare(`SELECT ${columns}, c.docx FROM ${old}`),
    data: db.prepare(`SELECT c.docx, c.text, c.markdown FROM ${old}`),
    prune: db.prepare(
      `DELETE FROM document_versions WHERE replaced_at < ?
         AND version <= (SELECT d.version FROM documents d WHERE d.id = document_versions.document_id) - ?
       RETURNING owner_id, content_hash`,
    ),
  };
}

export function createSqliteVersions(ctx: SqliteContext): VersionStore {
  const { db, lookups, contents } = ctx;
  const stmt = statements(ctx);

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

  // The versions go, then the contents only they referred to, in one transaction.
  const prune = db.transaction((replacedBefore: string, keepMin: number): number => {
    const gone = stmt.prune.all(replacedBefore, keepMin) as { owner_id: string; content_hash: string }[];
    for (const [ownerId, hashes] of byOwner(gone)) contents.collect(ownerId, hashes);
    return gone.length;
  });

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
          const row = (markdown ? stmt.markdown : stmt.text).get({ id, n, max: maxChars }) as (VersionRow & Cut) | undefined;
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
          const row = stmt.docx.get({ id, n }) as (VersionRow & { docx: Buffer }) | undefined;
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
    async pruneVersions(replacedBefore, keepMin) {
      return prune.immediate(replacedBefore, keepMin);
    },
  };
}
