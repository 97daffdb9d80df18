// Versions (ItemStore in src/store/types/items.ts, version reads in documents.ts) and the changes that make them, on both databases.
import { beforeAll, describe, expect, it } from "vitest";
import type { DocumentRecord, Store } from "../../../src/store/types.ts";
import { at, backends, content, newDoc, newId, newOwner, sameBytes, useStore } from "./backends.ts";

describe.each(backends)("$name store: versions", (backend) => {
  const s = useStore(backend);
  let store: Store;
  beforeAll(() => {
    store = s.store;
  });

  it("changeDocument replaces content as the next version and keeps the previous one", async () => {
    const owner = newOwner();
    const doc = newDoc(owner, { markdown: "# v1" });
    await store.documents.create(doc);
    const next = content("second text", "# second");

    const result = await store.documents.change({
      ownerId: owner,
      id: doc.id,
      actorId: "bob",
      at: at(1),
      content: next,
      source: "markdown",
    });
    expect(result.ok).toBe(true);
    const record = (result as { record: DocumentRecord }).record;
    expect(record).toEqual({
      id: doc.id,
      ownerId: owner,
      name: doc.name,
      createdAt: doc.createdAt,
      updatedAt: at(1),
      sizeBytes: next.docx.byteLength,
      characters: next.text.length,
      version: 2,
      updatedBy: "bob",
      source: "markdown",
      deletedAt: null,
    });
    expect(await store.documents.get(owner, doc.id)).toEqual(record);
    expect(await store.documents.readText(owner, doc.id)).toEqual({ document: record, text: "second text", totalChars: 11 });
    expect((await store.documents.readText(owner, doc.id, "markdown"))?.text).toBe("# second");
    sameBytes((await store.documents.readContent(owner, doc.id))?.docx, next.docx);

    // Version 1 is kept exactly as it was.
    const v1 = await store.documents.readVersionText(owner, doc.id, 1);
    expect(v1?.version).toEqual({
      version: 1,
      name: doc.name,
      createdAt: doc.createdAt,
      createdBy: owner,
      sizeBytes: doc.docx.byteLength,
      characters: doc.text.length,
      source: "markdown",
    });
    expect(v1?.text).toBe(doc.text);
    expect(v1?.document).toEqual(record);
    expect((await store.documents.readVersionText(owner, doc.id, 1, "markdown"))?.text).toBe("# v1");
    sameBytes((await store.documents.readVersionContent(owner, doc.id, 1))?.docx, doc.docx);
    const data = await store.documents.readVersionData(owner, doc.id, 1);
    expect({ text: data?.text, markdown: data?.markdown }).toEqual({ text: doc.text, markdown: "# v1" });
    sameBytes(data?.docx, doc.docx);
  });

  it("a rename is a new version with the same content; content and name can change together", async () => {
    const owner = newOwner();
    const doc = newDoc(owner, { name: "Old name" });
    await store.documents.create(doc);
    const renamed = await store.documents.change({
      ownerId: owner,
      id: doc.id,
      actorId: owner,
      at: at(2),
      name: "New name",
      source: "rename",
    });
    expect(renamed).toMatchObject({
      ok: true,
      record: { name: "New name", version: 2, source: "rename", sizeBytes: 64, updatedAt: at(2) },
    });
    sameBytes((await store.documents.readContent(owner, doc.id))?.docx, doc.docx);
    expect((await store.documents.readText(owner, doc.id))?.text).toBe(doc.text);
    // Name search follows the new name.
    expect((await store.documents.list({ ownerId: owner, nameContains: "new name", limit: 5 })).map((d) => d.id)).toEqual([doc.id]);
    expect(await store.documents.list({ ownerId: owner, nameContains: "old name", limit: 5 })).toEqual([]);

    const both = await store.documents.change({
      ownerId: owner,
      id: doc.id,
      actorId: owner,
      at: at(3),
      name: "Third",
      content: content("third"),
      source: "docx",
      expectedVersion: 2,
    });
    expect(both).toMatchObject({ ok: true, record: { name: "Third", version: 3, source: "docx", characters: 5 } });
    const versions = await store.documents.listVersions({ ownerId: owner, id: doc.id, limit: 10 });
    expect(versions?.map((v) => [v.version, v.name, v.source])).toEqual([
      [3, "Third", "docx"],
      [2, "New name", "rename"],
      [1, "Old name", "markdown"],
    ]);
    expect(versions?.map((v) => v.createdAt)).toEqual([at(3), at(2), doc.createdAt]);
  });

  it("a stale expectedVersion is a conflict and writes nothing; an unknown or someone else's id is not_found", async () => {
    const owner = newOwner();
    const doc = newDoc(owner);
    await store.documents.create(doc);
    await store.documents.change({ ownerId: owner, id: doc.id, actorId: owner, at: at(1), content: content("two"), source: "markdown" });
    const before = await store.documents.get(owner, doc.id);

    const stale = await store.documents.change({
      ownerId: owner,
      id: doc.id,
      actorId: owner,
      at: at(2),
      expectedVersion: 1,
      name: "Nope",
      content: content("three"),
      source: "markdown",
    });
    expect(stale).toEqual({ ok: false, reason: "conflict", current: 2 });
    expect(await store.documents.get(owner, doc.id)).toEqual(before);
    expect((await store.documents.readText(owner, doc.id))?.text).toBe("two");
    expect((await store.documents.listVersions({ ownerId: owner, id: doc.id, limit: 10 }))?.map((v) => v.version)).toEqual([2, 1]);
    expect(await store.documents.trash({ ownerId: owner, id: doc.id, at: at(3), expectedVersion: 3 })).toEqual({
      ok: false,
      reason: "conflict",
      current: 2,
    });
    expect(await store.documents.get(owner, doc.id)).toEqual(before);

    expect(
      await store.documents.change({ ownerId: newOwner(), id: doc.id, actorId: "x", at: at(4), name: "Stolen", source: "rename" }),
    ).toEqual({
      ok: false,
      reason: "not_found",
    });
    expect(
      await store.documents.change({ ownerId: owner, id: newId(), actorId: owner, at: at(4), name: "Ghost", source: "rename" }),
    ).toEqual({
      ok: false,
      reason: "not_found",
    });
    expect(await store.documents.get(owner, doc.id)).toEqual(before);
  });

  it("concurrent changes with the same expectedVersion: exactly one wins", async () => {
    for (let round = 0; round < 5; round++) {
      const owner = newOwner();
      const doc = newDoc(owner);
      await store.documents.create(doc);
      const attempts = Array.from({ length: 6 }, (_, i) =>
        store.documents.change({
          ownerId: owner,
          id: doc.id,
          actorId: `writer-${i}`,
          at: at(10 + i),
          expectedVersion: 1,
          content: content(`attempt ${i}`),
          source: "markdown",
        }),
      );
      const results = await Promise.all(attempts);
      const winners = results.flatMap((r, i) => (r.ok ? [i] : []));
      expect(winners).toHaveLength(1);
      for (const r of results) if (!r.ok) expect(r).toEqual({ ok: false, reason: "conflict", current: 2 });
      const current = await store.documents.get(owner, doc.id);
      expect(current).toMatchObject({ version: 2, updatedBy: `writer-${winners[0]}` });
      expect((await store.documents.readText(owner, doc.id))?.text).toBe(`attempt ${winners[0]}`);
      expect((await store.documents.listVersions({ ownerId: owner, id: doc.id, limit: 10 }))?.map((v) => v.version)).toEqual([2, 1]);
    }
  });

  it("concurrent changes without expectedVersion all land, each as its own version", async () => {
    const owner = newOwner();
    const doc = newDoc(owner);
    await store.documents.create(doc);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        store.documents.change({
          ownerId: owner,
          id: doc.id,
          actorId: owner,
          at: at(20 + i),
          content: content(`c${i}`),
          source: "markdown",
        }),
      ),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.map((r) => (r.ok ? r.record.version : 0)).sort()).toEqual([2, 3, 4, 5, 6]);
    expect((await store.documents.listVersions({ ownerId: owner, id: doc.id, limit: 10 }))?.map((v) => v.version)).toEqual([
      6, 5, 4, 3, 2, 1,
    ]);
  });

  it("listVersions pages newest first, the current version included, with beforeVersion", async () => {
    const owner = newOwner();
    const doc = newDoc(owner);
    await store.documents.create(doc);
    for (let i = 2; i <= 7; i++) {
      await store.documents.change({
        ownerId: owner,
        id: doc.id,
        actorId: owner,
        at: at(i),
        content: content(`v${i}`),
        source: "markdown",
      });
    }
    const all = (await store.documents.listVersions({ ownerId: owner, id: doc.id, limit: 100 }))!;
    expect(all.map((v) => v.version)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(all[0]).toEqual({
      version: 7,
      name: doc.name,
      createdAt: at(7),
      createdBy: owner,
      sizeBytes: 34,
      characters: 2,
      source: "markdown",
    });

    const seen: number[] = [];
    let beforeVersion: number | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = (await store.documents.listVersions({
        ownerId: owner,
        id: doc.id,
        limit: 3,
        ...(beforeVersion ? { beforeVersion } : {}),
      }))!;
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(3);
      seen.push(...page.map((v) => v.version));
      beforeVersion = page.at(-1)!.version;
    }
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect((await store.documents.listVersions({ ownerId: owner, id: doc.id, limit: 1 }))?.map((v) => v.version)).toEqual([7]);
    expect((await store.documents.listVersions({ ownerId: owner, id: doc.id, beforeVersion: 7, limit: 2 }))?.map((v) => v.version)).toEqual(
      [6, 5],
    );
    expect(await store.documents.listVersions({ ownerId: owner, id: doc.id, beforeVersion: 1, limit: 2 })).toEqual([]);
    // Any bound past the last version is all of them, however large (a made-up cursor is no error).
    for (const beforeVersion of [8, 2_147_483_648, Number.MAX_SAFE_INTEGER]) {
      expect((await store.documents.listVersions({ ownerId: owner, id: doc.id, beforeVersion, limit: 2 }))?.map((v) => v.version)).toEqual([
        7, 6,
      ]);
    }

    // Not live, not there, or someone else's: null.
    expect(await store.documents.listVersions({ ownerId: newOwner(), id: doc.id, limit: 10 })).toBeNull();
    expect(await store.documents.listVersions({ ownerId: owner, id: newId(), limit: 10 })).toBeNull();
  });

  it("reads versions current and old; versions out of range, someone else's or of a trashed document are null", async () => {
    const owner = newOwner();
    const doc = newDoc(owner, { markdown: null, text: "one" });
    await store.documents.create(doc);
    const two = content("two", "# two");
    await store.documents.change({ ownerId: owner, id: doc.id, actorId: owner, at: at(1), content: two, source: "markdown" });

    const current = await store.documents.readVersionText(owner, doc.id, 2);
    expect(current?.text).toBe("two");
    expect(current?.version).toMatchObject({ version: 2, createdAt: at(1), source: "markdown" });
    expect((await store.documents.readVersionText(owner, doc.id, 2, "markdown"))?.text).toBe("# two");
    sameBytes((await store.documents.readVersionContent(owner, doc.id, 2))?.docx, two.docx);
    const currentData = await store.documents.readVersionData(owner, doc.id, 2);
    expect(currentData?.text).toBe("two");
    sameBytes(currentData?.docx, two.docx);
    // Version 1 had no markdown stored: null, to be derived from its .docx.
    expect((await store.documents.readVersionText(owner, doc.id, 1, "markdown"))?.text).toBeNull();
    expect((await store.documents.readVersionData(owner, doc.id, 1))?.markdown).toBeNull();

    for (const n of [0, 3, 99, -1]) {
      expect(await store.documents.readVersionText(owner, doc.id, n)).toBeNull();
      expect(await store.documents.readVersionContent(owner, doc.id, n)).toBeNull();
      expect(await store.documents.readVersionData(owner, doc.id, n)).toBeNull();
    }
    const mallory = newOwner();
    expect(await store.documents.readVersionText(mallory, doc.id, 1)).toBeNull();
    expect(await store.documents.readVersionContent(mallory, doc.id, 2)).toBeNull();
    expect(await store.documents.readVersionData(mallory, doc.id, 1)).toBeNull();

    await store.documents.trash({ ownerId: owner, id: doc.id, at: at(2) });
    expect(await store.documents.readVersionText(owner, doc.id, 1)).toBeNull();
    expect(await store.documents.readVersionContent(owner, doc.id, 2)).toBeNull();
    expect(await store.documents.readVersionData(owner, doc.id, 1)).toBeNull();
    expect(await store.documents.listVersions({ ownerId: owner, id: doc.id, limit: 10 })).toBeNull();
  });

  it("pruneVersions keeps each document's keepMin newest (the current one counts) and anything replaced after the cutoff", async () => {
    const owner = newOwner();
    // Replaced in 1990 (old) then in 2090 (recent): the cutoff is 2000.
    const old = (i: number) => new Date(Date.UTC(1990, 0, 1, 0, i)).toISOString();
    const recent = (i: number) => new Date(Date.UTC(2090, 0, 1, 0, i)).toISOString();
    const doc = newDoc(owner);
    await store.documents.create(doc);
    // Versions 1..6 replaced long ago (by changes making versions 2..7), 7..8 replaced recently; current is 9.
    for (let i = 1; i <= 8; i++) {
      await store.documents.change({
        ownerId: owner,
        id: doc.id,
        actorId: owner,
        at: i <= 6 ? old(i) : recent(i),
        content: content(`v${i + 1}`),
        source: "markdown",
      });
    }
    const small = newDoc(owner);
    await store.documents.create(small);
    await store.documents.change({ ownerId: owner, id: small.id, actorId: owner, at: old(1), content: content("s2"), source: "markdown" });

    // keepMin 4: versions 9 (current), 8, 7, 6 are kept; 7 and 8 also because they are recent. 1..5 go.
    const cutoff = "2000-01-01T00:00:00.000Z";
    expect(await store.documents.pruneVersions(cutoff, 4)).toBe(5);
    expect((await store.documents.listVersions({ ownerId: owner, id: doc.id, limit: 20 }))?.map((v) => v.version)).toEqual([9, 8, 7, 6]);
    expect(await store.documents.readVersionText(owner, doc.id, 5)).toBeNull();
    expect((await store.documents.readVersionText(owner, doc.id, 6))?.text).toBe("v6");
    // The small document has 2 versions: under keepMin, untouched.
    expect((await store.documents.listVersions({ ownerId: owner, id: small.id, limit: 20 }))?.map((v) => v.version)).toEqual([2, 1]);

    // keepMin 1: only the current version must stay, but 7 and 8 were replaced after the cutoff.
    expect(await store.documents.pruneVersions(cutoff, 1)).toBe(2);
    expect((await store.documents.listVersions({ ownerId: owner, id: doc.id, limit: 20 }))?.map((v) => v.version)).toEqual([9, 8, 7]);
    expect((await store.documents.listVersions({ ownerId: owner, id: small.id, limit: 20 }))?.map((v) => v.version)).toEqual([2]);
    expect(await store.documents.pruneVersions(cutoff, 1)).toBe(0);
  });
});
