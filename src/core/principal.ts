// Who is calling, as the service layer sees it, whatever surface the request came in on.

export const documentScopes = ["docs:read", "docs:write"] as const;
export type DocumentScope = (typeof documentScopes)[number];

export type CredentialKind = "api_key" | "access_token";

export interface Principal {
  kind: CredentialKind;
  /** The user; null only for an access token that could not be verified (no JWT config). */
  userId: string | null;
  tenant: string | null;
  scopes: ReadonlySet<string>;
  /** True for API keys and for JWTs checked with jose. */
  verified: boolean;
  /** API key id, for logs; never the secret. */
  keyId?: string;
  /** The caller's access token, forwarded upstream unchanged. Never set for API keys. */
  accessToken?: string;
}
