// Workbooks in the trash, their share links, purge and retention collecting the blobs nothing
// refers to any more, the quota counting blobs, and the trash listed across documents and
// workbooks with one cursor, on both databases.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { GatewayError } from "../../../src/core/errors.ts";
import { listAcrossKinds } from "../../../src/store/across-kinds.ts";
import type { KindRecord, ListQuery, Store } from "../../../src/store/types.ts";
import { at, backends, CLAIM_AT, countRows, newDoc, newOwner, nextUlid, NOT_BEFORE, useStore } from "./backends.ts";
import { blobBytes, newWorkbook, rootOf, tile, workbookContent } from "./workbook-helpers.ts";

describe.each(backends)("$name store: workbooks in the trash, shared, purged", (backend) => {
  const s = useStore(backend);
  let store: Store;
  beforeAll(() => {
    store = s.store;
  });
  const trashOf = (query: ListQuery) => listAcrossKinds(store, query, { trashed: true });
  const stored = async (ownerId: string) => {
    const [row] = await s.location.sql<{ n: number | string; bytes: number | string | null }>(
      `SELECT count(*) AS n, sum(size) AS bytes FROM blobs WHERE owner_id = ?`,
      [ownerId],
    );
    return { rows: Number(row!.n), bytes: Number(row!.bytes ?? 0) };
  };

  it("share links read a live workbook; trash ends them for good; purge deletes everything and collects its blobs", async () => {
    const owner = newOwner();
    const input = newWorkbook(owner, { createdAt: CLAIM_AT });
    await store.workbooks.create(input, { key: "wb-key", fingerprint: "fp", notBefore: NOT_BEFORE, operation: "sheets.create" });
    await store.workbooks.change({
      ownerId: owner,
      id: input.id,
      actorId: owner,
      at: at(1),
      content: workbookContent([[tile()]]),
      source: "write",
    });
    const share = {
      id: `shr_${nextUlid()}`,
      kind: "workbook" as const,
      targetId: input.id,
      ownerId: owner,
      createdAt: at(1),
      expiresAt: at(59),
    };
    const tokenHash = randomBytes(32).toString("hex");
    await store.insertShare({ ...share, tokenHash });
    const found = await store.findShare(tokenHash, at(2));
    expect(found).toEqual({ share, target: { kind: "workbook", record: await store.workbooks.get(owner, input.id) } });
    expect(await store.listShares(owner, input.id, at(2))).toEqual([share]);

    expect(await store.workbooks.trash({ ownerId: owner, id: input.id, at: at(3), expectedVersion: 1 })).toMatchObject({
      ok: false,
      reason: "conflict",
    });
    const trashed = await store.workbooks.trash({ ownerId: owner, id: input.id, at: at(3) });
    expect(trashed).toMatchObject({ ok: true, record: { deletedAt: at(3) } });
    expect(await store.workbooks.get(owner, input.id)).toBeNull();
    expect((await store.workbooks.get(owner, input.id, { includeDeleted: true }))?.deletedAt).toBe(at(3));
    expect(await store.workbooks.listVersions({ ownerId: owner, id: input.id, limit: 5 })).toBeNull();
    expect(await store.findShare(tokenHash, at(4))).toBeNull();
    expect(await store.workbooks.change({ ownerId: owner, id: input.id, actorId: owner, at: at(4), name: "x", source: "rename" })).toEqual({
      ok: false,
      reason: "not_found",
    });
    expect((await store.workbooks.listTrash({ ownerId: owner, limit: 5 })).map((w) => w.id)).toEqual([input.id]);

    expect((await store.workbooks.restore(owner, input.id))?.deletedAt).toBeNull();
    expect(await store.findShare(tokenHash, at(5))).toBeNull();
    expect(await store.workbooks.purge(owner, input.id)).toBe(false); // live: not from the trash

    await store.workbooks.trash({ ownerId: owner, id: input.id, at: at(6) });
    expect(await store.workbooks.purge(newOwner(), input.id)).toBe(false);
    expect(await store.workbooks.purge(owner, input.id)).toBe(true);
    expect(await store.workbooks.get(owner, input.id, { includeDeleted: true })).toBeNull();
    for (const [table, column] of [
      ["workbook_versions", "workbook_id"],
      ["shares", "target_id"],
      ["idempotency", "target_id"],
    ] as const) {
      expect(await countRows(s.location, table, column, input.id)).toBe(0);
    }
    expect(await stored(owner)).toEqual({ rows: 0, bytes: 0 });
    expect(await countRows(s.location, "blob_refs", "owner_id", owner)).toBe(0);
    expect(await store.storageUsage(owner)).toBe(0);
  });

  it("a page and a tile two workbooks share outlive one of them; retention collects what only old versions reached", async () => {
    const owner = newOwner();
    const [shared, onlyA, onlyAOld, onlyB] = [tile(300), tile(300), tile(300), tile(300)];
    // Page [shared] is the same blob in every version of both workbooks.
    const a1 = workbookContent([[shared!], [onlyAOld!]]);
    const b1 = workbookContent([[shared!], [onlyB!]]);
    const a2 = workbookContent([[shared!], [onlyA!]]);
    const a = newWorkbook(owner, a1);
    const b = newWorkbook(owner, b1);
    await store.workbooks.create(a);
    await store.workbooks.create(b);
    const old = (i: number) => new Date(Date.UTC(1980, 0, 1, 0, i)).toISOString();
    await store.workbooks.change({ ownerId: owner, id: a.id, actorId: owner, at: old(1), content: a2, source: "write" });
    expect((await stored(owner)).rows).toBe(11); // 3 roots, 4 pages, 4 tiles
    const blobsOf = (...contents: (typeof a1)[]) => contents.flatMap((c) => c.blobs.map(([, bytes]) => bytes));

    // Version 1 of a goes: its root, page [onlyAOld] and that tile; page [shared] stays (a2 and b1 name it).
    expect(await store.workbooks.pruneVersions("1990-01-01T00:00:00.000Z", 1)).toBeGreaterThanOrEqual(1);
    const left = blobsOf(b1, a2);
    expect(await stored(owner)).toEqual({ rows: 8, bytes: blobBytes(left) });
    expect(await store.storageUsage(owner)).toBe(blobBytes(left));
    expect(await store.workbooks.listVersions({ ownerId: owner, id: a.id, limit: 5 })).toHaveLength(1);

    // Purging b keeps page [shared] and its tile (a2 names them).
    await store.workbooks.trash({ ownerId: owner, id: b.id, at: "1981-01-01T00:00:00.000Z" });
    expect(await store.workbooks.purgeTrash("1982-01-01T00:00:00.000Z")).toBeGreaterThanOrEqual(1);
    expect(await stored(owner)).toEqual({ rows: 5, bytes: blobBytes(blobsOf(a2)) });
    expect(
      (
        await store.workbooks.getBlobs(
          owner,
          a2.blobs.map(([hash]) => hash),
        )
      ).size,
    ).toBe(5);
    expect(await store.storageUsage(owner)).toBe(blobBytes(blobsOf(a2)));
    expect(await countRows(s.location, "blob_refs", "owner_id", owner)).toBe(4); // root → 2 pages, 2 pages → their tile
  });

  it("the trash lists documents and workbooks together, newest first, with one cursor", async () => {
    const owner = newOwner();
    const made: { id: string; kind: KindRecord["kind"] }[] = [];
    for (let i = 0; i < 7; i++) {
      if (i % 3 === 1) {
        const book = newWorkbook(owner, { name: `Sheet ${i}` });
        await store.workbooks.create(book);
        await store.workbooks.trash({ ownerId: owner, id: book.id, at: at(i) });
        made.push({ id: book.id, kind: "workbook" });
      } else {
        const doc = newDoc(owner, { name: `Doc ${i}` });
        await store.documents.create(doc);
        await store.documents.trash({ ownerId: owner, id: doc.id, at: at(i) });
        made.push({ id: doc.id, kind: "document" });
      }
    }
    await store.documents.create(newDoc(owner)); // live: not listed
    const newestFirst = [...made].reverse();
    const seen: { id: string; kind: string }[] = [];
    let beforeId: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await trashOf({ ownerId: owner, limit: 3, ...(beforeId ? { beforeId } : {}) });
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(3);
      seen.push(...page.map((entry) => ({ id: entry.record.id, kind: entry.kind })));
      beforeId = page.at(-1)!.record.id;
    }
    expect(seen).toEqual(newestFirst);
    const sheetsOnly = await trashOf({ ownerId: owner, limit: 10, nameContains: "sheet" });
    expect(sheetsOnly.map((entry) => entry.kind)).toEqual(["workbook", "workbook"]);
    expect((await trashOf({ ownerId: owner, limit: 10 }))[0]?.record.deletedAt).toBe(at(6));
    expect(await trashOf({ ownerId: newOwner(), limit: 10 })).toEqual([]);
  });
});

