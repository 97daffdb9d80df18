// Personal API keys: `wgk_` + 32 random bytes (base64url). Only a sha-256 of the key is kept;
// 256 bits of randomness make a slow hash unnecessary, and lookups stay one index probe.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { monotonicFactory } from "ulid";
import { GatewayError } from "../core/errors.ts";
import { keyScopes } from "../core/principal.ts";
import type { ApiKeyRecord, KeyStore } from "../store/types.ts";

export const API_KEY_PREFIX = "wgk_";
const keyPattern = /^wgk_[A-Za-z0-9_-]{43,}$/;
const ulid = monotonicFactory();

export const hashApiKey = (key: string): string => createHash("sha256").update(key).digest("hex");

export const looksLikeApiKey = (token: string): boolean => token.startsWith(API_KEY_PREFIX);

export { parseDuration } from "../core/duration.ts";

export interface CreateApiKeyInput {
  userId: string;
  tenant?: string | null;
  scopes?: string[];
  expiresInMs?: number | null;
  now?: Date;
}

/** A user id as keys, sign-in links and sessions take it. */
export const userIdPattern = /^[A-Za-z0-9._@:-]{1,128}$/;
export const tenantPattern = /^[a-z0-9][a-z0-9-]{0,62}$/;

/**
 * Checks who a credential is for (a key, a sign-in link): the user id, the tenant, the scopes
 * (default all of keyScopes); returns the scopes without repeats.
 */
export function checkIdentity(input: { userId: string; tenant?: string | null; scopes?: string[] }): string[] {
  if (!userIdPattern.test(input.userId)) throw new GatewayError("BAD_USER_INPUT", "user id must be 1-128 of [A-Za-z0-9._@:-]");
  if (input.tenant && !tenantPattern.test(input.tenant)) {
    throw new GatewayError("BAD_USER_INPUT", "tenant must match [a-z0-9][a-z0-9-]{0,62}");
  }
  const scopes = input.scopes ?? [...keyScopes];
  for (const scope of scopes) {
    if (!(keyScopes as readonly string[]).includes(scope)) {
      throw new GatewayError("BAD_USER_INPUT", `Unknown scope "${scope}" (known: ${keyScopes.join(", ")})`);
    }
  }
  return [...new Set(scopes)];
}

export async function createApiKey(store: KeyStore, input: CreateApiKeyInput): Promise<{ key: string; record: ApiKeyRecord }> {
  const scopes = checkIdentity(input);
  const now = input.now ?? new Date();
  const key = API_KEY_PREFIX + randomBytes(32).toString("base64url");
  const record: ApiKeyRecord = {
    id: `key_${ulid()}`,
    userId: input.userId,
    tenant: input.tenant ?? null,
    scopes,
    hash: hashApiKey(key),
    prefix: key.slice(0, 10),
    createdAt: now.toISOString(),
    expiresAt: input.expiresInMs ? new Date(now.getTime() + input.expiresInMs).toISOString() : null,
    revokedAt: null,
  };
  await store.insertApiKey(record);
  return { key, record };
}

/** The stored record for a presented key, or null when unknown, revoked or expired. */
export async function verifyApiKey(store: KeyStore, key: string, now = new Date()): Promise<ApiKeyRecord | null> {
  if (!keyPattern.test(key)) return null;
  const hash = hashApiKey(key);
  const record = await store.findApiKeyByHash(hash);
  if (!record) return null;
  // The index lookup already matched; the constant-time check guards against any store whose
  // comparison could leak timing (e.g. a prefix index).
  if (!timingSafeEqual(Buffer.from(record.hash, "hex"), Buffer.from(hash, "hex"))) return null;
  if (record.revokedAt) return null;
  if (record.expiresAt && Date.parse(record.expiresAt) <= now.getTime()) return null;
  return record;
}
