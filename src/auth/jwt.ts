// Access-token verification with jose: signature, exp, nbf, issuer, audience.
// Algorithms are pinned per key type so `alg: none` and HS/RS confusion are rejected.
// `exp` is required and bounded by JWT_MAX_TOKEN_LIFETIME_S (docs/security.md): a token that
// never expires, or lives longer than the gateway allows, is refused; so is one issued (`iat`)
// further in the future than the clock skew allows.
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

/**
 * Seconds two clocks may disagree by, for exp, nbf and iat: an issuer's clock a little ahead
 * must not lock its users out, but an `iat` hours ahead is a token minted to outlive its
 * lifetime bound (exp − iat), not a slow clock.
 */
export const JWT_CLOCK_SKEW_S = 60;

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
  const clockTolerance = JWT_CLOCK_SKEW_S;
  const maxLifetime = config.JWT_MAX_TOKEN_LIFETIME_S;
  const options = {
    algorithms,
    clockTolerance,
    requiredClaims: ["exp"],
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
    // Control characters in a user id could forge another owner's key (requireOwner).
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(payload.sub)) throw new Error("token's sub claim holds control characters");
    // jose has checked that exp is a number in the future (requiredClaims).
    const exp = payload.exp as number;
    // jose checks iat only with maxTokenAge, which would make iat required: checked here instead.
    if (typeof payload.iat === "number" && payload.iat > now / 1000 + clockTolerance) throw new Error("token issued in the future (iat)");
    if (typeof payload.iat === "number" && exp - payload.iat > maxLifetime) throw new Error("token lifetime (exp - iat) is too long");
    if (exp - now / 1000 > maxLifetime + clockTolerance) throw new Error("token expires too far in the future");
    const scope = payload["scope"];
    const tenant = payload[tenantClaim];
    const claims: VerifiedClaims = {
      userId: payload.sub,
      scopes: typeof scope === "string" ? scope.split(" ").filter(Boolean) : [],
      tenant: typeof tenant === "string" && tenant !== "" ? tenant : null,
      payload,
    };
    const until = Math.min(now + VERIFIED_TTL_MS, exp * 1000);
    if (until > now) {
      // Oldest first out: a Map iterates in insertion order.
      if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
      verified.set(token, { claims, until });
    }
    return claims;
  };
}