describe.each(backends)("$name store: blobs count against the quota", (backend) => {
  const s = useStore(backend);
  let store: Store;
  beforeAll(async () => {
    store = await s.location.open({ quota: { limitBytes: 5_000 } });
    return () => store.close();
  });

  it("a workbook write past the quota is 413 naming STORAGE_QUOTA_MB and stores nothing; known tiles cost nothing", async () => {
    const owner = newOwner();
    const firstTile = tile(2_000);
    const first = newWorkbook(owner, workbookContent([[firstTile]]));
    await store.workbooks.create(first);
    const used = await store.storageUsage(owner);
    const tooBig = newWorkbook(owner, workbookContent([[tile(2_000), tile(2_000)]]));
    const error = await store.workbooks.create(tooBig).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe("PAYLOAD_TOO_LARGE");
    expect((error as GatewayError).message).toMatch(/STORAGE_QUOTA_MB/);
    expect((error as GatewayError).details).toMatchObject({ limit: 5_000, usage: used });
    expect(await store.workbooks.get(owner, tooBig.id)).toBeNull();
    expect(await store.storageUsage(owner)).toBe(used);
    // The same tile again (so the same page) costs only the new root.
    const again = workbookContent([[firstTile]]);
    const changed = await store.workbooks.change({
      ownerId: owner,
      id: first.id,
      actorId: owner,
      at: at(1),
      content: again,
      source: "write",
    });
    expect(changed.ok).toBe(true);
    expect(await store.storageUsage(owner)).toBe(used + rootOf(again).byteLength);
  });
});
