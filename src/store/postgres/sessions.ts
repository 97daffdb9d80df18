// The owner's application's sessions and sign-in links on PostgreSQL; the lookup by token hash
// (every page a signed-in person opens) is a prepared statement.
import { liveSession, sessionColumns, toSession, toSignInLink, type SessionRow, type SignInLinkRow } from "../session-rows.ts";
import type { SessionStore } from "../types.ts";
import { hasNul } from "../sql.ts";
import type { PgContext } from "./connection.ts";

export function createPostgresSessions({ pool, prepared }: PgContext): SessionStore {
  return {
    async insertSignInLink(link) {
      await pool.query(
        `INSERT INTO sign_in_links (id, token_hash, user_id, tenant, scopes, created_at, expires_at) VALUES ($1, $2, $3, $4, $5::text[], $6, $7)`,
        [link.id, link.tokenHash, link.userId, link.tenant, link.scopes, link.createdAt, link.expiresAt],
      );
    },
    async useSignInLink(tokenHash, now) {
      if (hasNul(tokenHash)) return null;
      const { rows } = await pool.query<SignInLinkRow>(
        `UPDATE sign_in_links SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
         RETURNING id, user_id, tenant, scopes, created_at, expires_at, used_at`,
        [tokenHash, now],
      );
      return rows[0] ? toSignInLink(rows[0]) : null;
    },
    async insertSession(session) {
      await pool.query(
        `INSERT INTO sessions (id, token_hash, user_id, tenant, scopes, method, key_id, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5::text[], $6, $7, $8, $9)`,
        [
          session.id,
          session.tokenHash,
          session.userId,
          session.tenant,
          session.scopes,
          session.method,
          session.keyId,
          session.createdAt,
          session.expiresAt,
        ],
      );
    },
    async findSession(tokenHash, now) {
      if (hasNul(tokenHash)) return null;
      const { rows } = await pool.query<SessionRow>(
        prepared("find_session", `SELECT ${sessionColumns} FROM sessions s WHERE s.token_hash = $1 AND ${liveSession("$2")}`, [
          tokenHash,
          now,
        ]),
      );
      return rows[0] ? toSession(rows[0]) : null;
    },
    async endSession(id, at) {
      if (hasNul(id)) return false;
      const result = await pool.query(`UPDATE sessions SET ended_at = $1 WHERE id = $2 AND ended_at IS NULL`, [at, id]);
      return (result.rowCount ?? 0) > 0;
    },
    async endSessionsOfKey(keyId, at) {
      if (hasNul(keyId)) return 0;
      const result = await pool.query(`UPDATE sessions SET ended_at = $1 WHERE key_id = $2 AND ended_at IS NULL`, [at, keyId]);
      return result.rowCount ?? 0;
    },
    async listSessions(now, userId) {
      const { rows } = await pool.query<SessionRow>(
        `SELECT ${sessionColumns} FROM sessions s WHERE ($2::text IS NULL OR s.user_id = $2) AND ${liveSession("$1")}
         ORDER BY s.created_at, s.id`,
        [now, userId ?? null],
      );
      return rows.map(toSession);
    },
    async pruneSessions(before) {
      const sessions = await pool.query(`DELETE FROM sessions WHERE expires_at < $1 OR ended_at < $1`, [before]);
      const links = await pool.query(`DELETE FROM sign_in_links WHERE expires_at < $1`, [before]);
      return (sessions.rowCount ?? 0) + (links.rowCount ?? 0);
    },
  };
}
