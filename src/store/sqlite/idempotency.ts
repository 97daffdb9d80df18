// Idempotency records on SQLite: claimed by a create in its own transaction (documents.ts), found
// and pruned here.
import type { IdempotencyClaim, IdempotencyHit, IdempotencyStore } from "../types.ts";
import type { Db } from "./connection.ts";
import type { SqliteContext } from "./context.ts";

export interface IdempotencyStatements {
  find(ownerId: string, key: string, notBefore: string): IdempotencyHit | null;
  /** Records the claim for `documentId`, replacing a record older than the claim's window. */
  claim(ownerId: string, claim: IdempotencyClaim, documentId: string, at: string): void;
}

export function idempotencyStatements(db: Db): IdempotencyStatements {
  const find = db.prepare(`SELECT document_id, fingerprint FROM idempotency WHERE owner_id = ? AND key = ? AND created_at >= ?`);
  const insert = db.prepare(
    `INSERT INTO idempotency (owner_id, key, fingerprint, document_id, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (owner_id, key) DO UPDATE SET fingerprint = excluded.fingerprint,
       document_id = excluded.document_id, created_at = excluded.created_at
     WHERE idempotency.created_at < ?`,
  );
  return {
    find(ownerId, key, notBefore) {
      const row = find.get(ownerId, key, notBefore) as { document_id: string; fingerprint: string } | undefined;
      return row ? { documentId: row.document_id, fingerprint: row.fingerprint } : null;
    },
    claim(ownerId, claim, documentId, at) {
      insert.run(ownerId, claim.key, claim.fingerprint, documentId, at, claim.notBefore);
    },
  };
}

export function createSqliteIdempotency({ db }: SqliteContext): IdempotencyStore {
  const statements = idempotencyStatements(db);
  const prune = db.prepare(`DELETE FROM idempotency WHERE created_at < ?`);
  return {
    async findIdempotent(ownerId, key, notBefore) {
      return statements.find(ownerId, key, notBefore);
    },
    async pruneIdempotency(olderThan) {
      return prune.run(olderThan).changes;
    },
  };
}
