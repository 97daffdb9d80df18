// Share links on SQLite, to a document or a workbook.
import { findShareSql, shareColumns, toFoundShare, toShare, type ShareRow } from "../rows.ts";
import type { ShareStore } from "../types.ts";
import type { SqliteContext } from "./context.ts";

export function createSqliteShares({ db }: SqliteContext): ShareStore {
  const stmt = {
    insert: db.prepare(
      `INSERT INTO shares (id, kind, target_id, owner_id, token_hash, created_at, expires_at)
       VALUES (@id, @kind, @targetId, @ownerId, @tokenHash, @createdAt, @expiresAt)`,
    ),
    list: db.prepare(
      `SELECT ${shareColumns} FROM shares WHERE owner_id = ? AND target_id = ? AND expires_at > ? ORDER BY created_at DESC, id DESC`,
    ),
    delete: db.prepare(`DELETE FROM shares WHERE owner_id = ? AND target_id = ? AND id = ?`),
    find: db.prepare(findShareSql("?", "?")),
    prune: db.prepare(`DELETE FROM shares WHERE expires_at < ?`),
  };
  return {
    async insertShare(share) {
      stmt.insert.run(share);
    },
    async listShares(ownerId, targetId, now) {
      return (stmt.list.all(ownerId, targetId, now) as ShareRow[]).map(toShare);
    },
    async deleteShare(ownerId, targetId, shareId) {
      return stmt.delete.run(ownerId, targetId, shareId).changes > 0;
    },
    async findShare(tokenHash, now) {
      const row = stmt.find.get(tokenHash, now) as Record<string, unknown> | undefined;
      return row ? toFoundShare(row) : null;
    },
    async pruneShares(expiredBefore) {
      return stmt.prune.run(expiredBefore).changes;
    },
  };
}
