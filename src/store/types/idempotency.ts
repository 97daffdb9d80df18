// Idempotency records of creates (written by the create itself, in its transaction).

export interface IdempotencyClaim {
  key: string;
  /** Hash of the request, so a reused key with a different body is detected. */
  fingerprint: string;
  /** Records older than this are ignored and replaced (24 h window). */
  notBefore: string;
}

export interface IdempotencyHit {
  documentId: string;
  fingerprint: string;
}

export interface IdempotencyStore {
  findIdempotent(ownerId: string, key: string, notBefore: string): Promise<IdempotencyHit | null>;
  /** Drops idempotency records older than the given instant. */
  pruneIdempotency(olderThan: string): Promise<number>;
}
