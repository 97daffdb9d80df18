// Coalesced point reads (src/store/coalesce.ts): one statement per event-loop turn, and
// never an answer from a statement sent before the caller asked — on the real PostgreSQL store
// too: a key revoked while a lookup batch is in flight is refused to the next lookup, and each
// caller of a shared batch sees only its own documents.
import { describe, expect, it } from "vitest";
import { coalescer } from "../../src/store/coalesce.ts";
import { openPostgresStore } from "../../src/store/postgres.ts";
import { usePostgresSchema } from "../helpers/postgres.ts";

const { databaseUrl } = usePostgresSchema("gw_coalesce");

/** A runner that records its batches and answers `key → key.toUpperCase()` after `gate` opens. */
function recording() {
  const batches: string[][] = [];
  let open: () => void = () => {};
  let gate = Promise.resolve();
  return {
    batches,
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release: () => open(),
    run: async (keys: string[]) => {
      batches.push(keys);
      await gate;
      return new Map(keys.filter((key) => key !== "missing").map((key) => [key, key.toUpperCase()]));
    },
  };
}

describe("coalescer", () => {
  it("loads asked for in one turn go out as one batch of distinct keys; each caller gets its own answer", async () => {
    const r = recording();
    const batch = coalescer(r.run);
    const answers = await Promise.all(["a", "b", "a", "missing"].map((key) => batch.load(key)));
    expect(answers).toEqual(["A", "B", "A", null]);
    expect(r.batches).toEqual([["a", "b", "missing"]]);
  });

  it("a load asked for while a batch is in flight never joins it: it gets a statement of its own", async () => {
    const r = recording();
    const batch = coalescer(r.run);
    r.hold();
    const first = batch.load("a");
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.batches).toEqual([["a"]]);
    const second = batch.load("a");
    r.release();
    expect(await Promise.all([first, second])).toEqual(["A", "A"]);
    expect(r.batches).toEqual([["a"], ["a"]]);
  });

  it("a failed batch fails each of its callers; the next batch is unaffected", async () => {
    let fail = true;
    const batch = coalescer(async (keys: string[]) => {
      if (fail) throw new Error("down");
      return new Map(keys.map((key) => [key, 1]));
    });
    const results = await Promise.allSettled([batch.load("a"), batch.load("b")]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    expect(await batch.load("a")).toBe(1);
  });

  it("batches hold at most maxBatch keys", async () => {
    const r = recording();
    const batch = coalescer(r.run, 2);
    await Promise.all(["a", "b", "c", "d", "e"].map((key) => batch.load(key)));
    expect(r.batches).toEqual([["a", "b"], ["c", "d"], ["e"]]);
  });
});

describe("PostgreSQL store reads, coalesced", () => {
  it("concurrent reads of many owners' documents: each caller sees its own and only its own", async () => {
    const store = await openPostgresStore(databaseUrl);
    try {
      const docx = new Uint8Array([1, 2, 3]);
      const created = [];
      for (const owner of ["alice", "bob"]) {
        for (let i = 0; i < 3; i++) {
          const { record: document } = await store.documents.create({
            id: `doc_${owner}_${i}`,
            ownerId: owner,
            createdBy: owner,
            name: `${owner} ${i}`,
            createdAt: new Date().toISOString(),
            docx,
            text: `${owner} text ${i}`,
            markdown: `# ${owner} ${i}`,
          });
          created.push(document);
        }
      }
      const reads = await Promise.all(
        created.flatMap((doc) => [
          store.documents.readText(doc.ownerId, doc.id),
          store.documents.readText(doc.ownerId, doc.id, "markdown"),
          store.documents.readText(doc.ownerId === "alice" ? "bob" : "alice", doc.id), // someone else's id
          store.documents.readText(doc.ownerId, `${doc.id}\u0000`), // PostgreSQL text cannot hold NUL: no match, no error
          store.documents.readText(doc.ownerId, doc.id, "text", 3), // the same document cut: its own key in the batch
        ]),
      );
      created.forEach((doc, i) => {
        const [text, markdown, foreign, nul, cut] = reads.slice(i * 5, i * 5 + 5);
        const whole = `${doc.name.replace(" ", " text ")}`;
        expect(text).toEqual({
          document: expect.objectContaining({ id: doc.id, ownerId: doc.ownerId }),
          text: whole,
          totalChars: whole.length,
        });
        expect(cut).toMatchObject({ text: whole.slice(0, 3), totalChars: whole.length });
        expect(markdown?.text).toBe(`# ${doc.name}`);
        expect(foreign).toBeNull();
        expect(nul).toBeNull();
      });
    } finally {
      await store.close();
    }
  });

  it("a key revoked while a lookup batch is in flight is refused to every lookup asked for after the revoke", async () => {
    const store = await openPostgresStore(databaseUrl);
    try {
      const now = new Date().toISOString();
      await store.insertApiKey({
        id: "key_coalesce",
        userId: "u",
        tenant: null,
        scopes: ["documents:read"],
        hash: "h-coalesce",
        prefix: "wgk_x",
        createdAt: now,
        expiresAt: null,
        revokedAt: null,
      });
      const before = Array.from({ length: 5 }, () => store.findApiKeyByHash("h-coalesce"));
      await store.revokeApiKey("key_coalesce", now);
      const after = await Promise.all(Array.from({ length: 5 }, () => store.findApiKeyByHash("h-coalesce")));
      await Promise.all(before);
      expect(after.map((record) => record?.revokedAt)).toEqual(Array(5).fill(now));
    } finally {
      await store.close();
    }
  });
});
