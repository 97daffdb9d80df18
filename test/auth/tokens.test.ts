// Access tokens verified with jose (docs/api.md "Credentials, identity, scopes"): HS256 secret and a JWKS endpoint with key rotation.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT, exportJWK, generateKeyPair, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JWT_CLOCK_SKEW_S } from "../../src/auth/jwt.ts";
import { graphqlRequest } from "../documents/graphql-driver.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

const secret = "a-test-secret-that-is-at-least-32-characters";
const issuer = "https://auth.test/";
const audience = "workspace-gateway";

const sign = (
  claims: Record<string, unknown>,
  options: { exp?: string | number; nbf?: string | number; iss?: string; aud?: string; key?: string } = {},
) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .setSubject("jwt-user")
    .setIssuedAt()
    .setIssuer(options.iss ?? issuer)
    .setAudience(options.aud ?? audience)
    .setExpirationTime(options.exp ?? "5m")
    .setNotBefore(options.nbf ?? "0s")
    .sign(new TextEncoder().encode(options.key ?? secret));

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("HS256 access tokens", () => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway({ JWT_SECRET: secret, JWT_ISSUER: issuer, JWT_AUDIENCE: audience, JWT_TENANT_CLAIM: "org" });
  });
  afterAll(() => tg.close());

  const viewer = async (token: string) =>
    graphqlRequest<{ viewer: { id: string; tenant: string | null; scopes: string[]; credentialKind: string } }>(
      tg.url,
      `Bearer ${token}`,
      "{ viewer { id tenant scopes credentialKind } }",
    );

  it("a valid token is the principal: sub, scope claim, tenant claim", async () => {
    const { body } = await viewer(await sign({ scope: "docs:read docs:write", org: "acme" }));
    expect(body.data?.viewer).toEqual({
      id: "jwt-user",
      tenant: "acme",
      scopes: ["docs:read", "docs:write"],
      credentialKind: "ACCESS_TOKEN",
    });
  });

  it("a verified token can use documents within its scopes", async () => {
    const token = await sign({ scope: "docs:read" });
    const list = await fetch(`${tg.url}/api/v1/documents`, { headers: { authorization: `Bearer ${token}` } });
    expect(list.status).toBe(200);
    const create = await fetch(`${tg.url}/api/v1/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "x", markdown: "x" }),
    });
    expect(create.status).toBe(403);
  });

  it("a token accepted while within the clock skew after its exp is refused once past it", async () => {
    // exp JWT_CLOCK_SKEW_S − 3 s ago: still accepted (the issuer's clock may be behind ours), and
    // never remembered past its exp; 5 s later it is beyond the skew.
    const token = await sign({ scope: "docs:read" }, { exp: Math.floor(Date.now() / 1000) - (JWT_CLOCK_SKEW_S - 3) });
    const headers = { authorization: `Bearer ${token}` };
    expect((await fetch(`${tg.url}/api/v1/documents`, { headers })).status).toBe(200);
    expect((await fetch(`${tg.url}/api/v1/documents`, { headers })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect((await fetch(`${tg.url}/api/v1/documents`, { headers })).status).toBe(401);
  });

  const rejected: [string, () => Promise<string>][] = [
    ["expired beyond the clock skew", () => sign({}, { exp: Math.floor(Date.now() / 1000) - JWT_CLOCK_SKEW_S - 60 })],
    ["not yet valid", () => sign({}, { nbf: Math.floor(Date.now() / 1000) + 600 })],
    ["wrong issuer", () => sign({}, { iss: "https://evil.test/" })],
    ["wrong audience", () => sign({}, { aud: "someone-else" })],
    ["bad signature", () => sign({}, { key: "another-secret-that-is-also-32-characters-long" })],
    [
      "alg none",
      async () =>
        `${b64({ alg: "none", typ: "JWT" })}.${b64({ sub: "jwt-user", iss: issuer, aud: audience, exp: Math.floor(Date.now() / 1000) + 300 })}.`,
    ],
    ["garbage", async () => "not.a.jwt"],
  ];
  it.each(rejected)("%s → UNAUTHENTICATED on REST and GraphQL", async (_label, make) => {
    const token = await make();
    const rest = await fetch(`${tg.url}/api/v1/documents`, { headers: { authorization: `Bearer ${token}` } });
    expect(rest.status).toBe(401);
    expect(await rest.json()).toMatchObject({ error: { code: "UNAUTHENTICATED" } });
    const { body } = await viewer(token);
    expect(body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });
});

describe("JWKS access tokens with key rotation", () => {
  let tg: TestGateway;
  let jwksServer: Server;
  let keys: JWK[] = [];
  let fetches = 0;

  beforeAll(async () => {
    jwksServer = createServer((_req, res) => {
      fetches++;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ keys }));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, "127.0.0.1", resolve));
    const { port } = jwksServer.address() as AddressInfo;
    tg = await startTestGateway({ JWT_JWKS_URL: `http://127.0.0.1:${port}/jwks.json`, JWT_ISSUER: issuer, JWT_JWKS_COOLDOWN_MS: "0" });
  });
  afterAll(async () => {
    await tg.close();
    await new Promise((resolve) => jwksServer.close(resolve));
  });

  async function keyPair(kid: string) {
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" } };
  }
  const signWith = (pair: Awaited<ReturnType<typeof keyPair>>) =>
    new SignJWT({ scope: "docs:read" })
      .setProtectedHeader({ alg: "ES256", kid: pair.kid })
      .setSubject("rotating")
      .setIssuer(issuer)
      .setExpirationTime("5m")
      .sign(pair.privateKey);

  it("verifies with the published key, caches it, and picks up a rotated key", async () => {
    const first = await keyPair("k1");
    keys = [first.jwk];
    const call = async (token: string) =>
      (await fetch(`${tg.url}/api/v1/documents`, { headers: { authorization: `Bearer ${token}` } })).status;
    expect(await call(await signWith(first))).toBe(200);
    expect(await call(await signWith(first))).toBe(200);
    expect(fetches).toBe(1);

    const second = await keyPair("k2");
    keys = [first.jwk, second.jwk];
    expect(await call(await signWith(second))).toBe(200);
    expect(fetches).toBe(2);

    // An HS256 token "signed" with the public key's bytes (algorithm confusion) is refused.
    const confused = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256", kid: "k1" })
      .setSubject("x")
      .setIssuer(issuer)
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode(JSON.stringify(first.jwk)));
    expect(await call(confused)).toBe(401);
  });
});
