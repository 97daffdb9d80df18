// Idempotency records: what a request with an Idempotency-Key made and answered, written by the
// operation itself in its transaction, so that a retry answers the first response again.
import type { createIdempotency } from "../idempotency.ts";

/** The operation a key was used for: the same key on two operations never collides. */
export type IdempotentOperation = "documents.create" | "sheets.create" | "sheets.append" | (string & {});

export interface IdempotencyClaim {
  key: string;
  /** Hash of the request, so a reused key with a different body is detected. */
  fingerprint: string;
  /** Records older than this are ignored and replaced (24 h window). */
  notBefore: string;
  operation?: IdempotentOperation;
}

export interface IdempotencyHit {
  /** What the first request made or changed (a document or workbook id). */
  targetId: string;
  fingerprint: string;
  /** What the first request answered (the record, parsed from JSON); null for a record kept before responses were. */
  response: unknown;
}

/** Finding and pruning records in the store (../idempotency.ts; an operation claims its own). */
export type IdempotencyStore = ReturnType<typeof createIdempotency>;

export const DEFAULT_OPERATION: IdempotentOperation = "documents.create";
