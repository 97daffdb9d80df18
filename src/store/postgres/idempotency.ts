// Idempotency records on PostgreSQL: claimed by the operation in its own transaction
// (documents.ts, workbooks), found and pruned here.
import type pg from "pg";
import { DEFAULT_OPERATION, type IdempotencyClaim, type IdempotencyHit, type IdempotencyStore } from "../types.ts";
import type { PgContext } from "./connection.ts";

interface Row {
  target_id: string;
  fingerprint: string;
  response: string | null;
}

const toHit = (row: Row): IdempotencyHit => ({
  targetId: row.target_id,
  fingerprint: row.fingerprint,
  response: row.response === null ? null : (JSON.parse(row.response) as unknown),
});

/**
 * Claims the key for `targetId` and its answer (INSERT … ON CONFLICT on its primary key),
 * replacing a record older than the claim's window. Returns null when claimed, else the fresh
 * record that holds the key: ON CONFLICT has locked it, so a concurrent request with the same key
 * waits for this transaction and then finds the record.
 */
export async function claimIdempotency(
  client: pg.PoolClient,
  ownerId: string,
  claim: IdempotencyClaim,
  targetId: string,
  at: string,
  response: unknown,
): Promise<IdempotencyHit | null> {
  const operation = claim.operation ?? DEFAULT_OPERATION;
  const claimed = await client.query(
    `INSERT INTO idempotency (owner_id, operation, key, fingerprint, target_id, response, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (owner_id, operation, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
       target_id = EXCLUDED.target_id, response = EXCLUDED.response, created_at = EXCLUDED.created_at
     WHERE idempotency.created_at < $8`,
    [ownerId, operation, claim.key, claim.fingerprint, targetId, JSON.stringify(response), at, claim.notBefore],
  );
  if (claimed.rowCount !== 0) return null;
  const { rows } = await client.query<Row>(
    `SELECT target_id, fingerprint, response FROM idempotency WHERE owner_id = $1 AND operation = $2 AND key = $3`,
    [ownerId, operation, claim.key],
  );
  const row = rows[0];
  return row ? toHit(row) : null;
}

/** The fresh record of the claim's key, without claiming it (a change checks for a replay before it writes). */
export async function findClaim(client: pg.PoolClient, ownerId: string, claim: IdempotencyClaim): Promise<IdempotencyHit | null> {
  const { rows } = await client.query<Row>(
    `SELECT target_id, fingerprint, response FROM idempotency WHERE owner_id = $1 AND operation = $2 AND key = $3 AND created_at >= $4`,
    [ownerId, claim.operation ?? DEFAULT_OPERATION, claim.key, claim.notBefore],
  );
  return rows[0] ? toHit(rows[0]) : null;
}

export function createPostgresIdempotency({ pool, prepared }: PgContext): IdempotencyStore {
  return {
    async findIdempotent(ownerId, key, notBefore, operation = DEFAULT_OPERATION) {
      const { rows } = await pool.query<Row>(
        prepared(
          "find_idempotent",
          `SELECT target_id, fingerprint, response FROM idempotency
           WHERE owner_id = $1 AND operation = $2 AND key = $3 AND created_at >= $4`,
          [ownerId, operation, key, notBefore],
        ),
      );
      const row = rows[0];
      return row ? toHit(row) : null;
    },
    async pruneIdempotency(olderThan) {
      const result = await pool.query(`DELETE FROM idempotency WHERE created_at < $1`, [olderThan]);
      return result.rowCount ?? 0;
    },
  };
}
