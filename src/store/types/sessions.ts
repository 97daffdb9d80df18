// The owner's application's sign-in (docs/app.md): sessions, each opened by an API key, a
// one-time sign-in link or OpenID Connect, and the links themselves. Only hashes of the secrets
// (the session cookie's token, the link's token) are stored.

/** How a session was opened. */
export type SessionMethod = "api_key" | "sign_in_link" | "oidc";

export interface SessionRecord {
  /** ses_ + a ULID: what `keys sessions` lists and `keys revoke` takes. */
  id: string;
  userId: string;
  tenant: string | null;
  /** The scopes of the key or token that opened it. */
  scopes: string[];
  method: SessionMethod;
  /** The API key that opened it (method api_key): revoking that key ends the session. */
  keyId: string | null;
  createdAt: string;
  expiresAt: string;
  /** Set by sign-out or revocation. */
  endedAt: string | null;
}

export interface NewSession extends Omit<SessionRecord, "endedAt"> {
  /** sha-256 of the cookie's token, hex. */
  tokenHash: string;
}

export interface SignInLinkRecord {
  /** sil_ + a ULID. */
  id: string;
  userId: string;
  tenant: string | null;
  scopes: string[];
  createdAt: string;
  expiresAt: string;
  /** Set when the link opened its session; a used link opens nothing more. */
  usedAt: string | null;
}

export interface NewSignInLink extends Omit<SignInLinkRecord, "usedAt"> {
  /** sha-256 of the link's token, hex. */
  tokenHash: string;
}

export interface SessionStore {
  insertSignInLink(link: NewSignInLink): Promise<void>;
  /** Marks an unused, unexpired link used, atomically (two requests with one link: one wins); null otherwise. */
  useSignInLink(tokenHash: string, now: string): Promise<SignInLinkRecord | null>;
  insertSession(session: NewSession): Promise<void>;
  /**
   * The live session with this token: not ended, not expired, and, when a key opened it, that key
   * neither revoked nor expired (checked here, on every request, so revoking a key ends its
   * sessions at once on every replica).
   */
  findSession(tokenHash: string, now: string): Promise<SessionRecord | null>;
  /** Ends a session (sign-out, `keys revoke ses_…`); false when there is no such live session. */
  endSession(id: string, at: string): Promise<boolean>;
  /** Ends every live session a key opened; returns how many. */
  endSessionsOfKey(keyId: string, at: string): Promise<number>;
  /** Live sessions (of one user), oldest first, for `keys sessions`. */
  listSessions(now: string, userId?: string): Promise<SessionRecord[]>;
  /** Retention: drops sessions and links that expired or ended before the instant; returns how many. */
  pruneSessions(before: string): Promise<number>;
}
