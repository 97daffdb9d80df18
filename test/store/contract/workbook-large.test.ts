// Large workbook contents (hundreds of blobs, as a 100,000-formula workbook saves) on both
// databases: SQLite writes their blobs ahead of the transaction that names them, in short
// transactions of their own (issue 37 F6), so what that transaction refuses (a taken id, a stale
// version, a replayed key, the quota) must leave no blob behind and the usage as it was, exactly
// like PostgreSQL's one transaction; and blobs two writes share survive one of them failing.
import { beforeAll, describe, expect, it } from "vitest";
import { GatewayError } from "../../../src/core/errors.ts";
import type { Store, WorkbookContent } from "../../../src/store/types.ts";
import { at, backends, CLAIM_AT, newOwner, NOT_BEFORE, sameBytes, useStore } from "./backends.ts";
import { blobBytes, newWorkbook, tile, workbookContent } from "./workbook-helpers.ts";

/** An id of the same form that is surely not `id` (its last character changed, never to itself). */
const otherIdThan = (id: string): string => `${id.slice(0, -1)}${id.endsWith("Z") ? "Y" : "Z"}`;

/** 4 pages of 100 tiles of 1,000 bytes: 405 blobs, 400 kB, more than one of SQLite's stage slices. */
const largeContent = (pages = 4, tiles = 100): WorkbookContent =>
  workbookContent(Array.from({ length: pages }, () => Array.from({ length: tiles }, () => tile(1_000))));

const bytesOf = (content: WorkbookContent) => blobBytes(content.blobs.map(([, bytes]) => bytes));

