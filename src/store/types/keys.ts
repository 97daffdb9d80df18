// API keys: only their hash is stored.

export interface ApiKeyRecord {
  id: string;
  userId: string;
  tenant: string | null;
  scopes: string[];
  /** sha-256 of the whole key, hex. */
  hash: string;
  /** First characters of the key, safe to show (never enough to use it). */
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface KeyStore {
  insertApiKey(key: ApiKeyRecord): Promise<void>;
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  listApiKeys(userId?: string): Promise<ApiKeyRecord[]>;
  /** Returns false when no such key exists. */
  revokeApiKey(id: string, at: string): Promise<boolean>;
}
