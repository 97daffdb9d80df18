// Share links on PostgreSQL, to a document or a workbook.
import { findShareSql, shareColumns, toFoundShare, toShare, type ShareRow } from "../rows.ts";
import type { ShareStore } from "../types.ts";
import { hasNul, type PgContext } from "./connection.ts";

export function createPostgresShares({ pool, prepared }: PgContext): ShareStore {
  return {
    async insertShare(share) {
      await pool.query(
        `INSERT INTO shares (id, kind, target_id, owner_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [share.id, share.kind, share.targetId, share.ownerId, share.tokenHash, share.createdAt, share.expiresAt],
      );
    },
    async listShares(ownerId, targetId, now) {
      const { rows } = await pool.query<ShareRow>(
        `SELECT ${shareColumns} FROM shares WHERE owner_id = $1 AND target_id = $2 AND expires_at > $3 ORDER BY created_at DESC, id DESC`,
        [ownerId, targetId, now],
      );
      return rows.map(toShare);
    },
    async deleteShare(ownerId, targetId, shareId) {
      const result = await pool.query(`DELETE FROM shares WHERE owner_id = $1 AND target_id = $2 AND id = $3`, [
        ownerId,
        targetId,
        shareId,
      ]);
      return (result.rowCount ?? 0) > 0;
    },
    async findShare(tokenHash, now) {
      if (hasNul(tokenHash)) return null;
      const { rows } = await pool.query<Record<string, unknown>>(prepared("find_share", findShareSql("$1", "$2"), [tokenHash, now]));
      return rows[0] ? toFoundShare(rows[0]) : null;
    },
    async pruneShares(expiredBefore) {
      const result = await pool.query(`DELETE FROM shares WHERE expires_at < $1`, [expiredBefore]);
      return result.rowCount ?? 0;
    },
  };
}
