// ShareStore (src/store/types/shares.ts) on both databases.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { NewShare, Store } from "../../../src/store/types.ts";
import { at, backends, countRows, newDoc, newOwner, nextUlid, useStore } from "./backends.ts";

describe.each(backends)("$name store: share links", (backend) => {
  const s = useStore(backend);
  let store: Store;
  beforeAll(() => {
    store = s.store;
  });

  it("shares: insert, list (valid ones, newest first), find by hash (expired or trashed → null), delete, prune", async () => {
    const owner = newOwner();
    const doc = newDoc(owner);
    const other = newDoc(owner);
    await store.documents.create(doc);
    await store.documents.create(other);
    const share = (overrides: Partial<NewShare>): NewShare => ({
      id: `shr_${nextUlid()}`,
      kind: "document",
      targetId: doc.id,
      ownerId: owner,
      createdAt: at(1),
      expiresAt: at(30),
      tokenHash: randomBytes(32).toString("hex"),
      ...overrides,
    });
    const s1 = share({ createdAt: at(1) });
    const s2 = share({ createdAt: at(2), expiresAt: at(40) });
    const expired = share({ createdAt: at(0), expiresAt: at(3) });
    const onOther = share({ targetId: other.id });
    for (const s of [s1, s2, expired, onOther]) await store.insertShare(s);
    const { tokenHash: _hash, ...publicS1 } = s1;
    const { tokenHash: _hash2, ...publicS2 } = s2;

    expect(await store.listShares(owner, doc.id, at(10))).toEqual([publicS2, publicS1]);
    expect(await store.listShares(owner, doc.id, at(35))).toEqual([publicS2]);
    expect(await store.listShares(newOwner(), doc.id, at(10))).toEqual([]);

    const found = await store.findShare(s1.tokenHash, at(10));
    expect(found?.share).toEqual(publicS1);
    expect(found?.target.record).toEqual(await store.documents.get(owner, doc.id));
    expect(await store.findShare(s1.tokenHash, at(30))).toBeNull(); // expiresAt is exclusive
    expect(await store.findShare(expired.tokenHash, at(10))).toBeNull();
    expect(await store.findShare(randomBytes(32).toString("hex"), at(10))).toBeNull();
    // The token hash is unique.
    await expect(store.insertShare(share({ tokenHash: s1.tokenHash }))).rejects.toThrow();

    // Trashing a document ends its links for good: gone from the store, not revived by a restore.
    expect((await store.findShare(onOther.tokenHash, at(10)))?.target.record.id).toBe(other.id);
    await store.documents.trash({ ownerId: owner, id: other.id, at: at(5) });
    expect(await store.findShare(onOther.tokenHash, at(10))).toBeNull();
    expect(await countRows(s.location, "shares", "target_id", other.id)).toBe(0);
    await store.documents.restore(owner, other.id);
    expect(await store.findShare(onOther.tokenHash, at(10))).toBeNull();
    expect(await store.listShares(owner, other.id, at(10))).toEqual([]);
    // A stale expectedVersion trashes nothing and ends nothing.
    const kept = share({ targetId: other.id });
    await store.insertShare(kept);
    expect(await store.documents.trash({ ownerId: owner, id: other.id, at: at(6), expectedVersion: 7 })).toMatchObject({ ok: false });
    expect((await store.findShare(kept.tokenHash, at(10)))?.share.id).toBe(kept.id);

    // Delete: only the owner's, on that document.
    expect(await store.deleteShare(newOwner(), doc.id, s1.id)).toBe(false);
    expect(await store.deleteShare(owner, other.id, s1.id)).toBe(false);
    expect(await store.deleteShare(owner, doc.id, s1.id)).toBe(true);
    expect(await store.deleteShare(owner, doc.id, s1.id)).toBe(false);
    expect(await store.findShare(s1.tokenHash, at(10))).toBeNull();

    // Prune drops shares expired before the instant (here only `expired`, which ended at minute 3).
    expect(await store.pruneShares(at(4))).toBeGreaterThanOrEqual(1);
    expect(await countRows(s.location, "shares", "target_id", doc.id)).toBe(1);
    expect(await store.listShares(owner, doc.id, at(10))).toEqual([publicS2]);
  });
});
