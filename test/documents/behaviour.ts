// The documents behaviour matrix (auth, scopes, isolation, bad input, limits, paging,
// idempotency), written once. Each surface's test file calls it with its own driver.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { bearer, expectOk, type DocumentsDriver } from "./driver.ts";

/** Every combination of the documents scopes, labelled: the scope matrix of each surface. */
export const scopeSets: [string, string[]][] = [
  ["none", []],
  ["docs:read", ["docs:read"]],
  ["docs:write", ["docs:write"]],
  ["both", ["docs:read", "docs:write"]],
];

export function documentsBehaviour(makeDriver: (tg: TestGateway) => DocumentsDriver, env: Record<string, string> = {}): void {
  let tg: TestGateway;
  let driver: DocumentsDriver;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    tg = await startTestGateway(env);
    driver = makeDriver(tg);
    alice = bearer(await tg.key({ user: "alice" }));
    bob = bearer(await tg.key({ user: "bob" }));
  });
  afterAll(() => tg.close());

  const codeOf = (o: { ok: boolean; code?: string }) => (o.ok ? "OK" : o.code);

  describe("authentication", () => {
    const cases: [string, () => Promise<string | null>][] = [
      ["no header", async () => null],
      ["wrong scheme", async () => `Basic ${Buffer.from("a:b").toString("base64")}`],
      ["unknown key", async () => bearer(`wgk_${randomBytes(32).toString("base64url")}`)],
      ["expired key", async () => bearer(await tg.key({ expiresInMs: -1000 }))],
      [
        "revoked key",
        async () => {
          const key = await tg.key();
          const [record] = (await tg.gateway.store.listApiKeys("alice")).slice(-1);
          await tg.gateway.store.revokeApiKey(record!.id, new Date().toISOString());
          return bearer(key);
        },
      ],
    ];
    it.each(cases)("%s → UNAUTHENTICATED on every operation", async (_label, auth) => {
      const header = await auth();
      expect(codeOf(await driver.list(header))).toBe("UNAUTHENTICATED");
      expect(codeOf(await driver.read(header, "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A"))).toBe("UNAUTHENTICATED");
      expect(codeOf(await driver.create(header, { name: "x", markdown: "# x" }))).toBe("UNAUTHENTICATED");
    });

    it("a revoked key stops working on the next request", async () => {
      const key = bearer(await tg.key({ user: "carol" }));
      expect(codeOf(await driver.list(key))).toBe("OK");
      const [record] = await tg.gateway.store.listApiKeys("carol");
      await tg.gateway.store.revokeApiKey(record!.id, new Date().toISOString());
      expect(codeOf(await driver.list(key))).toBe("UNAUTHENTICATED");
    });
  });

  describe("scopes", () => {
    it.each(scopeSets)("scopes %s", async (_label, scopes) => {
      const key = bearer(await tg.key({ user: "scoped", scopes }));
      const doc = expectOk(await driver.create(alice, { name: "scoped", markdown: "text" }));
      const canRead = scopes.includes("docs:read");
      const canWrite = scopes.includes("docs:write");
      const list = await driver.list(key);
      expect(codeOf(list)).toBe(canRead ? "OK" : "FORBIDDEN");
      // Someone else's id: with the scope it is NOT_FOUND, without it FORBIDDEN comes first.
      expect(codeOf(await driver.read(key, doc.id))).toBe(canRead ? "NOT_FOUND" : "FORBIDDEN");
      expect(codeOf(await driver.create(key, { name: "s", markdown: "s" }))).toBe(canWrite ? "OK" : "FORBIDDEN");
      if (!canRead && !list.ok && driver.surface === "rest") {
        expect(list.httpStatus).toBe(403);
        expect(list.headers?.get("www-authenticate")).toBe('Bearer error="insufficient_scope", scope="docs:read"');
      }
    });
  });

  describe("isolation", () => {
    it("bob cannot read or see alice's document", async () => {
      const doc = expectOk(await driver.create(alice, { name: "alice private", markdown: "secret plans" }));
      expect(codeOf(await driver.read(bob, doc.id))).toBe("NOT_FOUND");
      const bobs = expectOk(await driver.list(bob, { limit: 100 }));
      expect(bobs.documents.map((d) => d.id)).not.toContain(doc.id);
      expect(expectOk(await driver.read(alice, doc.id)).text).toBe("secret plans");
    });
  });

  describe("bad input", () => {
    const badCreates: [string, Record<string, unknown>][] = [
      ["missing name", { markdown: "x" }],
      ["missing markdown", { name: "x" }],
      ["name wrong type", { name: 123, markdown: "x" }],
      ["markdown wrong type", { name: "x", markdown: ["x"] }],
      ["empty name", { name: "   ", markdown: "x" }],
      ["name of 256 characters", { name: "n".repeat(256), markdown: "x" }],
    ];
    it.each(badCreates)("create with %s → BAD_USER_INPUT", async (_label, body) => {
      expect(codeOf(await driver.create(alice, body))).toBe("BAD_USER_INPUT");
    });

    it("accepts a name of 255 characters and trims it", async () => {
      const doc = expectOk(await driver.create(alice, { name: `  ${"n".repeat(255)}  `, markdown: "x" }));
      expect(doc.name).toBe("n".repeat(255));
    });

    it("markdown of 400,000 characters is accepted; 400,001 is PAYLOAD_TOO_LARGE and stores nothing", async () => {
      const user = bearer(await tg.key({ user: `big-${driver.surface}` }));
      const ok = expectOk(await driver.create(user, { name: "big", markdown: "a".repeat(400_000) }));
      expect(ok.characters).toBe(400_000);
      const tooBig = await driver.create(user, { name: "too big", markdown: "a".repeat(400_001) });
      expect(codeOf(tooBig)).toBe("PAYLOAD_TOO_LARGE");
      if (!tooBig.ok && driver.surface === "rest") expect(tooBig.httpStatus).toBe(413);
      const listed = expectOk(await driver.list(user));
      expect(listed.documents.map((d) => d.name)).toEqual(["big"]);
    });

    it("a final line ending does not count against the limit (gen-markdown.mjs 400000 output fits)", async () => {
      const user = bearer(await tg.key({ user: `newline-${driver.surface}` }));
      const ok = expectOk(await driver.create(user, { name: "with newline", markdown: `${"b".repeat(400_000)}\n` }));
      expect(ok.characters).toBe(400_000);
      expect(codeOf(await driver.create(user, { name: "over", markdown: `${"b".repeat(400_001)}\r\n` }))).toBe("PAYLOAD_TOO_LARGE");
    });

    it.each([0, -1, 1.5, "abc", 1_000_001])("maxChars %s → BAD_USER_INPUT", async (maxChars) => {
      const doc = expectOk(await driver.create(alice, { name: "m", markdown: "hello" }));
      expect(codeOf(await driver.read(alice, doc.id, maxChars))).toBe("BAD_USER_INPUT");
    });

    it.each([0, 101, "x"])("limit %s → BAD_USER_INPUT", async (limit) => {
      expect(codeOf(await driver.list(alice, { limit }))).toBe("BAD_USER_INPUT");
    });

    it("a cursor not issued by the API → BAD_USER_INPUT", async () => {
      expect(codeOf(await driver.list(alice, { cursor: "garbage" }))).toBe("BAD_USER_INPUT");
    });

    it("unknown id → NOT_FOUND", async () => {
      expect(codeOf(await driver.read(alice, "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A"))).toBe("NOT_FOUND");
    });

    // An id that cannot exist is "no such id" too (docs/api.md "Errors"), not a shape error.
    it.each([
      ["malformed", "doc_x"],
      ["lower-case", "doc_01jd7q6r1v2s3t4u5w6x7y8z9a"],
      ["65 characters", `doc_${"A".repeat(61)}`],
      ["1,000 characters", "x".repeat(1000)],
      ["empty", ""],
    ])("%s id → NOT_FOUND", async (_label, id) => {
      expect(codeOf(await driver.read(alice, id))).toBe("NOT_FOUND");
    });
  });

  describe("reading", () => {
    it("maxChars bounds the text and reports truncation", async () => {
      const doc = expectOk(await driver.create(alice, { name: "long", markdown: "word ".repeat(10_000) }));
      const full = expectOk(await driver.read(alice, doc.id));
      expect(full.text.length).toBe(20_000);
      expect(full.truncated).toBe(true);
      expect(full.totalChars).toBe(doc.characters);
      const one = expectOk(await driver.read(alice, doc.id, 1));
      expect(one).toMatchObject({ text: "w", truncated: true, totalChars: doc.characters });
      const all = expectOk(await driver.read(alice, doc.id, 1_000_000));
      expect(all.truncated).toBe(false);
      expect(all.text.length).toBe(all.totalChars);
    });
  });

  describe("paging and search", () => {
    it("120 documents page newest first with none repeated or missing", async () => {
      const user = bearer(await tg.key({ user: `pager-${driver.surface}` }));
      const created: string[] = [];
      for (let i = 0; i < 120; i++) {
        created.push(expectOk(await driver.create(user, { name: `doc ${i}`, markdown: `number ${i}` })).id);
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = expectOk(await driver.list(user, { limit: 25, ...(cursor ? { cursor } : {}) }));
        seen.push(...page.documents.map((d) => d.id));
        cursor = page.nextCursor ?? undefined;
        pages++;
      } while (cursor);
      expect(pages).toBe(5);
      expect(seen).toEqual([...created].reverse());
      const firstPage = expectOk(await driver.list(user));
      expect(firstPage.documents).toHaveLength(50);
    });

    it("query matches names case-insensitively, unicode and quotes included", async () => {
      const user = bearer(await tg.key({ user: `search-${driver.surface}` }));
      const names = ['Ünïcödé "Quoted" Report', "quarterly REVIEW", "Café ☕ notes", "other"];
      for (const name of names) expectOk(await driver.create(user, { name, markdown: name }));
      const find = async (query: string) =>
        expectOk(await driver.list(user, { query }))
          .documents.map((d) => d.name)
          .sort();
      expect(await find("review")).toEqual(["quarterly REVIEW"]);
      expect(await find("ünïcödé")).toEqual(['Ünïcödé "Quoted" Report']);
      expect(await find('"quoted"')).toEqual(['Ünïcödé "Quoted" Report']);
      expect(await find("CAFÉ ☕")).toEqual(["Café ☕ notes"]);
      expect(await find("%")).toEqual([]);
      expect(await find("")).toHaveLength(4);
    });
  });

  describe("idempotency", () => {
    it("the same key twice creates one document and answers with the same body", async () => {
      const user = bearer(await tg.key({ user: `idem-${driver.surface}` }));
      const key = `idem-${randomBytes(8).toString("hex")}`;
      const first = expectOk(await driver.create(user, { name: "once", markdown: "# once" }, key));
      const second = expectOk(await driver.create(user, { name: "once", markdown: "# once" }, key));
      expect(second).toEqual(first);
      expect(expectOk(await driver.list(user)).documents).toHaveLength(1);
    });

    it("the same key with a different body answers with the first result and creates nothing new (docs/api.md, REST documents interface)", async () => {
      const user = bearer(await tg.key({ user: `idem-diff-${driver.surface}` }));
      const key = `idem-${randomBytes(8).toString("hex")}`;
      const first = expectOk(await driver.create(user, { name: "first", markdown: "# first body" }, key));
      const reused = expectOk(await driver.create(user, { name: "different", markdown: "another body entirely" }, key));
      expect(reused).toEqual(first);
      expect(expectOk(await driver.list(user)).documents).toEqual([first]);
      expect(expectOk(await driver.read(user, first.id)).text).toBe("first body");
    });

    it("keys are per principal", async () => {
      const key = `shared-${randomBytes(8).toString("hex")}`;
      const a = expectOk(await driver.create(alice, { name: "a", markdown: "a" }, key));
      const b = expectOk(await driver.create(bob, { name: "a", markdown: "a" }, key));
      expect(a.id).not.toBe(b.id);
    });
  });
}
