// Access-token verification with jose: signature, exp, nbf, issuer, audience.
// Algorithms are pinned per key type so `alg: none` and HS/RS confusion are rejected.
import { createSecretKey, type KeyObject } from "node:crypto";
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import type { Config } from "../core/config.ts";

export interface VerifiedClaims {
  userId: string;
  scopes: string[];
  tenant: string | null;
  payload: JWTPayload;
}

export type AccessTokenVerifier = (token: string) => Promise<VerifiedClaims>;

/**
 * Verified tokens are remembered, so an agent sending the same token on every call pays for one
 * signature check, not one per request. An entry lives until the token's `exp` and at most
 * VERIFIED_TTL_MS. With the key set itself cached for JWKS_MAX_AGE_MS, a key withdrawn from the
 * JWKS stops being honoured within the sum of the two (two minutes).
 */
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX = 10_000;
const JWKS_MAX_AGE_MS = 60_000;

const asymmetricAlgorithms = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];

/** Null when no JWT verification is configured. Built once at start-up: the JWKS cache lives here. */
export function createAccessTokenVerifier(config: Config): AccessTokenVerifier | null {
  let key: KeyObject | JWTVerifyGetKey;
  let algorithms: string[];
  if (config.JWT_SECRET) {
    // A KeyObject, not raw bytes: jose then imports it into WebCrypto once per algorithm, not per call.
    key = createSecretKey(new TextEncoder().encode(config.JWT_SECRET));
    algorithms = ["HS256", "HS384", "HS512"];
  } else if (config.JWT_JWKS_URL) {
    // jose caches the key set, refetches on an unknown `kid` (key rotation), with a cooldown.
    key = createRemoteJWKSet(new URL(config.JWT_JWKS_URL), {
      cooldownDuration: config.JWT_JWKS_COOLDOWN_MS,
      cacheMaxAge: JWKS_MAX_AGE_MS,
    });
    algorithms = asymmetricAlgorithms;
  } else {
    return null;
  }
  const options = {
    algorithms,
    clockTolerance: 5,
    ...(config.JWT_ISSUER ? { issuer: config.JWT_ISSUER } : {}),
    ...(config.JWT_AUDIENCE ? { audience: config.JWT_AUDIENCE } : {}),
  };
  const tenantClaim = config.JWT_TENANT_CLAIM;
  const verified = new Map<string, { claims: VerifiedClaims; until: number }>();
  return async (token) => {
    const now = Date.now();
    const known = verified.get(token);
    if (known) {
      if (known.until > now) return known.claims;
      verified.delete(token);
    }
    const { payload } = typeof key === "function" ? await jwtVerify(token, key, options) : await jwtVerify(token, key, options);
    if (typeof payload.sub !== "string" || payload.sub === "") throw new Error("token has no sub claim");
    const scope = payload["scope"];
    const tenant = payload[tenantClaim];
    const claims: VerifiedClaims = {
      userId: payload.sub,
      scopes: typeof scope === "string" ? scope.split(" ").filter(Boolean) : [],
      tenant: typeof tenant === "string" && tenant !== "" ? tenant : null,
      payload,
    };
    const until = Math.min(now + VERIFIED_TTL_MS, typeof payload.exp === "number" ? payload.exp * 1000 : Infinity);
    if (until > now) {
      // Oldest first out: a Map iterates in insertion order.
      if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
      verified.set(token, { claims, until });
    }
    return claims;
  };
}
