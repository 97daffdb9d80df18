// Share links on PostgreSQL.
import { documentSummaryColumnsOf, shareColumns, toDocument, toShare, type DocumentRow, type ShareRow } from "../rows.ts";
import type { ShareStore } from "../types.ts";
import type { PgContext } from "./connection.ts";

export function createPostgresShares({ pool, prepared }: PgContext): ShareStore {
  return {
    async insertShare(share) {
      await pool.query(
        `INSERT INTO document_shares (id, document_id, owner_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [share.id, share.documentId, share.ownerId, share.tokenHash, share.createdAt, share.expiresAt],
      );
    },
    async listShares(ownerId, documentId, now) {
      const { rows } = await pool.query<ShareRow>(
        `SELECT ${shareColumns} FROM document_shares WHERE owner_id = $1 AND document_id = $2 AND expires_at > $3
         ORDER BY created_at DESC, id DESC`,
        [ownerId, documentId, now],
      );
      return rows.map(toShare);
    },
    async deleteShare(ownerId, documentId, shareId) {
      const result = await pool.query(`DELETE FROM document_shares WHERE owner_id = $1 AND document_id = $2 AND id = $3`, [
        ownerId,
        documentId,
        shareId,
      ]);
      return (result.rowCount ?? 0) > 0;
    },
    async findShare(tokenHash, now) {
      const { rows } = await pool.query<DocumentRow & { share_id: string; share_created_at: string; share_expires_at: string }>(
        prepared(
          "find_share",
          `SELECT s.id AS share_id, s.created_at AS share_created_at, s.expires_at AS share_expires_at, ${documentSummaryColumnsOf("d")}
           FROM document_shares s JOIN documents d ON d.id = s.document_id AND d.owner_id = s.owner_id
           WHERE s.token_hash = $1 AND s.expires_at > $2 AND d.deleted_at IS NULL`,
          [tokenHash, now],
        ),
      );
      const row = rows[0];
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
      const result = await pool.query(`DELETE FROM document_shares WHERE expires_at < $1`, [expiredBefore]);
      return result.rowCount ?? 0;
    },
  };
}
