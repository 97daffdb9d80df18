// Share links to a document or a workbook, on either database (sql.ts).
import { findShareSql, shareColumns, toFoundShare, toShare } from "./rows.ts";
import type { Executor } from "./sql.ts";
import type { ShareStore } from "./types.ts";

export function createShares(sql: Executor): ShareStore {
  return {
    async insertShare({ id, kind, targetId, ownerId, tokenHash, createdAt, expiresAt }) {
      await sql.run(
        `INSERT INTO shares (id, kind, target_id, owner_id, token_hash, created_at, expires_at)
         VALUES (:id, :kind, :targetId, :ownerId, :tokenHash, :createdAt, :expiresAt)`,
        { id, kind, targetId, ownerId, tokenHash, createdAt, expiresAt },
      );
    },
    async listShares(ownerId, targetId, now) {
      const text = `SELECT ${shareColumns} FROM shares WHERE owner_id = :ownerId AND target_id = :targetId AND expires_at > :now
        ORDER BY created_at DESC, id DESC`;
      return (await sql.all(text, { ownerId, targetId, now })).map(toShare);
    },
    async deleteShare(ownerId, targetId, shareId) {
      const text = `DELETE FROM shares WHERE owner_id = :ownerId AND target_id = :targetId AND id = :shareId`;
      return (await sql.run(text, { ownerId, targetId, shareId })) > 0;
    },
    async findShare(tokenHash, now) {
      // PostgreSQL text cannot hold NUL (an error, not "no match"); no token hash has one.
      if (tokenHash.includes("\u0000")) return null;
      const [row] = await sql.all(findShareSql(":tokenHash", ":now"), { tokenHash, now }, "find_share");
      return row ? toFoundShare(row) : null;
    },
    pruneShares: (expiredBefore) => sql.run(`DELETE FROM shares WHERE expires_at < :expiredBefore`, { expiredBefore }),
  };
}
