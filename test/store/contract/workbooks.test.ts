// store.workbooks (src/store/types/workbooks.ts) on both databases: create and read back (record,
// blobs, value tiles), owners isolated, lists, changes (a rename stores no blob; content shares
// the tiles it keeps), conditional and idempotent changes, versions, trash, restore and purge.
import { beforeAll, describe, expect, it } from "vitest";
import { blobHash } from "../../../src/store/content.ts";
import type { Store, WorkbookRecord } from "../../../src/store/types.ts";
import { at, backends, CLAIM_AT, countRows, newDoc, newOwner, NOT_BEFORE, sameBytes, useStore } from "./backends.ts";
import { blobBytes, newWorkbook, rootOf, sheets, tile, workbookContent } from "./workbook-helpers.ts";

describe.each(backends)("$name store: workbooks", (backend) => {
  const s = useStore(backend);
  let store: Store;
  beforeAll(() => {
    store = s.store;
  });
  const blobRows = async (ownerId: string) => countRows(s.location, "blobs", "owner_id", ownerId);

  it("creates a workbook and reads back its record and blobs; other owners see nothing", async () => {
    const owner = newOwner();
    const [t1, t2] = [tile(), tile()];
    const input = newWorkbook(owner, {
      name: "Q3 Budget",
      ...workbookContent([[t1!, t2!]]),
    });
    const created = await store.workbooks.create(input);
    const expected: WorkbookRecord = {
      id: input.id,
      ownerId: owner,
      name: "Q3 Budget",
      createdAt: input.createdAt,
      updatedAt: input.createdAt,
      version: 1,
      updatedBy: owner,
      source: "values",
      deletedAt: null,
      sizeBytes: 1000,
      cells: 6,
      sheets: sheets(),
      manifestHash: input.manifestHash,
    };
    expect(created).toEqual({ record: expected, replayed: false, fingerprint: "" });
    expect(await store.workbooks.get(owner, input.id)).toEqual(expected);

    const given = input.blobs.map(([hash]) => hash);
    const blobs = await store.workbooks.getBlobs(owner, [...given, "f".repeat(43)]);
    expect([...blobs.keys()].sort()).toEqual([...given].sort());
    sameBytes(blobs.get(expected.manifestHash), rootOf(input));
    sameBytes(blobs.get(blobHash(t1!)), t1!);
    expect(await store.storageUsage(owner)).toBe(blobBytes(input.blobs.map(([, bytes]) => bytes)));

    const mallory = newOwner();
    expect(await store.workbooks.get(mallory, input.id)).toBeNull();
    expect((await store.workbooks.getBlobs(mallory, [expected.manifestHash])).size).toBe(0);
    expect(await store.workbooks.list({ ownerId: mallory, limit: 10 })).toEqual([]);
  });

  it("lists newest first with a cursor and a name filter", async () => {
    const owner = newOwner();
    const books = Array.from({ length: 5 }, (_, i) => newWorkbook(owner, { name: i % 2 ? `Odd ${i}` : `Even ${i}` }));
    for (const book of books) await store.workbooks.create(book);
    const ids = books.map((b) => b.id).reverse();
    expect((await store.workbooks.list({ ownerId: owner, limit: 2 })).map((w) => w.id)).toEqual(ids.slice(0, 2));
    expect((await store.workbooks.list({ ownerId: owner, limit: 10, beforeId: ids[1]! })).map((w) => w.id)).toEqual(ids.slice(2));
    expect((await store.workbooks.list({ ownerId: owner, limit: 10, nameContains: "odd" })).map((w) => w.id)).toEqual([
      books[3]!.id,
      books[1]!.id,
    ]);
    expect(await store.workbooks.list({ ownerId: owner, limit: 10, nameContains: "\u0000" })).toEqual([]);
    expect(await store.workbooks.listTrash({ ownerId: owner, limit: 10 })).toEqual([]);
  });

  it("a rename stores no blob; new content stores only the pages and tiles it does not share", async () => {
    const owner = newOwner();
    const [a, b, c] = [tile(), tile(), tile()];
    // Two pages, [a] and [b]: the change keeps page [b] and replaces [a] with [c].
    const input = newWorkbook(owner, {
      ...workbookContent([[a!], [b!]]),
    });
    await store.workbooks.create(input);
    expect(await blobRows(owner)).toBe(5);
    const renamed = await store.workbooks.change({
      ownerId: owner,
      id: input.id,
      actorId: "bob",
      at: at(1),
      name: "Renamed",
      source: "rename",
    });
    expect(renamed).toMatchObject({ ok: true, record: { version: 2, name: "Renamed", updatedBy: "bob", source: "rename" } });
    expect(await blobRows(owner)).toBe(5);

    // A new root, a new page [c] and its tile; page [b] is shared.
    const next = workbookContent([[c!], [b!]], { cells: 9, sizeBytes: 2000, sheets: sheets("Data") });
    const changed = await store.workbooks.change({
      ownerId: owner,
      id: input.id,
      actorId: owner,
      at: at(2),
      expectedVersion: 2,
      content: next,
      source: "write",
    });
    expect(changed).toMatchObject({
      ok: true,
      record: { version: 3, cells: 9, sizeBytes: 2000, sheets: sheets("Data"), manifestHash: next.manifestHash },
    });
    expect(await blobRows(owner)).toBe(8);
    await store.workbooks.change({
      ownerId: owner,
      id: input.id,
      actorId: owner,
      at: at(3),
      source: "edit",
    });

    // Restoring version 1 names its root again: nothing new is stored.
    const v1 = (await store.workbooks.getVersion(owner, input.id, 1))!;
    expect(v1.version).toMatchObject({ version: 1, name: "Budget", manifestHash: input.manifestHash, cells: 6 });
    const restored = await store.workbooks.change({
      ownerId: owner,
      id: input.id,
      actorId: owner,
      at: at(4),
      content: { manifestHash: v1.version.manifestHash, blobs: [], refs: [], sizeBytes: 1000, cells: 6, sheets: sheets() },
      source: "restore",
    });
    expect(restored).toMatchObject({ ok: true, record: { version: 5, manifestHash: v1.version.manifestHash } });
    expect(await blobRows(owner)).toBe(8);

    const versions = (await store.workbooks.listVersions({ ownerId: owner, id: input.id, limit: 10 }))!;
    expect(versions.map((v) => [v.version, v.source])).toEqual([
      [5, "restore"],
      [4, "edit"],
      [3, "write"],
      [2, "rename"],
      [1, "values"],
    ]);
    expect(
      (await store.workbooks.listVersions({ ownerId: owner, id: input.id, beforeVersion: 4, limit: 2 }))?.map((v) => v.version),
    ).toEqual([3, 2]);
    for (const n of [0, 6, -1]) expect(await store.workbooks.getVersion(owner, input.id, n)).toBeNull();
    expect(await store.workbooks.getVersion(newOwner(), input.id, 1)).toBeNull();
  });

  it("a stale expectedVersion is a conflict and writes nothing; an unknown or someone else's id is not_found; one of concurrent writers wins", async () => {
    const owner = newOwner();
    const input = newWorkbook(owner);
    await store.workbooks.create(input);
    const before = await blobRows(owner);
    const stale = await store.workbooks.change({
      ownerId: owner,
      id: input.id,
      actorId: owner,
      at: at(1),
      expectedVersion: 2,
      content: workbookContent([[tile()]]),
      source: "write",
    });
    expect(stale).toEqual({ ok: false, reason: "conflict", current: 1 });
    expect(await blobRows(owner)).toBe(before);
    expect(
      await store.workbooks.change({ ownerId: newOwner(), id: input.id, actorId: "x", at: at(1), name: "x", source: "rename" }),
    ).toEqual({
      ok: false,
      reason: "not_found",
    });
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        store.workbooks.change({
          ownerId: owner,
          id: input.id,
          actorId: `w${i}`,
          at: at(2),
          expectedVersion: 1,
          content: workbookContent([[tile()]]),
          source: "write",
        }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect((await store.workbooks.get(owner, input.id))?.version).toBe(2);
    // The losers' blobs were rolled back with them: the winner's root, page and tile.
    expect(await blobRows(owner)).toBe(before + 3);
  });

  it("create and change are idempotent per operation: a replay answers the first response and writes nothing", async () => {
    const owner = newOwner();
    const claim = { key: "k1", fingerprint: "fp", notBefore: NOT_BEFORE };
    const input = newWorkbook(owner, { createdAt: CLAIM_AT });
    const first = await store.workbooks.create(input, claim);
    await store.workbooks.change({ ownerId: owner, id: input.id, actorId: owner, at: CLAIM_AT, name: "Later", source: "rename" });
    const again = await store.workbooks.create(newWorkbook(owner, { createdAt: CLAIM_AT }), claim);
    expect(again).toEqual({ record: first.record, replayed: true, fingerprint: "fp" });
    expect((await store.findIdempotent(owner, "k1", NOT_BEFORE, "sheets.create"))?.targetId).toBe(input.id);
    // The same key on documents.create is another record.
    expect(await store.findIdempotent(owner, "k1", NOT_BEFORE)).toBeNull();
    expect((await store.documents.create(newDoc(owner, { createdAt: CLAIM_AT }), claim)).replayed).toBe(false);

    const append = (rows: number) => ({
      ownerId: owner,
      id: input.id,
      actorId: owner,
      at: CLAIM_AT,
      expectedVersion: 2,
      content: workbookContent([[tile()]], { cells: rows }),
      source: "append",
      idempotency: {
        claim: { ...claim, operation: "sheets.append" },
        response: (workbook: WorkbookRecord) => ({ workbook, appended: rows }),
      },
    });
    const appended = await store.workbooks.change(append(3));
    expect(appended).toMatchObject({ ok: true, record: { version: 3, cells: 3 } });
    const blobs = await blobRows(owner);
    const replayed = await store.workbooks.change(append(4));
    expect(replayed).toEqual({
      ok: false,
      reason: "replayed",
      fingerprint: "fp",
      response: { workbook: (appended as { record: WorkbookRecord }).record, appended: 3 },
    });
    expect((await store.workbooks.get(owner, input.id))?.version).toBe(3);
    expect(await blobRows(owner)).toBe(blobs);
  });

  it("a blob whose hash is not its own, a blob nothing refers to, or a reference to a blob not there stores nothing", async () => {
    const owner = newOwner();
    const content = workbookContent([[tile()]]);
    const [rootEntry, pageEntry, tileEntry] = content.blobs;
    const attempts = [
      { ...content, blobs: [rootEntry!, pageEntry!, [tileEntry![0], tile()] as const] }, // a tile's bytes do not match its hash
      { ...content, blobs: [...content.blobs, [blobHash(tile()), tile()] as const] }, // hash ok? no: a new random tile under another's hash
      { ...content, blobs: [rootEntry!, pageEntry!] }, // the page names a tile neither given nor stored
      { ...content, blobs: [...content.blobs, ((t) => [blobHash(t), t] as const)(tile())] }, // a blob nothing refers to
      { ...content, manifestHash: blobHash(tile()) }, // a root that is not there
    ];
    for (const attempt of attempts) await expect(store.workbooks.create(newWorkbook(owner, attempt))).rejects.toThrow();
    expect(await blobRows(owner)).toBe(0);
    expect(await store.storageUsage(owner)).toBe(0);
    expect(await store.workbooks.list({ ownerId: owner, limit: 5 })).toEqual([]);
  });
});
