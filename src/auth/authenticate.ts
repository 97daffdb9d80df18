// Turns an Authorization header (and an X-Access-Token beside a personal API key) into a Principal.
// The one place credentials are checked.
import { GatewayError, unauthenticated } from "../core/errors.ts";
import type { KeyStore } from "../store/types.ts";
import { looksLikeApiKey, verifyApiKey } from "./api-keys.ts";
import type { AccessTokenVerifier } from "./jwt.ts";
import type { Principal } from "../core/principal.ts";
import type { Authenticator } from "../core/request-context.ts";

const bearerPattern = /^Bearer +([A-Za-z0-9\-._~+/]+=*)\s*$/i;
/** The token68 of a bearer, alone (X-Access-Token carries no scheme). */
const tokenPattern = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Longest credential looked at: API keys are 47 characters, real access tokens a few hundred to a few KB. */
export const MAX_CREDENTIAL_LENGTH = 8192;

export function createAuthenticator(deps: { store: KeyStore; verifyAccessToken: AccessTokenVerifier | null }): Authenticator {
  /** An access token's principal: verified with jose when JWT verification is configured, else only forwarded. */
  async function accessTokenPrincipal(token: string): Promise<Principal> {
    if (!deps.verifyAccessToken) {
      // Without JWT configuration the token is only forwarded; the upstream decides.
      return { kind: "access_token", userId: null, tenant: null, scopes: new Set(), verified: false, accessToken: token };
    }
    try {
      const claims = await deps.verifyAccessToken(token);
      return {
        kind: "access_token",
        userId: claims.userId,
        tenant: claims.tenant,
        scopes: new Set(claims.scopes),
        verified: true,
        accessToken: token,
      };
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      throw unauthenticated("Invalid or expired access token");
    }
  }

  /** X-Access-Token beside a personal API key: product operations forward it (contract §2). */
  async function withProductToken(key: Principal, header: string): Promise<Principal> {
    const token = header.trim();
    if (token.length > MAX_CREDENTIAL_LENGTH) throw unauthenticated(`X-Access-Token longer than ${MAX_CREDENTIAL_LENGTH} characters`);
    if (!tokenPattern.test(token)) throw unauthenticated("Malformed X-Access-Token (expected the access token alone, no scheme)");
    // A key is never forwarded upstream, whichever header it comes in.
    if (looksLikeApiKey(token)) throw unauthenticated("X-Access-Token takes a product access token, not a personal API key");
    const product = await accessTokenPrincipal(token);
    return { ...key, accessToken: token, productTenant: product.tenant ?? key.tenant };
  }

  return {
    async authenticate(authorization, productToken) {
      if (!authorization) throw unauthenticated("Missing Authorization header (expected: Bearer <token>)");
      // Checked before the pattern: a regular expression over an oversized header costs for nothing.
      if (authorization.length > MAX_CREDENTIAL_LENGTH + 16)
        throw unauthenticated(`Credential longer than ${MAX_CREDENTIAL_LENGTH} characters`);
      const match = bearerPattern.exec(authorization);
      if (!match?.[1]) throw unauthenticated("Malformed Authorization header (expected: Bearer <token>)");
      const token = match[1];

      if (looksLikeApiKey(token)) {
        const record = await verifyApiKey(deps.store, token);
        if (!record) throw unauthenticated("Unknown, expired or revoked API key");
        const key: Principal = {
          kind: "api_key",
          userId: record.userId,
          tenant: record.tenant,
          scopes: new Set(record.scopes),
          verified: true,
          keyId: record.id,
        };
        return productToken ? withProductToken(key, productToken) : key;
      }
      // An access token as the bearer is the one forwarded: a second one would be ambiguous.
      if (productToken) throw unauthenticated("X-Access-Token goes beside a personal API key as the bearer, not beside an access token");
      return accessTokenPrincipal(token);
    },
  };
}

/** Documents need a known user: an API key or a verified access token. */
export function requireUser(principal: Principal): string {
  if (!principal.userId || !principal.verified) {
    throw unauthenticated("Documents need a personal API key or a verified access token");
  }
  return principal.userId;
}

/**
 * The owner of the documents a principal sees: its user within its tenant. The same user id under
 * another tenant is another owner (docs/security.md). A tenant-less principal owns under its bare
 * user id, as every document created before tenants counted did. User ids never hold control
 * characters (API key ids are [A-Za-z0-9._@:-]; a JWT `sub` with one is refused), so the unit
 * separator keeps the two parts apart.
 */
export function requireOwner(principal: Principal): string {
  const userId = requireUser(principal);
  return principal.tenant === null ? userId : `${userId}\u001f${principal.tenant}`;
}

export function requireScope(principal: Principal, scope: string): void {
  if (!principal.scopes.has(scope)) {
    throw new GatewayError("FORBIDDEN", `This operation needs the ${scope} scope`, { scope });
  }
}
