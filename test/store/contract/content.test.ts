// Content stored once per owner and distinct content (src/store/content.ts), and the per-user
// storage quota (src/store/quota.ts), on both databases: renames and restores store no copy, the
// same content of one owner is one row and of two owners two, purge and retention collect what
// nothing refers to any more, and a write past the quota stores nothing.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { GatewayError } from "../../../src/core/errors.ts";
import { contentBytes, contentHash } from "../../../src/store/content.ts";
import type { DocumentContent, Store } from "../../../src/store/types.ts";
import { generateMarkdown } from "../../fixtures/gen-markdown.ts";
import { at, backends, content, newDoc, newOwner, sameBytes, useStore, type Location } from "./backends.ts";

describe.each(backends)("$name store: content stored once", (backend) => {
  const s = useStore(backend);
  let store: Store;
  beforeAll(() => {
    store = s.store;
  });

  /** The owner's content rows and their bytes, counted behind the store's back. */
  async function stored(location: Location, ownerId: string): Promise<{ rows: number; bytes: number }> {
    const [row] = await location.sql<{ rows: number | string; bytes: number | string | null }>(
      `SELECT count(*) AS rows, sum(size_bytes) AS bytes FROM contents WHERE owner_id = ?`,
      [ownerId],
    );
    return { rows: Number(row!.rows), bytes: Number(row!.bytes ?? 0) };
  }

  it("renames and restores store no content; the same content is one row per owner, and usage counts it once", async () => {
    const owner = newOwner();
    const first = content("first text", "# first");
    const doc = newDoc(owner, first);
    await store.documents.create(doc);
    for (let i = 0; i < 5; i++) {
      await store.documents.change({ ownerId: owner, id: doc.id, actorId: owner, at: at(i), name: `Name ${i}`, source: "rename" });
    }
    expect(await stored(s.location, owner)).toEqual({ rows: 1, bytes: contentBytes(first) });
    const second = content("second text");
    await store.documents.change({ ownerId: owner, id: doc.id, actorId: owner, at: at(6), content: second, source: "markdown" });
    // Restoring version 1 is its content again: no new row.
    const v1 = (await store.documents.readVersionData(owner, doc.id, 1))!;
    await store.documents.change({ ownerId: owner, id: doc.id, actorId: owner, at: at(7), content: v1, source: "restore" });
    // Another document of the same owner with the same content, and one of another owner.
    const twin = newDoc(owner, first);
    await store.documents.create(twin);
    const other = newOwner();
    await store.documents.create(newDoc(other, first));

    expect(await stored(s.location, owner)).toEqual({ rows: 2, bytes: contentBytes(first) + contentBytes(second) });
    expect(await store.storageUsage(owner)).toBe(contentBytes(first) + contentBytes(second));
    expect(await stored(s.location, other)).toEqual({ rows: 1, bytes: contentBytes(first) });
    expect(await store.storageUsage(other)).toBe(contentBytes(first));
    expect(await store.storageUsage(newOwner())).toBe(0);

    // Every version still reads back whole.
    const versions = (await store.documents.listVersions({ ownerId: owner, id: doc.id, limit: 20 }))!;
    expect(versions.map((v) => v.version)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    for (const v of versions) {
      const expected = v.version === 7 ? second : first;
      expect((await store.documents.readVersionText(owner, doc.id, v.version))?.text).toBe(expected.text);
      expect((await store.documents.readVersionText(owner, doc.id, v.version, "markdown"))?.text).toBe(expected.markdown);
      sameBytes((await store.documents.readVersionContent(owner, doc.id, v.version))?.docx, expected.docx);
    }
    // The rows are keyed by the hash new writes compute.
    const hashes = await s.location.sql<{ hash: string }>(`SELECT hash FROM contents WHERE owner_id = ? ORDER BY hash`, [owner]);
    expect(hashes.map((row) => row.hash)).toEqual([contentHash(first), contentHash(second)].sort());
  });

  it("purge and retention collect content nothing refers to any more, and give its bytes back", async () => {
    const owner = newOwner();
    const shared = content("shared");
    const a = newDoc(owner, shared);
    const b = newDoc(owner, shared);
    await store.documents.create(a);
    await store.documents.create(b);
    const old = (i: number) => new Date(Date.UTC(1980, 0, 1, 0, i)).toISOString();
    const contents = [content("only a 1"), content("only a 2"), content("only a 3")];
    for (const [i, c] of contents.entries()) {
      await store.documents.change({ ownerId: owner, id: a.id, actorId: owner, at: old(i), content: c, source: "markdown" });
    }
    const all = [shared, ...contents];
    expect(await store.storageUsage(owner)).toBe(all.reduce((sum, c) => sum + contentBytes(c), 0));

    // Retention drops a's versions 1..2 (shared, only a 1): "shared" is still b's, "only a 1" goes.
    expect(await store.documents.pruneVersions("1990-01-01T00:00:00.000Z", 2)).toBeGreaterThanOrEqual(2);
    expect(await stored(s.location, owner)).toEqual({
      rows: 3,
      bytes: contentBytes(shared) + contentBytes(contents[1]!) + contentBytes(contents[2]!),
    });
    expect(await store.storageUsage(owner)).toBe((await stored(s.location, owner)).bytes);

    // Purging a leaves b's content; purging b too leaves nothing.
    await store.documents.trash({ ownerId: owner, id: a.id, at: at(1) });
    expect(await store.documents.purge(owner, a.id)).toBe(true);
    expect(await stored(s.location, owner)).toEqual({ rows: 1, bytes: contentBytes(shared) });
    expect(await store.storageUsage(owner)).toBe(contentBytes(shared));
    await store.documents.trash({ ownerId: owner, id: b.id, at: "1981-01-01T00:00:00.000Z" });
    await store.documents.purgeTrash("1982-01-01T00:00:00.000Z");
    expect(await stored(s.location, owner)).toEqual({ rows: 0, bytes: 0 });
    expect(await store.storageUsage(owner)).toBe(0);
  });

  it("50 renames of a 390,000-character document grow the database by less than 10 MB, and every version reads back whole", async () => {
    const owner = newOwner();
    const markdown = generateMarkdown(390_000, 23);
    const big: DocumentContent = { docx: new Uint8Array(randomBytes(200_000)), text: markdown.replace(/[#*_`>|-]/g, ""), markdown };
    const doc = newDoc(owner, big);
    await store.documents.create(doc);
    const before = await s.location.sizeBytes();
    for (let i = 1; i <= 50; i++) {
      await store.documents.change({ ownerId: owner, id: doc.id, actorId: owner, at: at(i), name: `Rename ${i}`, source: "rename" });
    }
    const growth = (await s.location.sizeBytes()) - before;
    expect(growth).toBeLessThan(10 * 1024 * 1024);
    const versions = (await store.documents.listVersions({ ownerId: owner, id: doc.id, limit: 100 }))!;
    expect(versions).toHaveLength(51);
    for (const v of versions) {
      const text = await store.documents.readVersionText(owner, doc.id, v.version);
      expect(text?.text?.length).toBe(big.text.length);
      expect(text?.text === big.text).toBe(true);
      expect((await store.documents.readVersionText(owner, doc.id, v.version, "markdown"))?.text === markdown).toBe(true);
      sameBytes((await store.documents.readVersionContent(owner, doc.id, v.version))?.docx, big.docx);
    }
  });
});

describe.each(backends)("$name store: the storage quota", (backend) => {
  const s = useStore(backend);
  const limit = 10_000;
  let refused = 0;
  let store: Store;
  beforeAll(async () => {
    store = await s.location.open({ quota: { limitBytes: limit, onExceeded: () => refused++ } });
    return () => store.close();
  });

  const quotaError = (error: unknown) => {
    expect(error).toBeInstanceOf(GatewayError);
    const gatewayError = error as GatewayError;
    expect(gatewayError.code).toBe("PAYLOAD_TOO_LARGE");
    expect(gatewayError.message).toMatch(/STORAGE_QUOTA_MB/);
    return gatewayError.details as { limit: number; usage: number; required: number };
  };

  it("a write that would pass the quota stores nothing and says so; renames, known content and purges still work", async () => {
    const owner = newOwner();
    const small = content("x".repeat(3_000), null); // ~3 kB of text + the .docx
    const doc = newDoc(owner, small);
    await store.documents.create(doc);
    const used = await store.storageUsage(owner);
    expect(used).toBe(contentBytes(small));

    const tooBig = { docx: new Uint8Array(limit), text: "big", markdown: null };
    const before = refused;
    const refusedCreate = await store.documents.create(newDoc(owner, tooBig)).catch((error: unknown) => error);
    expect(quotaError(refusedCreate)).toEqual({ limit, usage: used, required: contentBytes(tooBig) });
    expect(refused).toBe(before + 1);
    const refusedChange = await store.documents
      .change({ ownerId: owner, id: doc.id, actorId: owner, at: at(1), content: tooBig, source: "markdown" })
      .catch((error: unknown) => error);
    expect(quotaError(refusedChange).usage).toBe(used);
    // Nothing was written: no document, no version, no content, no usage.
    expect((await store.documents.list({ ownerId: owner, limit: 10 })).map((d) => d.id)).toEqual([doc.id]);
    expect((await store.documents.get(owner, doc.id))?.version).toBe(1);
    expect(await store.storageUsage(owner)).toBe(used);

    // What adds no bytes always goes through: a rename, content the owner already has, a restore.
    expect((await store.documents.change({ ownerId: owner, id: doc.id, actorId: owner, at: at(2), name: "n", source: "rename" })).ok).toBe(
      true,
    );
    expect((await store.documents.create(newDoc(owner, small))).replayed).toBe(false);
    // Another owner has a quota of their own.
    await store.documents.create(newDoc(newOwner(), content("y".repeat(2_000))));
    // Up to the limit exactly is allowed.
    const rest = { docx: new Uint8Array(limit - used - 10), text: "0123456789", markdown: null };
    await store.documents.create(newDoc(owner, rest));
    expect(await store.storageUsage(owner)).toBe(limit);
    // Purging gives room back.
    const trashed = (await store.documents.list({ ownerId: owner, limit: 10 }))[0]!;
    await store.documents.trash({ ownerId: owner, id: trashed.id, at: at(3) });
    await store.documents.purge(owner, trashed.id);
    expect(await store.storageUsage(owner)).toBe(used);
    expect(refused).toBe(before + 2);
  });
});
