// Sessions of the owner's application (docs/app.md "Sign-in"): a random token in an HttpOnly
// cookie, only its hash stored, opened by a personal API key, a one-time sign-in link or OpenID
// Connect, and acting as its user with the scopes of what opened it. The CSRF token of a page is
// derived from the session's token (an HMAC), so it needs no storage and means nothing without
// the cookie, which scripts cannot read.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { monotonicFactory } from "ulid";
import { GatewayError, unauthenticated } from "../core/errors.ts";
import { keyScopes, type Principal } from "../core/principal.ts";
import type { KeyStore, SessionRecord, SessionStore, SignInLinkRecord } from "../store/types.ts";
import { checkIdentity, looksLikeApiKey, verifyApiKey } from "./api-keys.ts";

export type { SessionRecord } from "../store/types.ts";

const ulid = monotonicFactory();
const SESSION_PREFIX = "wgs_";
const LINK_PREFIX = "wgl_";
const tokenPattern = /^wg[sl]_[A-Za-z0-9_-]{43}$/;

/** A sign-in link's default life, and the longest `--expires-in` may give it. */
export const SIGN_IN_LINK_DEFAULT_MS = 10 * 60_000;
export const SIGN_IN_LINK_MAX_MS = 24 * 3_600_000;

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");
const newToken = (prefix: string) => prefix + randomBytes(32).toString("base64url");

export interface OpenedSession {
  /** The cookie's value: shown to nobody else, never stored. */
  token: string;
  session: SessionRecord;
}

/** Who an OpenID Connect sign-in says the person is, with the scopes its tokens granted. */
export interface SignedInIdentity {
  userId: string;
  tenant: string | null;
  scopes: string[];
}

export interface SessionAuthority {
  /** Opens a session with a personal API key typed into the sign-in form; UNAUTHENTICATED when it is not a live key. */
  withKey(key: string): Promise<OpenedSession>;
  /** Opens a session with a sign-in link's token, which is then used up; UNAUTHENTICATED when unknown, used or expired. */
  withLink(token: string): Promise<OpenedSession>;
  /** Opens a session for an identity an OpenID provider vouched for. */
  withIdentity(identity: SignedInIdentity): Promise<OpenedSession>;
  /** The live session of a cookie's token, or null. */
  resolve(token: string): Promise<SessionRecord | null>;
  /** Sign-out: the session of this token ends (nothing happens for an unknown one). */
  end(token: string): Promise<void>;
  /** The CSRF token the pages of this session carry. */
  csrfToken(sessionToken: string): string;
  /** Whether `presented` is this session's CSRF token (constant time). */
  csrfMatches(sessionToken: string, presented: string | undefined): boolean;
}

/** The principal a session acts as: its user, tenant and scopes; like a key, never forwarded upstream. */
export function principalOfSession(session: SessionRecord): Principal {
  return {
    kind: "api_key",
    userId: session.userId,
    tenant: session.tenant,
    scopes: new Set(session.scopes),
    verified: true,
    keyId: session.keyId ?? session.id,
  };
}

export function createSessionAuthority(deps: { store: SessionStore & KeyStore; ttlMs: number; now?: () => Date }): SessionAuthority {
  const now = deps.now ?? (() => new Date());
  async function open(identity: SignedInIdentity, method: SessionRecord["method"], keyId: string | null): Promise<OpenedSession> {
    const at = now();
    const token = newToken(SESSION_PREFIX);
    const session: SessionRecord = {
      id: `ses_${ulid()}`,
      userId: identity.userId,
      tenant: identity.tenant,
      scopes: identity.scopes,
      method,
      keyId,
      createdAt: at.toISOString(),
      expiresAt: new Date(at.getTime() + deps.ttlMs).toISOString(),
      endedAt: null,
    };
    const { endedAt: _ended, ...stored } = session;
    await deps.store.insertSession({ ...stored, tokenHash: hashOf(token) });
    return { token, session };
  }
  const csrfOf = (sessionToken: string) => createHmac("sha256", sessionToken).update("csrf").digest("base64url");
  return {
    async withKey(key) {
      const record = looksLikeApiKey(key.trim()) ? await verifyApiKey(deps.store, key.trim(), now()) : null;
      if (!record) throw unauthenticated("That is not a valid API key: unknown, expired or revoked");
      return open({ userId: record.userId, tenant: record.tenant, scopes: record.scopes }, "api_key", record.id);
    },
    async withLink(token) {
      const link = tokenPattern.test(token) ? await deps.store.useSignInLink(hashOf(token), now().toISOString()) : null;
      if (!link) throw unauthenticated("This sign-in link is unknown, used or expired: ask for a new one");
      return open(link, "sign_in_link", null);
    },
    withIdentity(identity) {
      const scopes = identity.scopes.filter((scope) => (keyScopes as readonly string[]).includes(scope));
      return open({ ...identity, scopes }, "oidc", null);
    },
    async resolve(token) {
      if (!tokenPattern.test(token) || !token.startsWith(SESSION_PREFIX)) return null;
      return deps.store.findSession(hashOf(token), now().toISOString());
    },
    async end(token) {
      const session = await this.resolve(token);
      if (session) await deps.store.endSession(session.id, now().toISOString());
    },
    csrfToken: csrfOf,
    csrfMatches(sessionToken, presented) {
      if (!presented) return false;
      const expected = Buffer.from(csrfOf(sessionToken));
      const given = Buffer.from(presented);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export interface NewSignInLinkInput {
  userId: string;
  tenant?: string | null;
  scopes?: string[];
  expiresInMs?: number;
  now?: Date;
}

/** A one-time sign-in link's token (shown once) and record: `workspace-gateway keys sign-in-link`. */
export async function createSignInLink(
  store: SessionStore,
  input: NewSignInLinkInput,
): Promise<{ token: string; record: SignInLinkRecord }> {
  const scopes = checkIdentity(input);
  const life = input.expiresInMs ?? SIGN_IN_LINK_DEFAULT_MS;
  if (life <= 0 || life > SIGN_IN_LINK_MAX_MS) throw new GatewayError("BAD_USER_INPUT", "A sign-in link lives 1 second to 24 hours");
  const at = input.now ?? new Date();
  const token = newToken(LINK_PREFIX);
  const record: SignInLinkRecord = {
    id: `sil_${ulid()}`,
    userId: input.userId,
    tenant: input.tenant ?? null,
    scopes,
    createdAt: at.toISOString(),
    expiresAt: new Date(at.getTime() + life).toISOString(),
    usedAt: null,
  };
  const { usedAt: _used, ...stored } = record;
  await store.insertSignInLink({ ...stored, tokenHash: hashOf(token) });
  return { token, record };
}

/** Where a sign-in link's token goes: `<base>/app/sign-in/link?token=…`. */
export const signInLinkUrl = (base: string, token: string): string => `${base}/app/sign-in/link?token=${encodeURIComponent(token)}`;
