// One shape for "call a documents operation through some surface", so the behaviour matrix
// is written once and run against REST, GraphQL and tRPC.
import type { DocumentList, DocumentSummary, DocumentText } from "../../src/contract/documents.ts";

export type Outcome<T> = { ok: true; data: T } | { ok: false; code: string; message: string; httpStatus?: number; headers?: Headers };

export interface CreateArgs {
  name?: unknown;
  markdown?: unknown;
}

export interface ListArgs {
  query?: string;
  limit?: unknown;
  cursor?: string;
}

export interface DocumentsDriver {
  surface: "rest" | "graphql" | "trpc";
  /** `auth` is the whole Authorization header value, or null to send none. */
  create(auth: string | null, args: CreateArgs, idempotencyKey?: string): Promise<Outcome<DocumentSummary>>;
  list(auth: string | null, args?: ListArgs): Promise<Outcome<DocumentList>>;
  read(auth: string | null, id: string, maxChars?: unknown): Promise<Outcome<DocumentText>>;
}

export const bearer = (token: string) => `Bearer ${token}`;

export function expectOk<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.code}: ${outcome.message}`);
  return outcome.data;
}
