// API keys on PostgreSQL; the lookup by hash (every authenticated request) is coalesced.
import { coalescer } from "../coalesce.ts";
import { apiKeyColumns, toApiKey, type ApiKeyRow } from "../key-rows.ts";
import type { KeyStore } from "../types.ts";
import { hasNul } from "../sql.ts";
import type { PgContext } from "./connection.ts";

export function createPostgresKeys({ pool, prepared }: PgContext): KeyStore {
  // The statement finds rows by the unique hash only (coalesce.ts).
  const byHash = coalescer<string, ApiKeyRow>(async (hashes) => {
    const { rows } = await pool.query<ApiKeyRow>(
      prepared("find_api_key", `SELECT ${apiKeyColumns} FROM api_keys WHERE hash = ANY($1::text[])`, [hashes]),
    );
    return new Map(rows.map((row) => [row.hash, row]));
  });
  return {
    async insertApiKey(key) {
      await pool.query(
        `INSERT INTO api_keys (${apiKeyColumns})
         VALUES ($1, $2, $3, $4::text[], $5, $6, $7, $8, $9)`,
        [key.id, key.userId, key.tenant, key.scopes, key.hash, key.prefix, key.createdAt, key.expiresAt, key.revokedAt],
      );
    },
    async findApiKeyByHash(hash) {
      if (hasNul(hash)) return null;
      const row = await byHash.load(hash);
      return row ? toApiKey(row) : null;
    },
    async listApiKeys(userId) {
      const { rows } =
        userId === undefined
          ? await pool.query<ApiKeyRow>(`SELECT * FROM api_keys ORDER BY created_at, id`)
          : await pool.query<ApiKeyRow>(`SELECT * FROM api_keys WHERE user_id = $1 ORDER BY created_at, id`, [userId]);
      return rows.map(toApiKey);
    },
    async revokeApiKey(id, at) {
      // Revoking twice keeps the first instant and still reports that the key exists.
      const result = await pool.query(`UPDATE api_keys SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2`, [at, id]);
      return (result.rowCount ?? 0) > 0;
    },
  };
}
