// Idempotency records on SQLite: claimed by the operation in its own transaction (documents.ts,
// workbooks), found and pruned here.
import { DEFAULT_OPERATION, type IdempotencyClaim, type IdempotencyHit, type IdempotencyStore } from "../types.ts";
import type { Db } from "./connection.ts";
import type { SqliteContext } from "./context.ts";

interface Row {
  target_id: string;
  fingerprint: string;
  response: string | null;
}

export const toHit = (row: Row): IdempotencyHit => ({
  targetId: row.target_id,
  fingerprint: row.fingerprint,
  response: row.response === null ? null : (JSON.parse(row.response) as unknown),
});

export interface IdempotencyStatements {
  find(ownerId: string, claim: Pick<IdempotencyClaim, "key" | "notBefore" | "operation">): IdempotencyHit | null;
  /** Records the claim for `targetId` and its answer, replacing a record older than the claim's window. */
  claim(ownerId: string, claim: IdempotencyClaim, targetId: string, at: string, response: unknown): void;
}

export function idempotencyStatements(db: Db): IdempotencyStatements {
  const find = db.prepare(
    `SELECT target_id, fingerprint, response FROM idempotency
     WHERE owner_id = ? AND operation = ? AND key = ? AND created_at >= ?`,
  );
  const insert = db.prepare(
    `INSERT INTO idempotency (owner_id, operation, key, fingerprint, target_id, response, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (owner_id, operation, key) DO UPDATE SET fingerprint = excluded.fingerprint,
       target_id = excluded.target_id, response = excluded.response, created_at = excluded.created_at
     WHERE idempotency.created_at < ?`,
  );
  return {
    find(ownerId, { key, notBefore, operation }) {
      const row = find.get(ownerId, operation ?? DEFAULT_OPERATION, key, notBefore) as Row | undefined;
      return row ? toHit(row) : null;
    },
    claim(ownerId, claim, targetId, at, response) {
      const operation = claim.operation ?? DEFAULT_OPERATION;
      insert.run(ownerId, operation, claim.key, claim.fingerprint, targetId, JSON.stringify(response), at, claim.notBefore);
    },
  };
}

export function createSqliteIdempotency({ db }: SqliteContext): IdempotencyStore {
  const statements = idempotencyStatements(db);
  const prune = db.prepare(`DELETE FROM idempotency WHERE created_at < ?`);
  return {
    async findIdempotent(ownerId, key, notBefore, operation) {
      return statements.find(ownerId, { key, notBefore, operation });
    },
    async pruneIdempotency(olderThan) {
      return prune.run(olderThan).changes;
    },
  };
}
