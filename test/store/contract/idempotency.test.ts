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
    const created = await store.createDocument(first, { key: "key-1", fingerprint: "fp-1", notBefore: NOT_BEFORE });
    expect(created.replayed).toBe(false);
    expect(created.fingerprint).toBe("fp-1");

    const second = newDoc(owner, { name: "Second", createdAt: "2026-11-22T09:00:00.000Z" });
    const replayed = await store.createDocument(second, { key: "key-1", fingerprint: "fp-2", notBefore: NOT_BEFORE });
    expect(replayed).toEqual({ document: created.document, replayed: true, fingerprint: "fp-1" });

    expect(await store.findIdempotent(owner, "key-1", NOT_BEFORE)).toEqual({ documentId: first.id, fingerprint: "fp-1" });
    // Only records at or after notBefore count.
    expect(await store.findIdempotent(owner, "key-1", "2026-11-22T08:00:00.001Z")).toBeNull();
    expect(await store.findIdempotent(owner, "key-1", CLAIM_AT)).not.toBeNull();
    // Keys are per owner.
    expect(await store.findIdempotent(newOwner(), "key-1", NOT_BEFORE)).toBeNull();
    expect(await store.getDocument(owner, second.id)).toBeNull();
    expect((await allOf(store, owner)).map((d) => d.id)).toEqual([first.id]);
  });

  it("replaces a stale idempotency record with a new document", async () => {
    const owner = newOwner();
    const old = newDoc(owner, { createdAt: "2026-11-20T08:00:00.000Z" });
    await store.createDocument(old, { key: "key-stale", fingerprint: "fp-old", notBefore: "2026-11-19T08:00:00.000Z" });

    const fresh = newDoc(owner, { createdAt: CLAIM_AT });
    const result = await store.createDocument(fresh, { key: "key-stale", fingerprint: "fp-new", notBefore: NOT_BEFORE });
    expect(result.replayed).toBe(false);
    expect(result.document.id).toBe(fresh.id);
    expect(result.fingerprint).toBe("fp-new");

    expect(await store.findIdempotent(owner, "key-stale", NOT_BEFORE)).toEqual({ documentId: fresh.id, fingerprint: "fp-new" });
    expect((await allOf(store, owner)).map((d) => d.id)).toEqual([fresh.id, old.id]);
  });

  it("creates exactly one document when concurrent requests share an idempotency key", async () => {
    for (let round = 0; round < 5; round++) {
      const owner = newOwner();
      const attempts = Array.from({ length: 5 }, (_, i) => newDoc(owner, { name: `Attempt ${i}`, createdAt: CLAIM_AT }));
      const results = await Promise.all(
        attempts.map((doc, i) => store.createDocument(doc, { key: "same-key", fingerprint: `fp-${i}`, notBefore: NOT_BEFORE })),
      );

      const winners = results.filter((r) => !r.replayed);
      expect(winners).toHaveLength(1);
      const winner = winners[0]!;
      expect(new Set(results.map((r) => r.document.id))).toEqual(new Set([winner.document.id]));
      for (const result of results) {
        expect(result.document).toEqual(winner.document);
        expect(result.fingerprint).toBe(winner.fingerprint);
      }
      expect((await allOf(store, owner)).map((d) => d.id)).toEqual([winner.document.id]);
      expect(await store.findIdempotent(owner, "same-key", NOT_BEFORE)).toEqual({
        documentId: winner.document.id,
        fingerprint: winner.fingerprint,
      });
    }
  });

  it("creates distinct documents concurrently without idempotency keys", async () => {
    const owner = newOwner();
    const docs = Array.from({ length: 8 }, () => newDoc(owner));
    const results = await Promise.all(docs.map((doc) => store.createDocument(doc)));
    expect(results.every((r) => !r.replayed)).toBe(true);
    expect((await allOf(store, owner)).map((d) => d.id)).toEqual(docs.map((d) => d.id).reverse());
  });

  it("prunes idempotency records older than the given instant", async () => {
    // The only records dated in 2000 in this store: nothing else is old enough to be pruned here.
    const owner = newOwner();
    const older = newDoc(owner, { createdAt: "2000-01-01T00:00:00.000Z" });
    const newer = newDoc(owner, { createdAt: "2000-12-01T00:00:00.000Z" });
    await store.createDocument(older, { key: "old", fingerprint: "fp", notBefore: "1999-01-01T00:00:00.000Z" });
    await store.createDocument(newer, { key: "new", fingerprint: "fp", notBefore: "1999-01-01T00:00:00.000Z" });

    expect(await store.pruneIdempotency("2000-06-01T00:00:00.000Z")).toBe(1);
    expect(await store.findIdempotent(owner, "old", "1999-01-01T00:00:00.000Z")).toBeNull();
    expect(await store.findIdempotent(owner, "new", "1999-01-01T00:00:00.000Z")).toEqual({ documentId: newer.id, fingerprint: "fp" });
    expect(await store.pruneIdempotency("2000-06-01T00:00:00.000Z")).toBe(0);
    // Documents are untouched.
    expect(await store.getDocument(owner, older.id)).not.toBeNull();
  });
});
