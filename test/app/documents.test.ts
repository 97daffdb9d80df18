// The application's document pages over HTTP (docs/app.md "Documents"): the list of both kinds
// with search and paging, a document as its reader sees it (sanitised), the editor's save with
// If-Match and its conflict page, history and restore, share links and the recipient's page, the
// trash. Every page runs the operations, so what the API sees changes with it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppClient, csrfOf } from "../helpers/app.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

const ALL = ["docs:read", "docs:write", "sheets:read", "sheets:write"];
let tg: TestGateway;
let key: string;
let client: AppClient;

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${tg.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...init.headers } });
const createDocument = async (name: string, markdown: string) =>
  (await (await api("/api/v1/documents", { method: "POST", body: JSON.stringify({ name, markdown }) })).json()) as {
    id: string;
    version: number;
  };

beforeAll(async () => {
  tg = await startTestGateway();
  key = await tg.key({ user: "owner", scopes: ALL });
  client = new AppClient(tg.url);
  await client.signInWithKey(key);
});
afterAll(() => tg.close());

describe("the list", () => {
  it("shows documents and spreadsheets together, newest first, searches names and pages by 50", async () => {
    const other = await tg.key({ user: "lister", scopes: ALL });
    const lister = new AppClient(tg.url);
    await lister.signInWithKey(other);
    const call = (path: string, body: unknown) =>
      fetch(`${tg.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${other}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    for (let i = 0; i < 52; i++) await call("/api/v1/documents", { name: `Note ${String(i).padStart(2, "0")}`, markdown: "x" });
    await call("/api/v1/spreadsheets", { name: "Budget sheet" });
    const first = await lister.get("/app");
    const names = [...first.text.matchAll(/<td><a href="\/app\/(documents|spreadsheets)\/[^"]+">([^<]+)<\/a><\/td>/g)].map((m) => m[2]);
    expect(names).toHaveLength(50);
    expect(names.slice(0, 3)).toEqual(["Budget sheet", "Note 51", "Note 50"]);
    const next = /href="(\/app\?cursor=[^"]+)">Next page/.exec(first.text)![1]!.replace(/&amp;/g, "&");
    const second = await lister.get(next);
    expect([...second.text.matchAll(/<td><a href="\/app\/documents\/[^"]+">([^<]+)<\/a>/g)].map((m) => m[1])).toEqual([
      "Note 02",
      "Note 01",
      "Note 00",
    ]);
    const search = await lister.get("/app?q=BUDGET");
    expect(search.text).toContain(">Budget sheet</a>");
    expect(search.text).not.toContain(">Note 01</a>");
  });
});

describe("a document", () => {
  it("is shown as HTML from its markdown; raw HTML never runs script; Download gives the .docx", async () => {
    const doc = await createDocument(
      "Q3 review",
      "# Results\n\n<script>alert(1)</script><img src=x onerror=alert(2)>\n\nSome **bold** [x](javascript:alert(3)) <b onclick=alert(4)>b</b>",
    );
    const page = await client.get(`/app/documents/${doc.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("<h1>Results</h1>");
    expect(page.text).toContain("<strong>bold</strong>");
    expect(page.text).not.toMatch(/<script>alert|onerror|onclick|href="javascript/);
    for (const name of [">Edit<", ">History<", ">Download<", ">Share</button>", ">Move to trash</button>"])
      expect(page.text).toContain(name);
    const download = await client.get(`/app/documents/${doc.id}/download`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toContain("wordprocessingml");
    expect(download.headers.get("content-disposition")).toContain("Q3 review.docx");
    expect((await client.get("/app/documents/doc_01J0000000000000000000000A")).status).toBe(404);
  });

  it("saves from the editor with If-Match; a stale save shows both texts, and Keep mine writes mine", async () => {
    const doc = await createDocument("Plan", "first");
    const editor = await client.get(`/app/documents/${doc.id}/edit`);
    expect(editor.text).toMatch(/<textarea id="markdown" name="markdown"[^>]*>\nfirst<\/textarea>/);
    const csrf = csrfOf(editor.text);
    const saved = await client.post(
      `/app/documents/${doc.id}/edit`,
      { _csrf: csrf, name: "Plan", markdown: "second\r\nline", version: "1" },
      { "if-match": '"v1"' },
    );
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/app/documents/${doc.id}?notice=saved`);
    const read = (await (await api(`/api/v1/documents/${doc.id}?format=markdown`)).json()) as { text: string; version: number };
    expect(read).toMatchObject({ version: 2 });
    expect(read.text).toContain("second\nline");

    // Someone else saves version 3 through the API; this editor still has version 2.
    await api(`/api/v1/documents/${doc.id}`, { method: "PUT", body: JSON.stringify({ markdown: "theirs" }) });
    const conflict = await client.post(
      `/app/documents/${doc.id}/edit`,
      { _csrf: csrf, name: "Plan", markdown: "mine", version: "2" },
      { "if-match": '"v2"' },
    );
    expect(conflict.status).toBe(409);
    expect(conflict.text).toContain("Keep mine");
    expect(conflict.text).toContain("Keep theirs");
    expect(conflict.text).toMatch(/<pre[^>]*>mine<\/pre>/);
    expect(conflict.text).toMatch(/<pre[^>]*>theirs\n?<\/pre>/);
    const keepMine = /<form method="post" action="([^"]+\/edit)">[\s\S]*?name="version" value="(\d+)"[\s\S]*?Keep mine/.exec(
      conflict.text,
    )!;
    expect(keepMine[2]).toBe("3");
    const kept = await client.post(keepMine[1]!, { _csrf: csrf, name: "Plan", markdown: "mine", version: keepMine[2]! });
    expect(kept.status).toBe(303);
    expect(((await (await api(`/api/v1/documents/${doc.id}?format=markdown`)).json()) as { text: string }).text.trim()).toBe("mine");
  });

  it("history lists every version with Restore; restoring makes it the newest", async () => {
    const doc = await createDocument("Story", "one");
    await api(`/api/v1/documents/${doc.id}`, { method: "PUT", body: JSON.stringify({ markdown: "two" }) });
    const history = await client.get(`/app/documents/${doc.id}/history`);
    expect(history.text.match(/>Restore<\/button>/g)).toHaveLength(2);
    const view = await client.get(`/app/documents/${doc.id}/history/1`);
    expect(view.text).toContain("<p>one</p>");
    const restored = await client.post(`/app/documents/${doc.id}/history/1/restore`, { _csrf: csrfOf(history.text), current: "2" });
    expect(restored.location).toBe(`/app/documents/${doc.id}?notice=version-restored`);
    const now = (await (await api(`/api/v1/documents/${doc.id}?format=markdown`)).json()) as { text: string; version: number };
    expect(now).toMatchObject({ version: 3 });
    expect(now.text.trim()).toBe("one");
  });

  it("shares: a link with an expiry, shown once as an absolute URL; the recipient's page; revoke", async () => {
    const doc = await createDocument("Shared notes", "## Hello\n\nworld");
    const sharePage = await client.get(`/app/documents/${doc.id}/share`);
    expect(sharePage.text).toContain('<label for="expires-in">Expires in</label>');
    const created = await client.post(`/app/documents/${doc.id}/share`, { _csrf: csrfOf(sharePage.text), expiresIn: "3600" });
    expect(created.status).toBe(200);
    const url = /id="share-link" readonly value="([^"]+)"/.exec(created.text)![1]!;
    expect(url).toMatch(new RegExp(`^${tg.url}/api/v1/shared/`));
    // The recipient, in a browser: a page; an API client: the JSON of the contract.
    const page = await fetch(url, { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toContain("<h2>Hello</h2>");
    expect(html).toMatch(/href="\/api\/v1\/shared\/[^"]+\/content" download>Download/);
    const json = await fetch(url);
    expect(json.headers.get("content-type")).toContain("application/json");
    expect(((await json.json()) as { text: string }).text).toContain("world");

    const listed = await client.get(`/app/documents/${doc.id}/share`);
    const revoke = /action="([^"]+\/revoke)"/.exec(listed.text)![1]!;
    expect((await client.post(revoke, { _csrf: csrfOf(listed.text) })).status).toBe(303);
    expect((await fetch(url, { headers: { accept: "text/html" } })).status).toBe(404);
    expect((await fetch(url)).status).toBe(404);
  });

  it("moves to the trash, restores from it, deletes for good", async () => {
    const doc = await createDocument("Old draft", "bye");
    const page = await client.get(`/app/documents/${doc.id}`);
    const trashed = await client.post(`/app/documents/${doc.id}/trash`, { _csrf: csrfOf(page.text), version: "1" });
    expect(trashed.location).toBe("/app?notice=trashed");
    expect((await client.get(`/app/documents/${doc.id}`)).status).toBe(404);
    const trash = await client.get("/app/trash");
    expect(trash.text).toContain("<td>Old draft</td>");
    const restored = await client.post(`/app/trash/${doc.id}/restore`, { _csrf: csrfOf(trash.text) });
    expect(restored.location).toBe("/app/trash?notice=restored");
    expect((await client.get(`/app/documents/${doc.id}`)).status).toBe(200);
    await client.post(`/app/documents/${doc.id}/trash`, { _csrf: csrfOf(trash.text) });
    expect((await client.post(`/app/trash/${doc.id}/delete`, { _csrf: csrfOf(trash.text) })).location).toBe("/app/trash?notice=deleted");
    expect((await client.get("/app/trash")).text).not.toContain("Old draft");
    expect((await api(`/api/v1/trash/${doc.id}/restore`, { method: "POST" })).status).toBe(404);
  });

  it("New document creates one and opens its editor; Import takes a .docx", async () => {
    const list = await client.get("/app");
    const created = await client.post("/app/documents", { _csrf: csrfOf(list.text) });
    expect(created.location).toMatch(/\/edit$/);
    const docx = await (await api(`/api/v1/documents/${(await createDocument("Source", "# From Word")).id}/content`)).arrayBuffer();
    const form = new FormData();
    form.set("_csrf", csrfOf(list.text));
    form.set("file", new File([docx], "Imported memo.docx"));
    const imported = await client.request("/app/import", { method: "POST", headers: { origin: tg.url }, body: form });
    expect(imported.status).toBe(303);
    const page = await client.follow(imported);
    expect(page.text).toContain("<h1>Imported memo</h1>");
    expect(page.text).toContain("From Word");
    // Without the form's token, nothing is imported.
    const forged = new FormData();
    forged.set("file", new File([docx], "x.docx"));
    expect((await client.request("/app/import", { method: "POST", headers: { origin: tg.url }, body: forged })).status).toBe(403);
  });
});
