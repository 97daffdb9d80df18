// Sign-in with OpenID Connect (docs/app.md "Sign-in"): the authorization code flow with PKCE, by
// openid-client (a certified relying party: discovery, state and nonce checks, ID token
// validation). The person is the ID token's `sub`, within the tenant its JWT_TENANT_CLAIM names;
// the session gets the gateway's scopes the provider granted. What must survive the round trip
// to the provider (state, nonce, the PKCE verifier, where to go next) travels in a short-lived
// HttpOnly cookie of the browser's own: nothing is kept on the server between the two requests.
import * as client from "openid-client";
import { unauthenticated } from "../core/errors.ts";
import { tenantPattern, userIdPattern } from "./api-keys.ts";
import type { SignedInIdentity } from "./sessions.ts";

export interface OidcSettings {
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE alone). */
  clientSecret?: string | undefined;
  /** Space-separated, `openid` among them. */
  scopes: string;
  /** The name on the button ("Sign in with …"); default the issuer's host. */
  providerName?: string | undefined;
  /** The ID token claim that names the tenant (JWT_TENANT_CLAIM). */
  tenantClaim: string;
}

/** What the callback needs to check the provider's answer. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  next: string;
}

export interface OidcSignIn {
  readonly providerName: string;
  /** The provider's authorization URL to send the browser to, and what to keep until it comes back. */
  start(redirectUri: string, next: string): Promise<{ url: URL; pending: PendingSignIn }>;
  /** Checks the provider's answer (the callback's query) against what was kept; the person it names. */
  finish(redirectUri: string, query: URLSearchParams, pending: PendingSignIn): Promise<SignedInIdentity>;
}

export const encodePending = (pending: PendingSignIn): string => Buffer.from(JSON.stringify(pending)).toString("base64url");

export function decodePending(text: string | undefined): PendingSignIn | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(Buffer.from(text, "base64url").toString()) as Partial<PendingSignIn>;
    const fields = [value.state, value.nonce, value.verifier, value.next];
    return fields.every((field) => typeof field === "string") ? (value as PendingSignIn) : undefined;
  } catch {
    return undefined;
  }
}

export function createOidcSignIn(settings: OidcSettings): OidcSignIn {
  const issuer = new URL(settings.issuer);
  let discovered: Promise<client.Configuration> | undefined;
  // Discovered on the first sign-in, not at start-up: a provider that is down must not stop the
  // gateway. A failed discovery is tried again on the next sign-in.
  const configuration = () =>
    (discovered ??= client
      .discovery(
        issuer,
        settings.clientId,
        settings.clientSecret === undefined ? {} : { client_secret: settings.clientSecret },
        settings.clientSecret === undefined ? client.None() : client.ClientSecretPost(settings.clientSecret),
        // Plain http only for a provider on this machine (development, tests).
        issuer.protocol === "http:" ? { execute: [client.allowInsecureRequests] } : {},
      )
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      }));
  return {
    providerName: settings.providerName ?? issuer.host,
    async start(redirectUri, next) {
      const config = await configuration();
      const pending: PendingSignIn = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
        next,
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: settings.scopes,
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: "S256",
      });
      return { url, pending };
    },
    async finish(redirectUri, query, pending) {
      const config = await configuration();
      const current = new URL(redirectUri);
      for (const [name, value] of query) current.searchParams.append(name, value);
      let tokens;
      try {
        tokens = await client.authorizationCodeGrant(config, current, {
          pkceCodeVerifier: pending.verifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        throw Object.assign(unauthenticated(`The identity provider's answer was refused: ${(error as Error).message}`), { cause: error });
      }
      const claims = tokens.claims();
      if (!claims || !userIdPattern.test(claims.sub)) throw unauthenticated("The identity provider named no usable user (sub)");
      const tenant = claims[settings.tenantClaim];
      return {
        userId: claims.sub,
        tenant: typeof tenant === "string" && tenantPattern.test(tenant) ? tenant : null,
        scopes: (tokens.scope ?? settings.scopes).split(" ").filter(Boolean),
      };
    },
  };
}
