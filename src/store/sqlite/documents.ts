// Documents on SQLite: the one lifecycle (../lifecycle.ts) over content kept in `contents`
// (content.ts, shared by versions), and what only documents have: the cut text read and the .docx,
// of the current version here, of any version in versions.ts.
import { documentKind } from "../kinds.ts";
import { itemLifecycle } from "../lifecycle.ts";
import { bytesOf, documentSummaryColumns, documentSummaryColumnsOf, toDocument, type Row } from "../rows.ts";
import type { DocumentChange, DocumentContent, DocumentItems, DocumentRecord, NewDocument, VersionRecord } from "../types.ts";
import { ALL_CHARS, textRead } from "../content.ts";
import type { Db } from "./connection.ts";
import type { SqliteContext } from "./context.ts";
import { createSqliteVersionReads, cutColumns, liveWithContent } from "./versions.ts";

export function createSqliteDocuments(ctx: SqliteContext): DocumentItems {
  const { db, contents } = ctx;
  const items = itemLifecycle<DocumentRecord, VersionRecord, DocumentContent, NewDocument, DocumentChange, Db>(ctx.sql, documentKind, {
    put(_, ownerId, content: DocumentContent) {
      const { hash, textChars } = contents.put(ownerId, content);
      return { size_bytes: content.docx.byteLength, characters: textChars, content_hash: hash };
    },
    collect: (_, ownerId, hashes) => contents.collect(ownerId, hashes),
  });
  const stmt = {
    live: db.prepare(`SELECT ${documentSummaryColumns} FROM documents WHERE owner_id = ? AND id = ? AND deleted_at IS NULL`),
    readText: db.prepare(`SELECT ${documentSummaryColumnsOf("d")}, ${cutColumns.text} FROM ${liveWithContent}`),
    readMarkdown: db.prepare(`SELECT ${documentSummaryColumnsOf("d")}, ${cutColumns.markdown} FROM ${liveWithContent}`),
    readContent: db.prepare(`SELECT ${documentSummaryColumnsOf("d")}, c.docx FROM ${liveWithContent}`),
  };
  // Synchronous, for the version reads' own statements.
  const live = (ownerId: string, id: string) => {
    const row = stmt.live.get(ownerId, id) as Row | undefined;
    return row ? toDocument(row) : null;
  };
  return {
    ...items,
    ...createSqliteVersionReads(ctx, live),
    async readText(ownerId, id, format = "text", maxChars = ALL_CHARS) {
      const row = (format === "markdown" ? stmt.readMarkdown : stmt.readText).get({ ownerId, id, max: maxChars }) as
        (Row & { text: string | null; total: number | null }) | undefined;
      return row ? { document: toDocument(row), ...textRead(row.text, row.total, maxChars) } : null;
    },
    async readContent(ownerId, id) {
      const row = stmt.readContent.get({ ownerId, id }) as (Row & { docx: Buffer }) | undefined;
      return row ? { document: toDocument(row), docx: bytesOf(row.docx) } : null;
    },
  };
}
