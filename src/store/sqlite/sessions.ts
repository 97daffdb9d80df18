// The owner's application's sessions and sign-in links on SQLite (scopes as one space-separated string).
import { liveSession, sessionColumns, toSession, toSignInLink, type SessionRow, type SignInLinkRow } from "../session-rows.ts";
import type { SessionStore } from "../types.ts";
import type { SqliteContext } from "./context.ts";

export function createSqliteSessions({ db }: SqliteContext): SessionStore {
  const stmt = {
    insertLink: db.prepare(
      `INSERT INTO sign_in_links (id, token_hash, user_id, tenant, scopes, created_at, expires_at)
       VALUES (@id, @tokenHash, @userId, @tenant, @scopes, @createdAt, @expiresAt)`,
    ),
    useLink: db.prepare(
      `UPDATE sign_in_links SET used_at = @now WHERE token_hash = @tokenHash AND used_at IS NULL AND expires_at > @now
       RETURNING id, user_id, tenant, scopes, created_at, expires_at, used_at`,
    ),
    insert: db.prepare(
      `INSERT INTO sessions (id, token_hash, user_id, tenant, scopes, method, key_id, created_at, expires_at)
       VALUES (@id, @tokenHash, @userId, @tenant, @scopes, @method, @keyId, @createdAt, @expiresAt)`,
    ),
    find: db.prepare(`SELECT ${sessionColumns} FROM sessions s WHERE s.token_hash = @tokenHash AND ${liveSession("@now")}`),
    end: db.prepare(`UPDATE sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL`),
    endOfKey: db.prepare(`UPDATE sessions SET ended_at = ? WHERE key_id = ? AND ended_at IS NULL`),
    list: db.prepare(
      `SELECT ${sessionColumns} FROM sessions s WHERE (@userId IS NULL OR s.user_id = @userId) AND ${liveSession("@now")}
       ORDER BY s.created_at, s.id`,
    ),
    pruneSessions: db.prepare(`DELETE FROM sessions WHERE expires_at < ? OR ended_at < ?`),
    pruneLinks: db.prepare(`DELETE FROM sign_in_links WHERE expires_at < ?`),
  };
  return {
    async insertSignInLink(link) {
      stmt.insertLink.run({ ...link, scopes: link.scopes.join(" ") });
    },
    async useSignInLink(tokenHash, now) {
      const row = stmt.useLink.get({ tokenHash, now }) as SignInLinkRow | undefined;
      return row ? toSignInLink(row) : null;
    },
    async insertSession(session) {
      stmt.insert.run({ ...session, scopes: session.scopes.join(" ") });
    },
    async findSession(tokenHash, now) {
      const row = stmt.find.get({ tokenHash, now }) as SessionRow | undefined;
      return row ? toSession(row) : null;
    },
    async endSession(id, at) {
      return stmt.end.run(at, id).changes > 0;
    },
    async endSessionsOfKey(keyId, at) {
      return stmt.endOfKey.run(at, keyId).changes;
    },
    async listSessions(now, userId) {
      return (stmt.list.all({ now, userId: userId ?? null }) as SessionRow[]).map(toSession);
    },
    async pruneSessions(before) {
      return db.transaction(() => stmt.pruneSessions.run(before, before).changes + stmt.pruneLinks.run(before).changes)();
    },
  };
}
