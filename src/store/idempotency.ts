// Idempotency records, on either database (sql.ts): claimed by the operation in its own
// transaction (lifecycle.ts), found and pruned here.
import { rowMapper, type Row } from "./rows.ts";
import { query, type Executor, type Tx } from "./sql.ts";
import { DEFAULT_OPERATION, type IdempotencyClaim, type IdempotencyHit, type IdempotentOperation } from "./types.ts";

const hitText = `SELECT target_id, fingerprint, response FROM idempotency WHERE owner_id = :ownerId AND operation = :operation AND key = :key`;
const findText = `${hitText} AND created_at >= :notBefore`;
// A record kept before answers were has a NULL response, which JSON.parse reads as null.
const toHit = rowMapper<IdempotencyHit>("target_id, fingerprint, response", { response: JSON.parse });
const hitOf = (rows: Row[]): IdempotencyHit | null => (rows[0] ? toHit(rows[0]) : null);

/** The fresh record of the claim's key, without claiming it (a change checks for a replay before it writes). */
export function* findClaim(
  ownerId: string,
  { key, notBefore, operation = DEFAULT_OPERATION }: IdempotencyClaim,
): Tx<IdempotencyHit | null> {
  return hitOf(yield* query(findText, { ownerId, operation, key, notBefore }));
}

/**
 * Claims the key for `targetId` and its answer (INSERT … ON CONFLICT on its primary key),
 * replacing a record older than the claim's window. Returns null when claimed, else the fresh
 * record that holds the key: on PostgreSQL ON CONFLICT has locked it, so a concurrent request with
 * the same key waits for this transaction and then finds the record.
 */
export function* claimIdempotency(
  ownerId: string,
  claim: IdempotencyClaim,
  targetId: string,
  at: string,
  response: unknown,
): Tx<IdempotencyHit | null> {
  const values = { ...claim, ownerId, operation: claim.operation ?? DEFAULT_OPERATION, targetId, at, response: JSON.stringify(response) };
  const claimed = yield* query(
    `INSERT INTO idempotency (owner_id, operation, key, fingerprint, target_id, response, created_at)
     VALUES (:ownerId, :operation, :key, :fingerprint, :targetId, :response, :at)
     ON CONFLICT (owner_id, operation, key) DO UPDATE SET fingerprint = excluded.fingerprint,
       target_id = excluded.target_id, response = excluded.response, created_at = excluded.created_at
     WHERE idempotency.created_at < :notBefore RETURNING key`,
    values,
  );
  if (claimed.length > 0) return null;
  return hitOf(yield* query(hitText, values));
}

export function createIdempotency(sql: Executor) {
  return {
    async findIdempotent(ownerId: string, key: string, notBefore: string, operation: IdempotentOperation = DEFAULT_OPERATION) {
      return hitOf(await sql.all(findText, { ownerId, operation, key, notBefore }, "find_idempotent"));
    },
    /** Drops idempotency records older than the given instant. */
    pruneIdempotency: (olderThan: string) => sql.run(`DELETE FROM idempotency WHERE created_at < :olderThan`, { olderThan }),
  };
}
