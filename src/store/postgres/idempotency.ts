// Idempotency records on PostgreSQL: claimed by a create in its own transaction (documents.ts),
// found and pruned here.
import type pg from "pg";
import type { IdempotencyClaim, IdempotencyHit, IdempotencyStore } from "../types.ts";
import type { PgContext } from "./connection.ts";

/**
 * Claims the key for `documentId` (INSERT … ON CONFLICT on its primary key), replacing a record
 * older than the claim's window. Returns null when claimed, else the fresh record that holds the
 * key: ON CONFLICT has locked it, so a concurrent create with the same key waits for this
 * transaction and then finds the record.
 */
export async function claimIdempotency(
  client: pg.PoolClient,
  ownerId: string,
  claim: IdempotencyClaim,
  documentId: string,
  at: string,
): Promise<IdempotencyHit | null> {
  const claimed = await client.query(
    `INSERT INTO idempotency (owner_id, key, fingerprint, document_id, created_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (owner_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
       document_id = EXCLUDED.document_id, created_at = EXCLUDED.created_at
     WHERE idempotency.created_at < $6`,
    [ownerId, claim.key, claim.fingerprint, documentId, at, claim.notBefore],
  );
  if (claimed.rowCount !== 0) return null;
  const { rows } = await client.query<{ document_id: string; fingerprint: string }>(
    `SELECT document_id, fingerprint FROM idempotency WHERE owner_id = $1 AND key = $2`,
    [ownerId, claim.key],
  );
  const row = rows[0];
  return row ? { documentId: row.document_id, fingerprint: row.fingerprint } : null;
}

export function createPostgresIdempotency({ pool, prepared }: PgContext): IdempotencyStore {
  return {
    async findIdempotent(ownerId, key, notBefore) {
      const { rows } = await pool.query<{ document_id: string; fingerprint: string }>(
        prepared(
          "find_idempotent",
          `SELECT document_id, fingerprint FROM idempotency WHERE owner_id = $1 AND key = $2 AND created_at >= $3`,
          [ownerId, key, notBefore],
        ),
      );
      const row = rows[0];
      return row ? { documentId: row.document_id, fingerprint: row.fingerprint } : null;
    },
    async pruneIdempotency(olderThan) {
      const result = await pool.query(`DELETE FROM idempotency WHERE created_at < $1`, [olderThan]);
      return result.rowCount ?? 0;
    },
  };
}
