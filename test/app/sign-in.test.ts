// The owner's application over HTTP (docs/app.md): redirects without a session, the headers of
// every page, sign-in with a key and with a one-time link, sessions acting with the scopes of
// what opened them and ending on sign-out, key revocation and expiry, CSRF on every
// state-changing request. The browser suite (test/browser/app-*.test.ts) drives the same pages
// as a person does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionAuthority, createSignInLink } from "../../src/auth/sessions.ts";
import { AppClient, csrfOf } from "../helpers/app.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

const ALL = ["docs:read", "docs:write", "sheets:read", "sheets:write"];
let tg: TestGateway;

beforeAll(async () => {
  tg = await startTestGateway();
});
afterAll(() => tg.close());

const linkFor = async (user: string, expiresInMs?: number) => {
  const { token } = await createSignInLink(tg.gateway.store, { userId: user, ...(expiresInMs ? { expiresInMs } : {}) });
  return `/app/sign-in/link?token=${token}`;
};

describe("without a session", () => {
  it("every /app page redirects (303) to the sign-in page with where it was going", async () => {
    const client = new AppClient(tg.url);
    for (const path of ["/app", "/app/documents/doc_01J0000000000000000000000A/edit?x=1", "/app/trash"]) {
      const response = await client.get(path);
      expect(response.status, path).toBe(303);
      expect(response.location).toBe(`/app/sign-in?next=${encodeURIComponent(path)}`);
    }
    const page = await client.get("/app/sign-in?next=%2Fapp%2Ftrash");
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<label for="api-key">API key<\/label>/);
    expect(page.text).toContain('value="/app/trash"');
  });

  it("pages carry a strict Content-Security-Policy, nosniff and a same-origin referrer policy", async () => {
    const client = new AppClient(tg.url);
    await client.signInWithKey(await tg.key({ scopes: ALL }));
    for (const path of ["/app/sign-in", "/app", "/app/trash", "/app/documents/doc_01J0000000000000000000000A"]) {
      const { headers } = await client.get(path);
      const csp = headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toMatch(/script-src 'self'(;|$)/);
      expect(csp, path).not.toContain("unsafe-inline");
      expect(headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(headers.get("referrer-policy"), path).toBe("same-origin");
    }
  });
});

