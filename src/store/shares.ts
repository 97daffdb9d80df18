// Share links to a document or a workbook, on either database (sql.ts).
import { documentKind, workbookKind } from "./kinds.ts";
import { prefixedColumns, rowMapper, unprefixed, type Row } from "./rows.ts";
import { hasNul, type Executor } from "./sql.ts";
import type { KindRecord, NewShare, ShareRecord } from "./types.ts";

const shareColumns = "id, kind, target_id, owner_id, created_at, expires_at";
const toShare = rowMapper<ShareRecord>(shareColumns);
const kinds = { document: documentKind, workbook: workbookKind };

/** A valid share by token hash and its live target, in one statement: the target's columns come prefixed d_ or w_. */
const findShare = `SELECT ${prefixedColumns(shareColumns, "s", "s_")}, ${prefixedColumns(documentKind.summaryColumns, "d", "d_")},
     ${prefixedColumns(workbookKind.summaryColumns, "w", "w_")}
   FROM shares s
     LEFT JOIN documents d ON s.kind = 'document' AND d.id = s.target_id AND d.owner_id = s.owner_id AND d.deleted_at IS NULL
     LEFT JOIN workbooks w ON s.kind = 'workbook' AND w.id = s.target_id AND w.owner_id = s.owner_id AND w.deleted_at IS NULL
   WHERE s.token_hash = :tokenHash AND s.expires_at > :now`;

/** The found share and its target; null when its target is not live. */
function toFound(row: Row): { share: ShareRecord; target: KindRecord } | null {
  const share = toShare(unprefixed(row, "s_"));
  const prefix = share.kind === "document" ? "d_" : "w_";
  if (row[`${prefix}id`] == null) return null;
  return { share, target: { kind: share.kind, record: kinds[share.kind].toRecord(unprefixed(row, prefix)) } as KindRecord };
}

export function createShares(sql: Executor) {
  return {
    async insertShare({ id, kind, targetId, ownerId, tokenHash, createdAt, expiresAt }: NewShare) {
      await sql.run(
        `INSERT INTO shares (id, kind, target_id, owner_id, token_hash, created_at, expires_at)
         VALUES (:id, :kind, :targetId, :ownerId, :tokenHash, :createdAt, :expiresAt)`,
        { id, kind, targetId, ownerId, tokenHash, createdAt, expiresAt },
      );
    },
    /** The target's shares still valid at `now`, newest first. */
    async listShares(ownerId: string, targetId: string, now: string) {
      const text = `SELECT ${shareColumns} FROM shares WHERE owner_id = :ownerId AND target_id = :targetId AND expires_at > :now
        ORDER BY created_at DESC, id DESC`;
      return (await sql.all(text, { ownerId, targetId, now })).map(toShare);
    },
    async deleteShare(ownerId: string, targetId: string, shareId: string) {
      const text = `DELETE FROM shares WHERE owner_id = :ownerId AND target_id = :targetId AND id = :shareId`;
      return (await sql.run(text, { ownerId, targetId, shareId })) > 0;
    },
    async findShare(tokenHash: string, now: string) {
      if (hasNul(tokenHash)) return null;
      const [row] = await sql.all(findShare, { tokenHash, now }, "find_share");
      return row ? toFound(row) : null;
    },
    pruneShares: (expiredBefore: string) => sql.run(`DELETE FROM shares WHERE expires_at < :expiredBefore`, { expiredBefore }),
  };
}
