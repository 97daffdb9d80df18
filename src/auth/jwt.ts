// Access-token verification with jose: signature, exp, nbf, issuer, audience.
// Algorithms are pinned per key type so `alg: none` and HS/RS confusion are rejected.
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import type { Config } from "../core/config.ts";

export interface VerifiedClaims {
  userId: string;
  scopes: string[];
  tenant: string | null;
  payload: JWTPayload;
}

export type AccessTokenVerifier = (token: string) => Promise<VerifiedClaims>;

const asymmetricAlgorithms = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];

/** Null when no JWT verification is configured. Built once at start-up: the JWKS cache lives here. */
export function createAccessTokenVerifier(config: Config): AccessTokenVerifier | null {
  let key: Uint8Array | JWTVerifyGetKey;
  let algorithms: string[];
  if (config.JWT_SECRET) {
    key = new TextEncoder().encode(config.JWT_SECRET);
    algorithms = ["HS256", "HS384", "HS512"];
  } else if (config.JWT_JWKS_URL) {
    // jose caches the key set, refetches on an unknown `kid` (key rotation), with a cooldown.
    key = createRemoteJWKSet(new URL(config.JWT_JWKS_URL), {
      cooldownDuration: config.JWT_JWKS_COOLDOWN_MS,
      cacheMaxAge: 600_000,
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
  return async (token) => {
    const { payload } =
      key instanceof Uint8Array ? await jwtVerify(token, key, options) : await jwtVerify(token, key, options);
    if (typeof payload.sub !== "string" || payload.sub === "") throw new Error("token has no sub claim");
    const scope = payload["scope"];
    const tenant = payload[tenantClaim];
    return {
      userId: payload.sub,
      scopes: typeof scope === "string" ? scope.split(" ").filter(Boolean) : [],
      tenant: typeof tenant === "string" && tenant !== "" ? tenant : null,
      payload,
    };
  };
}
