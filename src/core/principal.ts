// Who is calling, as the service layer sees it, whatever surface the request came in on.

/** What a personal API key may be given: documents and spreadsheets, read and write (docs/api.md "Credentials"). */
export const keyScopes = ["docs:read", "docs:write", "sheets:read", "sheets:write"] as const;
export type KeyScope = (typeof keyScopes)[number];

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
  /**
   * The access token product operations forward upstream unchanged: the bearer's, or the one a
   * request sends in X-Access-Token beside a personal API key (contract §2). Never a key.
   */
  accessToken?: string;
  /** The tenant product operations call with, when it is not `tenant`: a verified X-Access-Token's claim. */
  productTenant?: string | null;
}
