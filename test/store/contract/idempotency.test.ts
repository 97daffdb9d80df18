// IdempotencyStore (src/store/types/idempotency.ts) and the claim a create makes, on both databases.
import { beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../../src/store/types.ts";
import { allOf, backends, CLAIM_AT, newDoc, newOwner, NOT_BEFORE, useStore } from "./backends.ts";

describe.each(backends)("$name store: idempotency records", (backend) => {
  const s = useStore(backend);
  let store: Store;
  beforeAll(() => {
    store = s.store;
  });

  it("replays the first document when the same idempotency key is used twice", async () => {
    const owner = newOwner();
    const first = newDoc(owner, { name: "First", createdAt: CLAIM_AT });
    const created = await store.documents.create(first, { key: "key-1", fingerprint: "fp-1", notBefore: NOT_BEFORE });
    expect(created.replayed).toBe(false);
    expect(created.fingerprint).toBe("fp-1");

    const second = newDoc(owner, { name: "Second", createdAt: "2026-11-22T09:00:00.000Z" });
    const replayed = await store.documents.create(second, { key: "key-1", fingerprint: "fp-2", notBefore: NOT_BEFORE });
    expect(replayed).toEqual({ record: created.record, replayed: true, fingerprint: "fp-1" });

    expect(await store.findIdempotent(owner, "key-1", NOT_BEFORE)).toEqual({
      targetId: first.id,
      fingerprint: "fp-1",
      response: created.record,
    });
    // Only records at or after notBefore count.
    expect(await store.findIdempotent(owner, "key-1", "2026-11-22T08:00:00.001Z")).toBeNull();
    expect(await store.findIdempotent(owner, "key-1", CLAIM_AT)).not.toBeNull();
    // Keys are per owner.
    expect(await store.findIdempotent(newOwner(), "key-1", NOT_BEFORE)).toBeNull();
    expect(await store.documents.get(owner, second.id)).toBeNull();
    expect((await allOf(store, owner)).map((d) => d.id)).toEqual([first.id]);
  });

  it("replaces a stale idempotency record with a new document", async () => {
    const owner = newOwner();
    const old = newDoc(owner, { createdAt: "2026-11-20T08:00:00.000Z" });
    await store.documents.create(old, { key: "key-stale", fingerprint: "fp-old", notBefore: "2026-11-19T08:00:00.000Z" });

    const fresh = newDoc(owner, { createdAt: CLAIM_AT });
    const result = await store.documents.create(fresh, { key: "key-stale", fingerprint: "fp-new", notBefore: NOT_BEFORE });
    expect(result.replayed).toBe(false);
    expect(result.record.id).toBe(fresh.id);
    expect(result.fingerprint).toBe("fp-new");

    expect(await store.findIdempotent(owner, "key-stale", NOT_BEFORE)).toMatchObject({ targetId: fresh.id, fingerprint: "fp-new" });
    expect((await allOf(store, owner)).map((d) => d.id)).toEqual([fresh.id, old.id]);
  });

  it("creates exactly one document when concurrent requests share an idempotency key", async () => {
    for (let round = 0; round < 5; round++) {
      const owner = newOwner();
      const attempts = Array.from({ length: 5 }, (_, i) => newDoc(owner, { name: `Attempt ${i}`, createdAt: CLAIM_AT }));
      const results = await Promise.all(
        attempts.map((doc, i) => store.documents.create(doc, { key: "same-key", fingerprint: `fp-${i}`, notBefore: NOT_BEFORE })),
      );

      const winners = results.filter((r) => !r.replayed);
      expect(winners).toHaveLength(1);
      const winner = winners[0]!;
      expect(new Set(results.map((r) => r.record.id))).toEqual(new Set([winner.record.id]));
      for (const result of results) {
        expect(result.record).toEqual(winner.record);
        expect(result.fingerprint).toBe(winner.fingerprint);
      }
      expect((await allOf(store, owner)).map((d) => d.id)).toEqual([winner.record.id]);
      expect(await store.findIdempotent(owner, "same-key", NOT_BEFORE)).toEqual({
        response: winner.record,
        targetId: winner.record.id,
        fingerprint: winner.fingerprint,
      });
    }
  });

  it("creates distinct documents concurrently without idempotency keys", async () => {
    const owner = newOwner();
    const docs = Array.from({ length: 8 }, () => newDoc(owner));
    const results = await Promise.all(docs.map((doc) => store.documents.create(doc)));
    expect(results.every((r) => !r.replayed)).toBe(true);
    expect((await allOf(store, owner)).map((d) => d.id)).toEqual(docs.map((d) => d.id).reverse());
  });

  it("prunes idempotency records older than the given instant", async () => {
    // The only records dated in 2000 in this store: nothing else is old enough to be pruned here.
    const owner = newOwner();
    const older = newDoc(owner, { createdAt: "2000-01-01T00:00:00.000Z" });
    const newer = newDoc(owner, { createdAt: "2000-12-01T00:00:00.000Z" });
    await store.documents.create(older, { key: "old", fingerprint: "fp", notBefore: "1999-01-01T00:00:00.000Z" });
    await store.documents.create(newer, { key: "new", fingerprint: "fp", notBefore: "1999-01-01T00:00:00.000Z" });

    expect(await store.pruneIdempotency("2000-06-01T00:00:00.000Z")).toBe(1);
    expect(await store.findIdempotent(owner, "old", "1999-01-01T00:00:00.000Z")).toBeNull();
    expect(await store.findIdempotent(owner, "new", "1999-01-01T00:00:00.000Z")).toMatchObject({ targetId: newer.id, fingerprint: "fp" });
    expect(await store.pruneIdempotency("2000-06-01T00:00:00.000Z")).toBe(0);
    // Documents are untouched.
    expect(await store.documents.get(owner, older.id)).not.toBeNull();
  });

  it("a replay answers the first record as it was created, whatever happened to the document since", async () => {
    const owner = newOwner();
    const doc = newDoc(owner, { name: "First name", createdAt: CLAIM_AT });
    const claim = { key: "first-answer", fingerprint: "fp", notBefore: NOT_BEFORE };
    const created = await store.documents.create(doc, claim);
    await store.documents.change({ ownerId: owner, id: doc.id, actorId: owner, at: CLAIM_AT, name: "Second", source: "rename" });
    await store.documents.change({ ownerId: owner, id: doc.id, actorId: owner, at: CLAIM_AT, name: "Third", source: "rename" });
    const replayed = await store.documents.create(newDoc(owner, { name: "Other" }), claim);
    expect(replayed).toEqual({ record: created.record, replayed: true, fingerprint: "fp" });
    expect(replayed.record).toMatchObject({ version: 1, name: "First name" });
    expect((await store.findIdempotent(owner, "first-answer", NOT_BEFORE))?.response).toEqual(created.record);
    // Still the first answer once the document is in the trash.
    await store.documents.trash({ ownerId: owner, id: doc.id, at: CLAIM_AT });
    expect((await store.documents.create(newDoc(owner), claim)).record).toEqual(created.record);
  });

  it("keys are scoped by operation: the same key on two operations never collides", async () => {
    const owner = newOwner();
    const a = newDoc(owner, { createdAt: CLAIM_AT });
    const b = newDoc(owner, { createdAt: CLAIM_AT });
    const claim = { key: "shared-key", fingerprint: "fp", notBefore: NOT_BEFORE };
    expect((await store.documents.create(a, claim)).replayed).toBe(false);
    expect((await store.documents.create(b, { ...claim, operation: "documents.import" })).replayed).toBe(false);
    expect((await store.findIdempotent(owner, "shared-key", NOT_BEFORE))?.targetId).toBe(a.id);
    expect((await store.findIdempotent(owner, "shared-key", NOT_BEFORE, "documents.create"))?.targetId).toBe(a.id);
    expect((await store.findIdempotent(owner, "shared-key", NOT_BEFORE, "documents.import"))?.targetId).toBe(b.id);
    expect(await store.findIdempotent(owner, "shared-key", NOT_BEFORE, "sheets.create")).toBeNull();
  });

  it("version 1's author is the creating user, not the owner key", async () => {
    const owner = `${newOwner()}\u001facme`;
    const doc = newDoc(owner, { createdBy: "demo-user" });
    const { record: document } = await store.documents.create(doc);
    expect(document.updatedBy).toBe("demo-user");
    expect((await store.documents.get(owner, doc.id))?.updatedBy).toBe("demo-user");
    await store.documents.change({ ownerId: owner, id: doc.id, actorId: "demo-user", at: CLAIM_AT, name: "n", source: "rename" });
    const versions = await store.documents.listVersions({ ownerId: owner, id: doc.id, limit: 5 });
    expect(versions?.map((v) => v.createdBy)).toEqual(["demo-user", "demo-user"]);
  });
});
