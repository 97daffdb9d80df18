// API key rows as both stores read them back, and their mapping to records (scopes are one
// space-separated string on SQLite, a text[] on PostgreSQL).
import { rowMapper } from "./rows.ts";
import { scopesOf } from "./session-rows.ts";
import type { ApiKeyRecord } from "./types.ts";

export const apiKeyColumns = "id, user_id, tenant, scopes, hash, prefix, created_at, expires_at, revoked_at";

export interface ApiKeyRow {
  id: string;
  user_id: string;
  tenant: string | null;
  scopes: string | string[];
  hash: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export const toApiKey: (row: ApiKeyRow) => ApiKeyRecord = rowMapper(apiKeyColumns, { scopes: scopesOf });
