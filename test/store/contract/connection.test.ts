// The store as a whole on both databases: kind and ping, migrations on reopen and on concurrent
// first opens, close.
import { beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore } from "../../../src/store/postgres.ts";
import type { Store } from "../../../src/store/types.ts";
import { allOf, backends, newDoc, newOwner, useStore } from "./backends.ts";

describe.each(backends)("$name store: connection and migrations", (backend) => {
  const s = useStore(backend);
  let store: Store;
  beforeAll(() => {
    store = s.store;
  });

  it("reports its kind and answers ping", async () => {
    expect(store.kind).toBe(backend.name);
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it("runs migrations again on reopen, keeping the data", async () => {
    const owner = newOwner();
    const doc = newDoc(owner);
    await store.documents.create(doc);

    // Reopen while the first store is still open (another replica) and again after closing it.
    const second = await s.location.open();
    try {
      expect(await second.documents.get(owner, doc.id)).toEqual((await store.documents.get(owner, doc.id))!);
    } finally {
      await second.close();
    }
    const third = await s.location.open();
    try {
      await expect(third.ping()).resolves.toBeUndefined();
      expect((await allOf(third, owner)).map((d) => d.id)).toEqual([doc.id]);
    } finally {
      await third.close();
    }
  });

  it("migrates safely when several instances open an empty location at once", async () => {
    const fresh = await s.extra();
    const stores = await Promise.all([fresh.open(), fresh.open(), fresh.open()]);
    try {
      const owner = newOwner();
      const doc = newDoc(owner);
      await stores[0]!.documents.create(doc);
      for (const s of stores) expect(await s.documents.get(owner, doc.id)).not.toBeNull();
    } finally {
      for (const s of stores) await s.close();
    }
  });

  it("close releases the store; closing twice is harmless; use after close fails", async () => {
    const other = await s.location.open();
    await other.ping();
    await other.close();
    await expect(other.close()).resolves.toBeUndefined();
    await expect(other.ping()).rejects.toThrow();
    // The shared store is unaffected.
    await expect(store.ping()).resolves.toBeUndefined();
  });
});

describe("postgres store errors", () => {
  it("rejects when the database cannot be reached, instead of hanging or swallowing it", async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused straight away.
    await expect(openPostgresStore("postgres://postgres@127.0.0.1:1/test")).rejects.toThrow();
  });
});
