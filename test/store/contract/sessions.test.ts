// SessionStore (src/store/types/sessions.ts) on both databases: the owner's application's
// sessions and one-time sign-in links.
import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiKeyRecord, NewSession, NewSignInLink, Store } from "../../../src/store/types.ts";
import { backends, nextUlid, useStore } from "./backends.ts";

const T0 = "2026-11-22T08:00:00.000Z";
const T1 = "2026-11-22T09:00:00.000Z";
const LATER = "2026-11-30T08:00:00.000Z";
const hash = () => randomBytes(32).toString("hex");

describe.each(backends)("$name store: sessions and sign-in links", (backend) => {
  const s = useStore(backend);
  let store: Store;
  beforeAll(() => {
    store = s.store;
  });

  const session = (overrides: Partial<NewSession> = {}): NewSession => ({
    id: `ses_${nextUlid()}`,
    tokenHash: hash(),
    userId: `user_${randomUUID()}`,
    tenant: null,
    scopes: ["docs:read", "sheets:read"],
    method: "sign_in_link",
    keyId: null,
    createdAt: T0,
    expiresAt: "2026-11-29T08:00:00.000Z",
    ...overrides,
  });

  it("finds a live session by its token's hash, with its scopes; ended and expired ones are gone", async () => {
    const live = session({ tenant: "acme" });
    await store.insertSession(live);
    const { tokenHash: _hash, ...record } = live;
    expect(await store.findSession(live.tokenHash, T1)).toEqual({ ...record, endedAt: null });
    expect(await store.findSession(hash(), T1)).toBeNull();
    // Expired at its expiresAt.
    expect(await store.findSession(live.tokenHash, live.expiresAt)).toBeNull();
    expect(await store.endSession(live.id, T1)).toBe(true);
    expect(await store.findSession(live.tokenHash, T1)).toBeNull();
    // Ending twice reports that nothing live was there.
    expect(await store.endSession(live.id, T1)).toBe(false);
  });

  it("a session opened by a key lives only while the key does: revoked or expired, it is gone at once", async () => {
    const key = (overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
      id: `key_${nextUlid()}`,
      userId: "u",
      tenant: null,
      scopes: ["docs:read"],
      hash: hash(),
      prefix: "wgk_abcdef",
      createdAt: T0,
      expiresAt: null,
      revokedAt: null,
      ...overrides,
    });
    const revoked = key();
    const expiring = key({ expiresAt: "2026-11-22T10:00:00.000Z" });
    await store.insertApiKey(revoked);
    await store.insertApiKey(expiring);
    const byRevoked = session({ method: "api_key", keyId: revoked.id });
    const byRevoked2 = session({ method: "api_key", keyId: revoked.id });
    const byExpiring = session({ method: "api_key", keyId: expiring.id });
    for (const one of [byRevoked, byRevoked2, byExpiring]) await store.insertSession(one);
    expect(await store.findSession(byRevoked.tokenHash, T1)).not.toBeNull();
    await store.revokeApiKey(revoked.id, T1);
    expect(await store.findSession(byRevoked.tokenHash, T1)).toBeNull();
    expect(await store.endSessionsOfKey(revoked.id, T1)).toBe(2);
    expect(await store.findSession(byExpiring.tokenHash, T1)).not.toBeNull();
    expect(await store.findSession(byExpiring.tokenHash, "2026-11-22T10:00:00.000Z")).toBeNull();
  });

  it("lists live sessions, of one user or all, oldest first", async () => {
    const user = `user_${randomUUID()}`;
    const a = session({ userId: user, createdAt: "2026-11-22T08:01:00.000Z" });
    const b = session({ userId: user, createdAt: "2026-11-22T08:02:00.000Z", scopes: [] });
    const ended = session({ userId: user });
    for (const one of [b, a, ended]) await store.insertSession(one);
    await store.endSession(ended.id, T1);
    expect((await store.listSessions(T1, user)).map((x) => [x.id, x.scopes])).toEqual([
      [a.id, a.scopes],
      [b.id, []],
    ]);
    expect((await store.listSessions(T1)).map((x) => x.id)).toEqual(expect.arrayContaining([a.id, b.id]));
  });

  it("a sign-in link is used once, and not after it expires", async () => {
    const link = (overrides: Partial<NewSignInLink> = {}): NewSignInLink => ({
      id: `sil_${nextUlid()}`,
      tokenHash: hash(),
      userId: "linked",
      tenant: "acme",
      scopes: ["docs:read", "docs:write"],
      createdAt: T0,
      expiresAt: "2026-11-22T08:10:00.000Z",
      ...overrides,
    });
    const once = link();
    await store.insertSignInLink(once);
    const used = await Promise.all([
      store.useSignInLink(once.tokenHash, "2026-11-22T08:05:00.000Z"),
      store.useSignInLink(once.tokenHash, "2026-11-22T08:05:00.000Z"),
    ]);
    expect(used.filter((x) => x !== null)).toHaveLength(1);
    expect(used.find((x) => x !== null)).toMatchObject({
      id: once.id,
      userId: "linked",
      tenant: "acme",
      scopes: ["docs:read", "docs:write"],
      usedAt: "2026-11-22T08:05:00.000Z",
    });
    const late = link();
    await store.insertSignInLink(late);
    expect(await store.useSignInLink(late.tokenHash, "2026-11-22T08:10:00.000Z")).toBeNull();
    expect(await store.useSignInLink(hash(), T0)).toBeNull();
  });

  it("retention drops expired and ended sessions and expired links", async () => {
    const old = session({ expiresAt: "2026-11-23T00:00:00.000Z" });
    const keep = session({ expiresAt: "2026-12-31T00:00:00.000Z" });
    await store.insertSession(old);
    await store.insertSession(keep);
    expect(await store.pruneSessions(LATER)).toBeGreaterThanOrEqual(1);
    expect(await store.findSession(keep.tokenHash, T1)).not.toBeNull();
    expect(await store.findSession(old.tokenHash, T1)).toBeNull();
  });
});
