// Sign-in with OpenID Connect over HTTP (docs/app.md "Sign-in"), against a real provider
// (oidc-provider) started here: the sign-in page offers it, the authorization request carries
// PKCE (S256), state and nonce, the provider's login and consent pages are answered as a person
// would, and the callback opens a session for the ID token's subject, in its tenant, with the
// gateway scopes the provider granted. A callback without the flow's cookie, or with a forged
// state, opens nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppClient } from "../helpers/app.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { listenOidcProvider, OIDC_CLIENT, type TestOidcProvider } from "../helpers/oidc.ts";

let provider: TestOidcProvider;
let tg: TestGateway;

beforeAll(async () => {
  provider = await listenOidcProvider();
  tg = await startTestGateway({
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: OIDC_CLIENT.id,
    OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
    OIDC_PROVIDER_NAME: "Suite ID",
  });
  provider.start(`${tg.url}/app/sign-in/oidc/callback`);
});
afterAll(async () => {
  await tg?.close();
  await provider?.close();
});

/** The provider's pages, answered as a person would: any login, then Continue. Returns the gateway's callback URL. */
async function throughProvider(authorizationUrl: string): Promise<string> {
  const idp = new AppClient(provider.issuer);
  let response = await idp.get(authorizationUrl);
  for (let step = 0; step < 8; step++) {
    const location = response.location ? new URL(response.location, provider.issuer).href : undefined;
    if (location?.startsWith(tg.url)) return location;
    if (location) {
      response = await idp.get(location);
      continue;
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(response.text)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(response.text)?.[1];
    if (!action || !prompt) throw new Error(`unexpected provider page (${response.status}): ${response.text.slice(0, 300)}`);
    const fields: Record<string, string> = prompt === "login" ? { prompt, login: "oidc-person", password: "any" } : { prompt };
    response = await idp.post(new URL(action, provider.issuer).href, fields, { origin: provider.issuer });
  }
  throw new Error("the provider never sent the browser back to the gateway");
}

describe("OpenID Connect sign-in", () => {
  it("signs in through the provider: authorization code with PKCE, the subject and tenant of the ID token, the granted scopes", async () => {
    const client = new AppClient(tg.url);
    const page = await client.get("/app/sign-in?next=%2Fapp%2Ftrash");
    expect(page.text).toContain("Sign in with Suite ID");
    const start = await client.get("/app/sign-in/oidc?next=%2Fapp%2Ftrash");
    expect(start.status).toBe(302);
    const authorization = new URL(start.location!);
    expect(authorization.origin).toBe(provider.issuer);
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorization.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorization.searchParams.get("state")).toBeTruthy();
    expect(authorization.searchParams.get("nonce")).toBeTruthy();
    expect(authorization.searchParams.get("redirect_uri")).toBe(`${tg.url}/app/sign-in/oidc/callback`);

    const callback = await throughProvider(authorization.href);
    const done = await client.get(callback);
    expect(done.status).toBe(303);
    expect(done.location).toBe("/app/trash");
    expect((await client.get("/app")).status).toBe(200);
    const [session] = await tg.gateway.store.listSessions(new Date().toISOString(), "oidc-person");
    expect(session).toMatchObject({ method: "oidc", userId: "oidc-person", tenant: "acme", keyId: null });
    expect([...session!.scopes].sort()).toEqual(["docs:read", "docs:write", "sheets:read", "sheets:write"]);
    // What it creates belongs to that person: the API sees it with a key for the same user and tenant.
    const list = await client.get("/app");
    const made = await client.post("/app/documents", { _csrf: /name="_csrf" value="([^"]+)"/.exec(list.text)![1]! });
    expect(made.status).toBe(303);
    const key = await tg.key({ user: "oidc-person", tenant: "acme" });
    const docs = (await (await fetch(`${tg.url}/api/v1/documents`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      documents: unknown[];
    };
    expect(docs.documents).toHaveLength(1);
  });

  it("a callback without the flow's cookie, or with a state that is not the flow's, opens no session", async () => {
    const client = new AppClient(tg.url);
    const start = await client.get("/app/sign-in/oidc");
    const callback = await throughProvider(start.location!);
    const stranger = new AppClient(tg.url);
    const refused = await stranger.get(callback);
    expect(refused.status).toBe(400);
    expect(stranger.cookies.has("wg_session")).toBe(false);
    const forged = new URL(callback);
    forged.searchParams.set("state", "not-the-state");
    const wrongState = await client.get(forged.pathname + forged.search);
    expect(wrongState.status).toBe(401);
    expect(client.cookies.has("wg_session")).toBe(false);
  });

  it("the provider's refusal is said on the sign-in page", async () => {
    const client = new AppClient(tg.url);
    await client.get("/app/sign-in/oidc");
    const refused = await client.get("/app/sign-in/oidc/callback?error=access_denied&state=x");
    expect(refused.status).toBe(401);
    expect(refused.text).toContain("Suite ID did not sign you in (access_denied)");
  });
});
