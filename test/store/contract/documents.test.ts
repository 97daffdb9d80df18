// store.documents (ItemStore, src/store/types/, and documents' reads) on both databases: create and read back, owners
// isolated, lists and name search, trash, restore and purge.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { foldName, type Store } from "../../../src/store/types.ts";
import {
  allOf,
  at,
  backends,
  bytes,
  CLAIM_AT,
  content,
  countRows,
  newDoc,
  newId,
  newOwner,
  nextUlid,
  NOT_BEFORE,
  useStore,
} from "./backends.ts";

describe.each(backends)("$name store: documents and their trash", (backend) => {
  const s = useStore(backend);
  let store: Store;
  beforeAll(() => {
    store = s.store;
  });

  it("creates a document and reads it back exactly", async () => {
    const owner = newOwner();
    const docx = bytes(4096, 13);
    const text = "Zeilen mit Ümlauten, emoji 🎉, CJK 漢字\nand a second line\r\n\ttab";
    const input = newDoc(owner, { name: "Résumé draft", docx, text, createdAt: "2026-11-22T08:00:00.000Z" });

    const created = await store.documents.create(input);
    const expected = {
      id: input.id,
      ownerId: owner,
      name: "Résumé draft",
      createdAt: "2026-11-22T08:00:00.000Z",
      updatedAt: "2026-11-22T08:00:00.000Z",
      sizeBytes: 4096,
      characters: text.length,
      version: 1,
      updatedBy: owner,
      source: "markdown",
      deletedAt: null,
    };
    expect(created).toEqual({ record: expected, replayed: false, fingerprint: "" });
    expect(input.id).toMatch(/^doc_[0-9A-HJKMNP-TV-Z]{26}$/);

    expect(await store.documents.get(owner, input.id)).toEqual(expected);

    const readText = await store.documents.readText(owner, input.id);
    expect(readText).toEqual({ document: expected, text, totalChars: text.length });

    const content = await store.documents.readContent(owner, input.id);
    expect(content?.document).toEqual(expected);
    expect(content?.docx).toBeInstanceOf(Uint8Array);
    expect(content?.docx.byteLength).toBe(4096);
    expect(Buffer.compare(Buffer.from(content!.docx), Buffer.from(docx))).toBe(0);
  });

  it("returns null for unknown ids", async () => {
    const owner = newOwner();
    const id = newId();
    expect(await store.documents.get(owner, id)).toBeNull();
    expect(await store.documents.readText(owner, id)).toBeNull();
    expect(await store.documents.readContent(owner, id)).toBeNull();
  });

  it("isolates owners: someone else's document is invisible", async () => {
    const alice = newOwner();
    const mallory = newOwner();
    const doc = newDoc(alice);
    await store.documents.create(doc);

    expect(await store.documents.get(mallory, doc.id)).toBeNull();
    expect(await store.documents.readText(mallory, doc.id)).toBeNull();
    expect(await store.documents.readContent(mallory, doc.id)).toBeNull();
    expect(await allOf(store, mallory)).toEqual([]);
    expect((await allOf(store, alice)).map((d) => d.id)).toEqual([doc.id]);
  });

  it("lists newest first and pages with beforeId over 120 documents without repeats or gaps", async () => {
    const owner = newOwner();
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) {
      const doc = newDoc(owner, { name: `Doc ${i}`, docx: bytes(8) });
      await store.documents.create(doc);
      ids.push(doc.id);
    }
    // Someone else's documents interleaved in id order must not show up.
    await store.documents.create(newDoc(newOwner()));
    const newestFirst = [...ids].reverse();

    const firstPage = await store.documents.list({ ownerId: owner, limit: 10 });
    expect(firstPage.map((d) => d.id)).toEqual(newestFirst.slice(0, 10));

    const seen: string[] = [];
    let beforeId: string | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const page = await store.documents.list({ ownerId: owner, limit: 7, ...(beforeId ? { beforeId } : {}) });
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(7);
      seen.push(...page.map((d) => d.id));
      beforeId = page.at(-1)!.id;
    }
    expect(seen).toEqual(newestFirst);
    expect(new Set(seen).size).toBe(120);

    // beforeId is strictly smaller: the cursor document itself is not repeated.
    const after = await store.documents.list({ ownerId: owner, beforeId: ids[50]!, limit: 3 });
    expect(after.map((d) => d.id)).toEqual([ids[49], ids[48], ids[47]]);
    expect(await store.documents.list({ ownerId: owner, beforeId: ids[0]!, limit: 5 })).toEqual([]);
  });

  it("filters by a folded substring of the name, unicode included, with no wildcards", async () => {
    const owner = newOwner();
    const unicode = newDoc(owner, { name: 'Ünïcödé "quoted" name' });
    // Same visible name, decomposed (NFD): folding normalises it, so it matches too.
    const decomposed = newDoc(owner, { name: 'Ünïcödé "quoted" name'.normalize("NFD") });
    const percent = newDoc(owner, { name: "50% off" });
    const underscore = newDoc(owner, { name: "snake_case notes" });
    const plain = newDoc(owner, { name: "Plain name" });
    for (const doc of [unicode, decomposed, percent, underscore, plain]) await store.documents.create(doc);

    const search = async (query: string) =>
      (await store.documents.list({ ownerId: owner, nameContains: foldName(query), limit: 50 })).map((d) => d.id);

    expect(await search('ÜNÏCÖDÉ "QUOTED"')).toEqual([decomposed.id, unicode.id]);
    expect(await search('"quoted" n')).toEqual([decomposed.id, unicode.id]);
    expect(await search("NAME")).toEqual([plain.id, decomposed.id, unicode.id]);
    expect(await search("%")).toEqual([percent.id]);
    expect(await search("_")).toEqual([underscore.id]);
    expect(await search("50%")).toEqual([percent.id]);
    expect(await search("nothing like this")).toEqual([]);
    // The original spelling is returned, not the folded one.
    const found = await store.documents.list({ ownerId: owner, nameContains: foldName("ünïcödé"), limit: 1 });
    expect(found.map((d) => d.name)).toEqual(['Ünïcödé "quoted" name'.normalize("NFD")]);
    // Paging and filtering combine.
    expect(
      (await store.documents.list({ ownerId: owner, nameContains: "name", beforeId: decomposed.id, limit: 50 })).map((d) => d.id),
    ).toEqual([unicode.id]);
  });

  it("trash hides a document from every read, restore brings it back, purge deletes it with its versions, shares and idempotency records", async () => {
    const owner = newOwner();
    const doc = newDoc(owner, { createdAt: CLAIM_AT });
    await store.documents.create(doc, { key: "trash-key", fingerprint: "fp", notBefore: NOT_BEFORE });
    await store.documents.change({ ownerId: owner, id: doc.id, actorId: owner, at: at(1), content: content("v2"), source: "markdown" });
    const share = {
      id: `shr_${nextUlid()}`,
      kind: "document" as const,
      targetId: doc.id,
      ownerId: owner,
      createdAt: at(1),
      expiresAt: "2099-01-01T00:00:00.000Z",
      tokenHash: randomBytes(32).toString("hex"),
    };
    await store.insertShare(share);
    const live = (await store.documents.get(owner, doc.id))!;

    const trashed = await store.documents.trash({ ownerId: owner, id: doc.id, at: at(5), expectedVersion: 2 });
    expect(trashed).toEqual({ ok: true, record: { ...live, deletedAt: at(5) } });
    expect(await store.documents.get(owner, doc.id)).toBeNull();
    expect(await store.documents.get(owner, doc.id, { includeDeleted: true })).toEqual({ ...live, deletedAt: at(5) });
    expect(await store.documents.readText(owner, doc.id)).toBeNull();
    expect(await store.documents.readContent(owner, doc.id)).toBeNull();
    expect(await allOf(store, owner)).toEqual([]);
    expect(await store.findShare(share.tokenHash, at(6))).toBeNull();
    // Trashing twice, or changing it, finds nothing live.
    expect(await store.documents.trash({ ownerId: owner, id: doc.id, at: at(6) })).toEqual({ ok: false, reason: "not_found" });
    expect(await store.documents.change({ ownerId: owner, id: doc.id, actorId: owner, at: at(6), name: "x", source: "rename" })).toEqual({
      ok: false,
      reason: "not_found",
    });
    expect(await store.documents.listTrash({ ownerId: owner, limit: 10 })).toEqual([{ ...live, deletedAt: at(5) }]);
    expect(await store.documents.listTrash({ ownerId: newOwner(), limit: 10 })).toEqual([]);
    // Someone else cannot restore or purge it; a live document cannot be restored or purged.
    expect(await store.documents.restore(newOwner(), doc.id)).toBeNull();
    expect(await store.documents.purge(newOwner(), doc.id)).toBe(false);

    expect(await store.documents.restore(owner, doc.id)).toEqual(live);
    expect(await store.documents.get(owner, doc.id)).toEqual(live);
    expect((await store.documents.listVersions({ ownerId: owner, id: doc.id, limit: 10 }))?.map((v) => v.version)).toEqual([2, 1]);
    // The link ended with the delete: the restore does not revive it.
    expect(await store.findShare(share.tokenHash, at(6))).toBeNull();
    expect(await store.documents.listTrash({ ownerId: owner, limit: 10 })).toEqual([]);
    expect(await store.documents.restore(owner, doc.id)).toBeNull();
    expect(await store.documents.purge(owner, doc.id)).toBe(false);

    await store.documents.trash({ ownerId: owner, id: doc.id, at: at(7) });
    expect(await store.documents.purge(owner, doc.id)).toBe(true);
    expect(await store.documents.purge(owner, doc.id)).toBe(false);
    expect(await store.documents.get(owner, doc.id, { includeDeleted: true })).toBeNull();
    expect(await store.documents.listTrash({ ownerId: owner, limit: 10 })).toEqual([]);
    expect(await store.documents.restore(owner, doc.id)).toBeNull();
    expect(await store.findIdempotent(owner, "trash-key", NOT_BEFORE)).toBeNull();
    expect(await store.findShare(share.tokenHash, at(8))).toBeNull();
    expect(await store.listShares(owner, doc.id, at(8))).toEqual([]);
    // Its versions are gone too: a new document cannot see them, and nothing is left to count.
    expect(await countRows(s.location, "document_versions", "document_id", doc.id)).toBe(0);
    expect(await countRows(s.location, "shares", "target_id", doc.id)).toBe(0);
    expect(await countRows(s.location, "idempotency", "target_id", doc.id)).toBe(0);
  });

  it("listTrash pages newest first and filters by name", async () => {
    const owner = newOwner();
    const docs = Array.from({ length: 5 }, (_, i) => newDoc(owner, { name: i % 2 ? `odd ${i}` : `even ${i}` }));
    for (const doc of docs) await store.documents.create(doc);
    for (const doc of docs) await store.documents.trash({ ownerId: owner, id: doc.id, at: at(1) });
    const ids = docs.map((d) => d.id).reverse();
    expect((await store.documents.listTrash({ ownerId: owner, limit: 2 })).map((d) => d.id)).toEqual(ids.slice(0, 2));
    expect((await store.documents.listTrash({ ownerId: owner, limit: 10, beforeId: ids[1]! })).map((d) => d.id)).toEqual(ids.slice(2));
    expect((await store.documents.listTrash({ ownerId: owner, limit: 10, nameContains: "odd" })).map((d) => d.id)).toEqual([
      docs[3]!.id,
      docs[1]!.id,
    ]);
    expect((await store.documents.listTrash({ ownerId: owner, limit: 10 })).every((d) => d.deletedAt === at(1))).toBe(true);
    // A needle no name can hold (names have no control characters; PostgreSQL text has no NUL) matches nothing.
    expect(await store.documents.listTrash({ ownerId: owner, limit: 10, nameContains: "odd\u0000" })).toEqual([]);
    expect(await store.documents.list({ ownerId: owner, limit: 10, nameContains: "\u0000" })).toEqual([]);
  });

  it("purgeTrash purges documents trashed before the instant, with their versions and shares", async () => {
    const owner = newOwner();
    const longAgo = newDoc(owner);
    const lately = newDoc(owner);
    const live = newDoc(owner);
    for (const d of [longAgo, lately, live]) await store.documents.create(d);
    await store.documents.change({ ownerId: owner, id: longAgo.id, actorId: owner, at: at(1), name: "renamed", source: "rename" });
    await store.insertShare({
      id: `shr_${nextUlid()}`,
      kind: "document",
      targetId: longAgo.id,
      ownerId: owner,
      createdAt: at(1),
      expiresAt: "2099-01-01T00:00:00.000Z",
      tokenHash: randomBytes(32).toString("hex"),
    });
    await store.documents.trash({ ownerId: owner, id: longAgo.id, at: "1991-01-01T00:00:00.000Z" });
    await store.documents.trash({ ownerId: owner, id: lately.id, at: "2091-01-01T00:00:00.000Z" });

    // The only documents trashed before 1992 in this store are this test's.
    expect(await store.documents.purgeTrash("1992-01-01T00:00:00.000Z")).toBe(1);
    expect(await store.documents.get(owner, longAgo.id, { includeDeleted: true })).toBeNull();
    expect(await countRows(s.location, "document_versions", "document_id", longAgo.id)).toBe(0);
    expect(await countRows(s.location, "shares", "target_id", longAgo.id)).toBe(0);
    expect((await store.documents.listTrash({ ownerId: owner, limit: 10 })).map((d) => d.id)).toEqual([lately.id]);
    expect(await store.documents.get(owner, live.id)).not.toBeNull();
    expect(await store.documents.purgeTrash("1992-01-01T00:00:00.000Z")).toBe(0);
  });
});