describe.each(backends)("$name store: large workbook contents", (backend) => {
  const s = useStore(backend);
  let store: Store;
  beforeAll(() => {
    store = s.store;
  });
  const stored = async (ownerId: string) => {
    const [row] = await s.location.sql<{ n: number | string; bytes: number | string | null }>(
      `SELECT count(*) AS n, sum(size) AS bytes FROM blobs WHERE owner_id = ?`,
      [ownerId],
    );
    return { rows: Number(row!.n), bytes: Number(row!.bytes ?? 0) };
  };
  /** Every blob of the content reads back with its bytes. */
  const readsBack = async (ownerId: string, content: WorkbookContent) => {
    const found = await store.workbooks.getBlobs(
      ownerId,
      content.blobs.map(([hash]) => hash),
    );
    expect(found.size).toBe(content.blobs.length);
    for (const [hash, bytes] of content.blobs) sameBytes(found.get(hash), bytes);
  };

  it("a large create stores every blob once and charges them; a create whose record cannot be written leaves nothing", async () => {
    const owner = newOwner();
    const input = newWorkbook(owner, largeContent());
    await store.workbooks.create(input);
    await readsBack(owner, input);
    expect(await stored(owner)).toEqual({ rows: input.blobs.length, bytes: bytesOf(input) });
    expect(await store.storageUsage(owner)).toBe(bytesOf(input));

    // The same id again: the record's insert fails after the new blobs could have been written.
    const taken = newWorkbook(owner, { ...largeContent(), id: input.id });
    await expect(store.workbooks.create(taken)).rejects.toThrow();
    expect(await stored(owner)).toEqual({ rows: input.blobs.length, bytes: bytesOf(input) });
    expect(await store.storageUsage(owner)).toBe(bytesOf(input));
    await readsBack(owner, input);
  });

  it("a replayed create, a stale or unknown change write no blob; a change stores only what it does not share", async () => {
    const owner = newOwner();
    const claim = { key: "large-key", fingerprint: "fp", notBefore: NOT_BEFORE, operation: "sheets.create" as const };
    const input = newWorkbook(owner, { ...largeContent(), createdAt: CLAIM_AT });
    expect((await store.workbooks.create(input, claim)).replayed).toBe(false);
    const replay = await store.workbooks.create(newWorkbook(owner, { ...largeContent(), createdAt: CLAIM_AT }), claim);
    expect(replay.replayed).toBe(true);
    expect(replay.record.id).toBe(input.id);
    const first = { rows: input.blobs.length, bytes: bytesOf(input) };
    expect(await stored(owner)).toEqual(first);

    const change = { ownerId: owner, id: input.id, actorId: owner, at: at(1), source: "write" };
    expect(await store.workbooks.change({ ...change, content: largeContent(), expectedVersion: 7 })).toMatchObject({
      ok: false,
      reason: "conflict",
    });
    expect(await store.workbooks.change({ ...change, id: otherIdThan(input.id), content: largeContent() })).toMatchObject({
      ok: false,
      reason: "not_found",
    });
    expect(await stored(owner)).toEqual(first);
    expect(await store.storageUsage(owner)).toBe(first.bytes);

    // A new root over the first page's tiles and one new page: only the root, the page and its tiles are new.
    const tiles = input.blobs.slice(5, 105).map(([, bytes]) => bytes);
    const fresh = Array.from({ length: 100 }, () => tile(1_000));
    const next = workbookContent([tiles, fresh]);
    const changed = await store.workbooks.change({ ...change, content: next });
    expect(changed.ok).toBe(true);
    const added = bytesOf(next) - blobBytes(tiles) - blobBytes([input.blobs[1]![1]]);
    expect(await store.storageUsage(owner)).toBe(first.bytes + added);
    expect((await stored(owner)).bytes).toBe(first.bytes + added);
    await readsBack(owner, next);
  });

  it("two writes of the same large content at once, one of them failing, leave the other's blobs whole", async () => {
    const owner = newOwner();
    const existing = newWorkbook(owner, largeContent(1, 10));
    await store.workbooks.create(existing);
    const content = largeContent();
    const winner = newWorkbook(owner, content);
    const loser = newWorkbook(owner, { ...content, id: existing.id });
    // The loser first: on SQLite its stage writes the blobs, the winner's finds them there, and
    // collecting the loser's may take them before the winner names them (then it writes them again).
    const [lost, won] = await Promise.allSettled([store.workbooks.create(loser), store.workbooks.create(winner)]);
    expect(won.status).toBe("fulfilled");
    expect(lost.status).toBe("rejected");
    await readsBack(owner, winner);
    const expected = bytesOf(existing) + bytesOf(content);
    expect(await stored(owner)).toEqual({ rows: existing.blobs.length + content.blobs.length, bytes: expected });
    expect(await store.storageUsage(owner)).toBe(expected);
  });

  it("a purge collecting the same content while a create of it is under way leaves the create's blobs whole", async () => {
    const owner = newOwner();
    const content = largeContent();
    const trashed = newWorkbook(owner, content);
    await store.workbooks.create(trashed);
    await store.workbooks.trash({ ownerId: owner, id: trashed.id, at: at(1) });
    const input = newWorkbook(owner, content);
    const creating = store.workbooks.create(input);
    // On SQLite this runs between the create's stage transactions: the root it found stored is not
    // named by anything any more, so the purge takes it and everything under it; the create writes them again.
    const purging = new Promise((resolve, reject) => {
      setImmediate(() => void store.workbooks.purge(owner, trashed.id).then(resolve, reject));
    });
    await Promise.all([creating, purging]);
    await readsBack(owner, input);
    expect(await stored(owner)).toEqual({ rows: content.blobs.length, bytes: bytesOf(content) });
    expect(await store.storageUsage(owner)).toBe(bytesOf(content));
  });
});

describe.each(backends)("$name store: large workbook contents against the quota", (backend) => {
  const s = useStore(backend);
  let store: Store;
  beforeAll(async () => {
    store = await s.location.open({ quota: { limitBytes: 700_000 } });
    return () => store.close();
  });

  it("a large write past the quota is refused naming what it needs, and stores nothing", async () => {
    const owner = newOwner();
    const first = newWorkbook(owner, largeContent());
    await store.workbooks.create(first);
    const used = await store.storageUsage(owner);
    expect(used).toBe(bytesOf(first));
    const tooBig = newWorkbook(owner, largeContent());
    const error = await store.workbooks.create(tooBig).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).details).toEqual({ limit: 700_000, usage: used, required: bytesOf(tooBig) });
    const change = { ownerId: owner, id: first.id, actorId: owner, at: at(1), source: "write", content: largeContent(3) };
    const refused = await store.workbooks.change(change).catch((e: unknown) => e);
    expect((refused as GatewayError).code).toBe("PAYLOAD_TOO_LARGE");
    expect(await store.storageUsage(owner)).toBe(used);
    const [row] = await s.location.sql<{ n: number | string }>(`SELECT count(*) AS n FROM blobs WHERE owner_id = ?`, [owner]);
    expect(Number(row!.n)).toBe(first.blobs.length);
    expect(await store.workbooks.get(owner, tooBig.id)).toBeNull();
    expect((await store.workbooks.get(owner, first.id))?.version).toBe(1);
  });
});
