// API keys on SQLite (scopes as one space-separated string).
import { apiKeyColumns, toApiKey, type ApiKeyRow } from "../key-rows.ts";
import type { KeyStore } from "../types.ts";
import type { SqliteContext } from "./context.ts";

export function createSqliteKeys({ db }: SqliteContext): KeyStore {
  const stmt = {
    insert: db.prepare(
      `INSERT INTO api_keys (${apiKeyColumns})
       VALUES (@id, @userId, @tenant, @scopes, @hash, @prefix, @createdAt, @expiresAt, @revokedAt)`,
    ),
    find: db.prepare(`SELECT * FROM api_keys WHERE hash = ?`),
    list: db.prepare(`SELECT * FROM api_keys WHERE (@userId IS NULL OR user_id = @userId) ORDER BY created_at, id`),
    revoke: db.prepare(`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?`),
  };
  return {
    async insertApiKey(key) {
      stmt.insert.run({ ...key, scopes: key.scopes.join(" ") });
    },
    async findApiKeyByHash(hash) {
      const row = stmt.find.get(hash) as ApiKeyRow | undefined;
      return row ? toApiKey(row) : null;
    },
    async listApiKeys(userId) {
      return (stmt.list.all({ userId: userId ?? null }) as ApiKeyRow[]).map(toApiKey);
    },
    async revokeApiKey(id, at) {
      return stmt.revoke.run(at, id).changes > 0;
    },
  };
}
