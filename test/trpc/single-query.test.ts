// One query by GET is answered without resolveResponse (src/trpc/single-query.ts): which requests
// take that path, and that its answers are resolveResponse's, byte for byte once parsed, on success
// and on every kind of error. A request with one more query parameter (which tRPC ignores) goes to
// resolveResponse, so each case is asked both ways over real HTTP.
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppRouter } from "../../src/trpc/router.ts";
import { singleQuery } from "../../src/trpc/single-query.ts";
import type { TestGateway } from "../helpers/gateway.ts";
import { signAccessToken, startGatewayFor } from "../products/harness.ts";
import { startSandbox, type Sandbox } from "../sandbox/index.ts";

const input = (value: unknown) => `input=${encodeURIComponent(JSON.stringify(value))}`;

describe("the requests the single-query path takes", () => {
  it("a GET of one query, with an input or none", () => {
    expect(singleQuery("GET", "viewer", "", undefined)).toMatchObject({ path: "viewer", input: undefined });
    expect(singleQuery("GET", "messages.list", input({ limit: 2 }), undefined)).toMatchObject({ input: { limit: 2 } });
  });

  it("leaves everything else to resolveResponse", () => {
    const list = input({ limit: 2 });
    expect(singleQuery("POST", "messages.list", list, undefined)).toBeUndefined();
    expect(singleQuery("HEAD", "messages.list", list, undefined)).toBeUndefined();
    expect(singleQuery("GET", "messages.list", `batch=1&${input({ 0: { limit: 2 } })}`, undefined)).toBeUndefined();
    expect(singleQuery("GET", "messages.list", `${list}&other=1`, undefined)).toBeUndefined();
    expect(singleQuery("GET", "messages.list", list, "application/jsonl")).toBeUndefined();
    expect(singleQuery("GET", "messages.list,viewer", list, undefined)).toBeUndefined();
    expect(singleQuery("GET", "messages%2Elist", list, undefined)).toBeUndefined();
    expect(singleQuery("GET", "nope.list", list, undefined)).toBeUndefined();
    expect(singleQuery("GET", "toString", "", undefined)).toBeUndefined();
    expect(singleQuery("GET", "messages.send", input({ to: ["a@example.com"] }), undefined)).toBeUndefined();
    expect(singleQuery("GET", "messages.list", "input=%7B", undefined)).toBeUndefined();
    expect(singleQuery("GET", "", "", undefined)).toBeUndefined();
  });
});

describe("its answers are resolveResponse's", () => {
  let sandbox: Sandbox;
  let tg: TestGateway;
  let token: string;
  beforeAll(async () => {
    token = await signAccessToken({ sub: "ann" });
    sandbox = await startSandbox({ tokens: [token] });
    tg = await startGatewayFor(sandbox);
  });
  afterAll(async () => {
    await tg.close();
    await sandbox.close();
  });

  /** One call's answer as a client sees it. */
  const answer = async (url: string, authorization: string | undefined) => {
    const response = await fetch(url, { headers: authorization ? { authorization } : {} });
    return {
      status: response.status,
      contentType: response.headers.get("content-type"),
      vary: response.headers.get("vary"),
      body: (await response.json()) as Record<string, unknown>,
    };
  };
  /** The same call on this path and, with a parameter tRPC ignores, on resolveResponse. */
  const both = async (path: string, query: string, authorization: string | undefined) => {
    const fast = await answer(`${tg.url}/trpc/${path}${query ? `?${query}` : ""}`, authorization);
    const resolved = await answer(`${tg.url}/trpc/${path}?${query ? `${query}&` : ""}via=resolveResponse`, authorization);
    expect(fast).toEqual(resolved);
    return fast;
  };

  it("on success", async () => {
    const viewer = await both("viewer", "", `Bearer ${token}`);
    expect(viewer).toMatchObject({ status: 200, contentType: "application/json", vary: "trpc-accept, accept, Accept-Encoding" });
    expect(viewer.body).toMatchObject({ result: { data: { id: "ann" } } });
    const messages = await both("messages.list", input({ limit: 2 }), `Bearer ${token}`);
    expect(messages.status).toBe(200);
    expect((messages.body["result"] as { data: { data: unknown[] } }).data.data).toHaveLength(2);
  });

  it("on errors: no credential, bad input, not found, wrong scope, wrong credential kind", async () => {
    const unauthenticated = await both("messages.list", input({ limit: 2 }), undefined);
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body).toMatchObject({ error: { data: { code: "UNAUTHORIZED", gatewayCode: "UNAUTHENTICATED" } } });

    const badInput = await both("messages.list", input({ limit: -5 }), `Bearer ${token}`);
    expect(badInput.status).toBe(400);
    expect(badInput.body).toMatchObject({ error: { data: { gatewayCode: "BAD_USER_INPUT" } } });

    const key = await tg.key({ user: "ann", scopes: ["docs:read"] });
    const missing = await both("documents.read", input({ id: "doc_missing" }), `Bearer ${key}`);
    expect(missing.status).toBe(404);

    const writeOnly = await tg.key({ user: "ann", scopes: ["docs:write"] });
    const forbidden = await both("documents.list", "", `Bearer ${writeOnly}`);
    expect(forbidden.status).toBe(403);

    // Product operations need an access token, not a personal API key.
    const withKey = await both("messages.list", input({ limit: 2 }), `Bearer ${key}`);
    expect(withKey.status).toBeGreaterThanOrEqual(400);
  });

  it("compressed as resolveResponse's answers are: the same encoding, Vary and body", async () => {
    const ask = async (query: string, encoding: string) => {
      const response = await fetch(`${tg.url}/trpc/messages.list?${query}`, {
        headers: { authorization: `Bearer ${token}`, "accept-encoding": encoding },
      });
      return {
        status: response.status,
        encoding: response.headers.get("content-encoding"),
        vary: response.headers.get("vary"),
        body: (await response.json()) as unknown, // fetch decodes br and gzip
      };
    };
    const large = input({ limit: 20 }); // over the compression threshold
    for (const encoding of ["gzip", "br", "identity"]) {
      const fast = await ask(large, encoding);
      expect(fast).toEqual(await ask(`${large}&via=resolveResponse`, encoding));
      expect(fast.encoding).toBe(encoding === "identity" ? null : encoding);
    }
    const small = input({ limit: 1 });
    const fast = await ask(small, "gzip");
    expect(fast).toEqual(await ask(`${small}&via=resolveResponse`, "gzip"));
  });

  it("a real @trpc/client without batching gets data and TRPCClientErrors", async () => {
    const client = (authorization: string | undefined) =>
      createTRPCClient<AppRouter>({
        links: [httpLink({ url: `${tg.url}/trpc`, headers: () => (authorization ? { authorization } : {}) })],
      });
    expect((await client(`Bearer ${token}`).messages.list.query({ limit: 2 })).data).toHaveLength(2);
    const error = await client(undefined)
      .viewer.query()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data).toMatchObject({ gatewayCode: "UNAUTHENTICATED", httpStatus: 401 });
  });
});
