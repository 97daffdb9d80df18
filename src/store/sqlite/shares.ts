// Share links on SQLite.
import { documentSummaryColumnsOf, shareColumns, toDocument, toShare, type DocumentRow, type ShareRow } from "../rows.ts";
import type { ShareStore } from "../types.ts";
import type { SqliteContext } from "./context.ts";

export function createSqliteShares({ db }: SqliteContext): ShareStore {
  const stmt = {
    insert: db.prepare(
      `INSERT INTO document_shares (id, document_id, owner_id, token_hash, created_at, expires_at)
       VALUES (@id, @documentId, @ownerId, @tokenHash, @createdAt, @expiresAt)`,
    ),
    list: db.prepare(
      `SELECT ${shareColumns} FROM document_shares WHERE owner_id = ? AND document_id = ? AND expires_at > ?
       ORDER BY created_at DESC, id DESC`,
    ),
    delete: db.prepare(`DELETE FROM document_shares WHERE owner_id = ? AND document_id = ? AND id = ?`),
    find: db.prepare(
      `SELECT s.id AS share_id, s.created_at AS share_created_at, s.expires_at AS share_expires_at, ${documentSummaryColumnsOf("d")}
       FROM document_shares s JOIN documents d ON d.id = s.document_id AND d.owner_id = s.owner_id
       WHERE s.token_hash = ? AND s.expires_at > ? AND d.deleted_at IS NULL`,
    ),
    prune: db.prepare(`DELETE FROM document_shares WHERE expires_at < ?`),
  };
  return {
    async insertShare(share) {
      stmt.insert.run(share);
    },
    async listShares(ownerId, documentId, now) {
      return (stmt.list.all(ownerId, documentId, now) as ShareRow[]).map(toShare);
    },
    async deleteShare(ownerId, documentId, shareId) {
      return stmt.delete.run(ownerId, documentId, shareId).changes > 0;
    },
    async findShare(tokenHash, now) {
      const row = stmt.find.get(tokenHash, now) as
        (DocumentRow & { share_id: string; share_created_at: string; share_expires_at: string }) | undefined;
      if (!row) return null;
      return {
        share: {
          id: row.share_id,
          documentId: row.id,
          ownerId: row.owner_id,
          createdAt: row.share_created_at,
          expiresAt: row.share_expires_at,
        },
        document: toDocument(row),
      };
    },
    async pruneShares(expiredBefore) {
      return stmt.prune.run(expiredBefore).changes;
    },
  };
}
