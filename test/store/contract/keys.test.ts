// KeyStore (src/store/types/keys.ts) on both databases.
import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiKeyRecord, Store } from "../../../src/store/types.ts";
import { backends, nextUlid, useStore } from "./backends.ts";

describe.each(backends)("$name store: API keys", (backend) => {
  const s = useStore(backend);
  let store: Store;
  beforeAll(() => {
    store = s.store;
  });

  it("stores, finds, lists and revokes api keys", async () => {
    const alice = `user_${randomUUID()}`;
    const bob = `user_${randomUUID()}`;
    const key = (overrides: Partial<ApiKeyRecord>): ApiKeyRecord => ({
      id: `key_${nextUlid()}`,
      userId: alice,
      tenant: null,
      scopes: ["docs:read"],
      hash: randomBytes(32).toString("hex"),
      prefix: "wg_abcd",
      createdAt: "2026-11-22T08:00:00.000Z",
      expiresAt: null,
      revokedAt: null,
      ...overrides,
    });
    const a1 = key({ scopes: ["docs:read", "docs:write"], tenant: "acme", expiresAt: "2027-01-01T00:00:00.000Z" });
    const a2 = key({ scopes: [], createdAt: "2026-11-22T07:00:00.000Z" });
    const b1 = key({ userId: bob });
    for (const k of [a1, a2, b1]) await store.insertApiKey(k);

    expect(await store.findApiKeyByHash(a1.hash)).toEqual(a1);
    expect(await store.findApiKeyByHash(a2.hash)).toEqual(a2);
    expect(await store.findApiKeyByHash(randomBytes(32).toString("hex"))).toBeNull();

    // Ordered by creation time, then id.
    expect(await store.listApiKeys(alice)).toEqual([a2, a1]);
    expect(await store.listApiKeys(bob)).toEqual([b1]);
    expect(await store.listApiKeys(`user_${randomUUID()}`)).toEqual([]);
    const everyone = await store.listApiKeys();
    expect(everyone).toEqual(expect.arrayContaining([a1, a2, b1]));

    // The hash is unique.
    await expect(store.insertApiKey(key({ hash: a1.hash }))).rejects.toThrow();

    expect(await store.revokeApiKey(a1.id, "2026-11-23T00:00:00.000Z")).toBe(true);
    expect((await store.findApiKeyByHash(a1.hash))?.revokedAt).toBe("2026-11-23T00:00:00.000Z");
    // Idempotent: revoking again keeps the first instant.
    expect(await store.revokeApiKey(a1.id, "2026-11-24T00:00:00.000Z")).toBe(true);
    expect((await store.findApiKeyByHash(a1.hash))?.revokedAt).toBe("2026-11-23T00:00:00.000Z");
    expect(await store.revokeApiKey(`key_${nextUlid()}`, "2026-11-23T00:00:00.000Z")).toBe(false);
    expect((await store.findApiKeyByHash(a2.hash))?.revokedAt).toBeNull();
  });
});