describe("sign-in with an API key", () => {
  it("a wrong key shows the form again with why; a right one opens an HttpOnly, SameSite=Lax session", async () => {
    const client = new AppClient(tg.url);
    const wrong = await client.signInWithKey("wgk_notakeynotakeynotakeynotakeynotakeynotakey1");
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain("not a valid API key");
    expect(client.cookies.has("wg_session")).toBe(false);

    const page = await client.get("/app/sign-in");
    const signedIn = await client.post("/app/sign-in", {
      key: await tg.key({ scopes: ALL }),
      next: "/app/trash",
      _csrf: csrfOf(page.text),
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe("/app/trash");
    const cookie = signedIn.headers.getSetCookie().find((line) => line.startsWith("wg_session="))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/app/);
    expect(cookie).not.toMatch(/Secure/);
    expect((await client.get("/app")).status).toBe(200);
    // Signed in, the sign-in page goes on to where it was asked to.
    expect((await client.get("/app/sign-in")).location).toBe("/app");
  });

  it("refuses a sign-in form posted from elsewhere, or without its token", async () => {
    const client = new AppClient(tg.url);
    const page = await client.get("/app/sign-in");
    const key = await tg.key({ scopes: ALL });
    expect((await client.post("/app/sign-in", { key, _csrf: "forged" })).status).toBe(403);
    expect((await client.post("/app/sign-in", { key, _csrf: csrfOf(page.text) }, { origin: "https://evil.example" })).status).toBe(403);
    expect(client.cookies.has("wg_session")).toBe(false);
  });

  it("an open redirect is not possible: next stays inside the application", async () => {
    const client = new AppClient(tg.url);
    const page = await client.get("/app/sign-in");
    const response = await client.post("/app/sign-in", {
      key: await tg.key({ scopes: ALL }),
      next: "//evil.example/app",
      _csrf: csrfOf(page.text),
    });
    expect(response.location).toBe("/app");
  });

  it("the session acts with the key's scopes: a read-only key lists but cannot create", async () => {
    const client = new AppClient(tg.url);
    await client.signInWithKey(await tg.key({ user: "reader", scopes: ["docs:read"] }));
    const list = await client.get("/app");
    expect(list.status).toBe(200);
    const refused = await client.post("/app/documents", { _csrf: csrfOf(list.text) });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("docs:write");
  });

  it("a session secure behind https: the cookie is Secure when PUBLIC_URL is https", async () => {
    const secure = await startTestGateway({ PUBLIC_URL: "https://docs.example.com" });
    try {
      const client = new AppClient(secure.url);
      const page = await client.get("/app/sign-in");
      const response = await client.post(
        "/app/sign-in",
        { key: await secure.key({ scopes: ALL }), _csrf: csrfOf(page.text) },
        { origin: "https://docs.example.com" },
      );
      expect(response.status).toBe(303);
      expect(response.headers.getSetCookie().find((line) => line.startsWith("wg_session="))).toMatch(/; Secure/);
    } finally {
      await secure.close();
    }
  });
});

describe("sign-in links", () => {
  it("sign in once: a second use, an unknown or an expired link shows the sign-in page", async () => {
    const link = await linkFor("linked-user");
    const client = new AppClient(tg.url);
    const first = await client.get(link);
    expect(first.status).toBe(303);
    expect(first.location).toBe("/app");
    expect((await client.get("/app")).status).toBe(200);

    const again = await new AppClient(tg.url).get(link);
    expect(again.status).toBe(401);
    expect(again.text).toContain("unknown, used or expired");
    expect((await new AppClient(tg.url).get("/app/sign-in/link?token=wgl_nope")).status).toBe(401);

    const { token } = await createSignInLink(tg.gateway.store, { userId: "late", now: new Date(Date.now() - 11 * 60_000) });
    expect((await new AppClient(tg.url).get(`/app/sign-in/link?token=${token}`)).status).toBe(401);
  });
});

describe("sessions end", () => {
  it("on sign-out", async () => {
    const client = new AppClient(tg.url);
    await client.get(await linkFor("leaver"));
    const list = await client.get("/app");
    const token = client.cookies.get("wg_session")!;
    const out = await client.post("/app/sign-out", { _csrf: csrfOf(list.text) });
    expect(out.status).toBe(303);
    expect(out.location).toBe("/app/sign-in?notice=signed-out");
    // The old cookie no longer opens anything, even if kept.
    const replay = new AppClient(tg.url);
    replay.cookies.set("wg_session", token);
    expect((await replay.get("/app")).status).toBe(303);
  });

  it("when the key that opened them is revoked, at once", async () => {
    const client = new AppClient(tg.url);
    const key = await tg.key({ user: "revoked-user", scopes: ALL });
    await client.signInWithKey(key);
    expect((await client.get("/app")).status).toBe(200);
    const [record] = (await tg.gateway.store.listApiKeys("revoked-user")).slice(-1);
    await tg.gateway.store.revokeApiKey(record!.id, new Date().toISOString());
    expect((await client.get("/app")).status).toBe(303);
  });

  it("after APP_SESSION_TTL", async () => {
    let now = new Date("2026-11-22T08:00:00.000Z");
    const sessions = createSessionAuthority({ store: tg.gateway.store, ttlMs: 60_000, now: () => now });
    const key = await tg.key({ user: "ttl-user", scopes: ALL });
    const opened = await sessions.withKey(key);
    expect(opened.session.expiresAt).toBe("2026-11-22T08:01:00.000Z");
    now = new Date("2026-11-22T08:00:59.000Z");
    expect(await sessions.resolve(opened.token)).not.toBeNull();
    now = new Date("2026-11-22T08:01:00.000Z");
    expect(await sessions.resolve(opened.token)).toBeNull();
  });
});

describe("CSRF", () => {
  it("a state-changing request needs the page's token and the application's origin", async () => {
    const client = new AppClient(tg.url);
    await client.signInWithKey(await tg.key({ user: "csrf-user", scopes: ALL }));
    const list = await client.get("/app");
    const token = csrfOf(list.text);
    expect((await client.post("/app/documents", {})).status).toBe(403);
    expect((await client.post("/app/documents", { _csrf: "x".repeat(43) })).status).toBe(403);
    expect((await client.post("/app/documents", { _csrf: token }, { origin: "https://evil.example" })).status).toBe(403);
    // A JSON request from the client layer carries the token in a header.
    const preview = (headers: Record<string, string>) =>
      client.request("/app/preview", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...headers },
        body: JSON.stringify({ markdown: "# Hi" }),
      });
    expect((await preview({})).status).toBe(403);
    const ok = await preview({ "x-csrf-token": token });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text)).toEqual({ html: "<h1>Hi</h1>\n" });
    const created = await client.post("/app/documents", { _csrf: token });
    expect(created.status).toBe(303);
    expect(created.location).toMatch(/^\/app\/documents\/doc_[0-9A-Z]{26}\/edit$/);
  });
});
