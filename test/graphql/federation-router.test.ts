// The gateway in a company graph (docs/federation.md): composed with a second subgraph (written
// here, adding `reviews` to Document) by @theguild/federation-composition, served by Hive Gateway
// started as its own process on an ephemeral port, and queried across both subgraphs with the
// caller's credential forwarded to each. A process test: it belongs to the system suite.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { composeServices } from "@theguild/federation-composition";
import { createYoga } from "graphql-yoga";
import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../helpers/process.ts";
import { graphqlFetch, signAccessToken, startProductsEnv, type ProductsEnv } from "../products/harness.ts";

const REVIEWS_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.6", import: ["@key", "@shareable"])
  type Document @key(fields: "id") {
    id: ID!
    reviews: [Review!]!
  }
  type Review {
    stars: Int!
    "The credential the reviews subgraph was called with (the router forwarded it)."
    seenAuthorization: String
  }
  type Query {
    "Documents picked by the reviews team: references the router resolves through the workspace gateway."
    picks: [Document]!
  }
`;

/** The second subgraph: reviews of documents by id, and picks that are document references. */
function startReviewsSubgraph(picks: () => string[]): Promise<{ url: string; server: Server }> {
  const schema = buildSubgraphSchema([
    {
      typeDefs: parse(REVIEWS_SDL),
      resolvers: {
        Query: { picks: () => picks().map((id) => ({ __typename: "Document", id })) },
        Document: {
          __resolveReference: (reference: { id: string }) => ({ id: reference.id }),
          reviews: (document: { id: string }, _args: unknown, context: { request: Request }) => [
            { stars: (document.id.length % 5) + 1, seenAuthorization: context.request.headers.get("authorization") },
          ],
        },
      } as never,
    },
  ]);
  const yoga = createYoga({ schema, logging: false, landingPage: false });
  const server = createServer((request, response) => void yoga(request, response));
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ url: `${addressOf(server)}/graphql`, server })));
}

function addressOf(server: Server): string {
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("not listening on TCP");
  return `http://127.0.0.1:${address.port}`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === "object" ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Hive Gateway as its own process on `port`, serving `supergraph`; resolves once it is ready. */
async function startHiveGateway(dir: string, port: number): Promise<{ child: ChildProcess; url: string; stop(): Promise<void> }> {
  // The caller's Authorization goes to every subgraph (Hive Gateway forwards no header by default).
  writeFileSync(
    join(dir, "gateway.config.mjs"),
    `export const gatewayConfig = {
  propagateHeaders: { fromClientToSubgraphs: ({ request }) => ({ authorization: request.headers.get("authorization") ?? undefined }) },
};\n`,
  );
  const bin = join(root, "node_modules/@graphql-hive/gateway/dist/bin.js");
  const args = [bin, "supergraph", join(dir, "supergraph.graphql"), "--host", "127.0.0.1", "--port", String(port)];
  const child = spawn(process.execPath, [...args, "--config-path", join(dir, "gateway.config.mjs")], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`hive-gateway exited (${child.exitCode}): ${output}`);
    const ready = await fetch(`${url}/readiness`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { child, url, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`hive-gateway was not ready within 60 s: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("a supergraph of this gateway and a reviews subgraph, served by Hive Gateway", () => {
  let env: ProductsEnv;
  let reviews: { url: string; server: Server };
  let router: { url: string; stop(): Promise<void> };
  let dir: string;
  let alice: string;
  let bob: string;
  const picked: string[] = [];

  beforeAll(async () => {
    const scope = "docs:read docs:write";
    alice = await signAccessToken({ sub: "alice", scope, tenant: "acme" });
    bob = await signAccessToken({ sub: "bob", scope, tenant: "acme" });
    env = await startProductsEnv({ extraApiTokens: [alice, bob] });
    reviews = await startReviewsSubgraph(() => picked);
    const { body } = await graphqlFetch(env.gateway.url, { query: "{ _service { sdl } }" }, { token: alice });
    const workspaceSdl = (body.data as { _service: { sdl: string } })._service.sdl;
    const composed = composeServices([
      { name: "workspace", typeDefs: parse(workspaceSdl), url: `${env.gateway.url}/graphql` },
      { name: "reviews", typeDefs: parse(REVIEWS_SDL), url: reviews.url },
    ]);
    if ("errors" in composed && composed.errors?.length) throw new Error(composed.errors.map((e) => e.message).join("\n"));
    dir = mkdtempSync(join(tmpdir(), "wg-supergraph-"));
    writeFileSync(join(dir, "supergraph.graphql"), (composed as { supergraphSdl: string }).supergraphSdl);
    router = await startHiveGateway(dir, await freePort());
  }, 120_000);

  afterAll(async () => {
    await router?.stop();
    await new Promise((resolve) => reviews?.server.close(resolve));
    await env?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function routed(query: string, token: string) {
    const response = await fetch(`${router.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };
  }

  it("one query answers with both subgraphs' fields, each called with the caller's credential", async () => {
    const create = await graphqlFetch(
      env.gateway.url,
      { query: `mutation { createDocument(input: { name: "Routed", markdown: "Across graphs" }) { id } }` },
      { token: alice },
    );
    const id = (create.body.data as { createDocument: { id: string } }).createDocument.id;
    const body = await routed(
      `{ viewer { id } documents(first: 5) { edges { node { id name reviews { stars seenAuthorization } } } } }`,
      alice,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      viewer: { id: "alice" },
      documents: {
        edges: [{ node: { id, name: "Routed", reviews: [{ stars: (id.length % 5) + 1, seenAuthorization: `Bearer ${alice}` }] } }],
      },
    });
  });

  it("references from the other subgraph resolve through _entities: the caller's documents, never another user's", async () => {
    const mine = await graphqlFetch(
      env.gateway.url,
      { query: `mutation { createDocument(input: { name: "Mine", markdown: "Text of mine" }) { id } }` },
      { token: alice },
    );
    const theirs = await graphqlFetch(
      env.gateway.url,
      { query: `mutation { createDocument(input: { name: "Theirs", markdown: "Text of theirs" }) { id } }` },
      { token: bob },
    );
    const mineId = (mine.body.data as { createDocument: { id: string } }).createDocument.id;
    const theirsId = (theirs.body.data as { createDocument: { id: string } }).createDocument.id;
    picked.splice(0, picked.length, mineId, theirsId);
    const body = await routed(`{ picks { id name text { text } reviews { seenAuthorization } } }`, alice);
    const picks = body.data?.["picks"] as ({ id: string; name: string } | null)[];
    expect(picks[0]).toEqual({
      id: mineId,
      name: "Mine",
      text: { text: "Text of mine" },
      reviews: [{ seenAuthorization: `Bearer ${alice}` }],
    });
    // Bob's document is no data for Alice: _entities answers null for it, so the router has no
    // name to give for a Document and nulls the item.
    expect(picks[1]).toBeNull();
    expect((body.errors as { path?: unknown[] }[] | undefined)?.map((e) => e.path)).toEqual([["picks", 1, "name"]]);
    expect(JSON.stringify(body)).not.toContain("Text of theirs");
  });
});
