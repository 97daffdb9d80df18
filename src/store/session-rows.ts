// Sessions and sign-in links as both stores read them: the columns, the live-session condition
// (its key, when one opened it, still valid) and the rows' mapping to records.
import type { SessionMethod, SessionRecord, SignInLinkRecord } from "./types.ts";

export const sessionColumns = `s.id, s.user_id, s.tenant, s.scopes, s.method, s.key_id, s.created_at, s.expires_at, s.ended_at`;

/** A session alias `s` is live at `now` (a placeholder): not ended, not expired, its key (if any) neither revoked nor expired. */
export const liveSession = (now: string) =>
  `s.ended_at IS NULL AND s.expires_at > ${now} AND (s.key_id IS NULL OR EXISTS (
     SELECT 1 FROM api_keys k WHERE k.id = s.key_id AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ${now})))`;

export interface SessionRow {
  id: string;
  user_id: string;
  tenant: string | null;
  /** SQLite: space-separated; PostgreSQL: text[]. */
  scopes: string | string[];
  method: string;
  key_id: string | null;
  created_at: string;
  expires_at: string;
  ended_at: string | null;
}

export interface SignInLinkRow {
  id: string;
  user_id: string;
  tenant: string | null;
  scopes: string | string[];
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export const scopesOf = (scopes: string | string[]): string[] => (Array.isArray(scopes) ? scopes : scopes === "" ? [] : scopes.split(" "));

export const toSession = (row: SessionRow): SessionRecord => ({
  id: row.id,
  userId: row.user_id,
  tenant: row.tenant,
  scopes: scopesOf(row.scopes),
  method: row.method as SessionMethod,
  keyId: row.key_id,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  endedAt: row.ended_at,
});

export const toSignInLink = (row: SignInLinkRow): SignInLinkRecord => ({
  id: row.id,
  userId: row.user_id,
  tenant: row.tenant,
  scopes: scopesOf(row.scopes),
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  usedAt: row.used_at,
});
