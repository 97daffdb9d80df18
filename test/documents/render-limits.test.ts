// The render limits over real HTTP (docs/rendering-limits.md): a render past its deadline or its
// heap, a caller that hangs up, one user's burst beside another user's tiny create, a render that waits
// too long for a worker, nesting past the parser's limit, and lone surrogates in a name on every
// surface. Nothing here asserts a duration: ordering and outcomes only.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { warmupMarkdown } from "../../src/documents/pool/warmup.ts";
import type { DocumentList, DocumentSummary, DocumentText } from "../../src/contract/documents.ts";
import { generateMarkdown } from "../fixtures/gen-markdown.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { bearer } from "./driver.ts";
import { graphqlDriver } from "./graphql-driver.ts";
import { restDriver } from "./rest-driver.ts";
import { trpcDriver } from "./trpc-driver.ts";

/** The attacker's table: 200 columns × 990 rows, just under the 400,000-character limit. */
const table = (() => {
  const row = `|${"a|".repeat(200)}\n`;
  return `${row}|${"-|".repeat(200)}\n${row.repeat(990)}`;
})();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One sample of a metric from /metrics, 0 when absent. */
async function metric(tg: TestGateway, name: string, labels = ""): Promise<number> {
  const text = await (await fetch(`${tg.url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name}${labels} `));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}

/** Polls /metrics until `predicate` holds for the metric (the pool's state is only visible there). */
async function until(tg: TestGateway, name: string, labels: string, predicate: (value: number) => boolean): Promise<number> {
  for (;;) {
    const value = await metric(tg, name, labels);
    if (predicate(value)) return value;
    await sleep(20);
  }
}

function create(tg: TestGateway, auth: string, body: { name: string; markdown: string }, signal?: AbortSignal): Promise<Response> {
  return fetch(`${tg.url}/api/v1/documents`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json" },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

async function documentsOf(tg: TestGateway, auth: string): Promise<DocumentSummary[]> {
  const response = await fetch(`${tg.url}/api/v1/documents?limit=100`, { headers: { authorization: auth } });
  return ((await response.json()) as DocumentList).documents;
}

describe("one render worker, default limits", () => {
  let tg: TestGateway;
  let heavy: string;
  beforeAll(async () => {
    // Ordering is what is tested here, not the bounds: on a loaded machine a heavy render may take
    // seconds, and a create waiting behind two of them must not be refused for it.
    tg = await startTestGateway({ RENDER_WORKERS: "1", RENDER_QUEUE_TIMEOUT_MS: "0", RENDER_TIMEOUT_MS: "0" });
    // ~100,000 characters of every construct the renderer handles.
    heavy = warmupMarkdown(100);
  });
  afterAll(() => tg.close());

  it("another user's tiny create is served before the rest of one user's queued heavy creates", async () => {
    const alice = bearer(await tg.key({ user: "fair-alice" }));
    const bob = bearer(await tg.key({ user: "fair-bob" }));
    const finished: string[] = [];
    const track = (label: string, response: Promise<Response>) =>
      response.then(async (r) => {
        finished.push(label);
        expect(r.status, label).toBe(201);
        await r.arrayBuffer();
      });
    const heavies = [1, 2, 3].map((i) => track(`alice ${i}`, create(tg, alice, { name: `heavy ${i}`, markdown: heavy })));
    // alice's first render runs, her other two wait: only then does bob ask.
    await until(tg, "gateway_render_jobs", '{state="queued"}', (n) => n === 2);
    const tiny = track("bob", create(tg, bob, { name: "tiny", markdown: "# tiny" }));
    await Promise.all([...heavies, tiny]);
    expect(finished.indexOf("bob")).toBeLessThan(finished.indexOf("alice 3"));
    expect(finished.indexOf("bob")).toBeLessThan(finished.indexOf("alice 2"));
  });

  it("a caller that hangs up stops its running render: the worker is replaced and nothing is stored", async () => {
    const auth = bearer(await tg.key({ user: "hangs-up" }));
    // Nothing else running or waiting, so this create goes straight to the worker.
    await until(tg, "gateway_render_jobs", '{state="running"}', (n) => n === 0);
    await until(tg, "gateway_render_jobs", '{state="queued"}', (n) => n === 0);
    const before = await metric(tg, "gateway_render_events_total", '{event="cancelled-running"}');
    const controller = new AbortController();
    const abandoned = create(tg, auth, { name: "abandoned", markdown: table }, controller.signal).catch((e: unknown) => e);
    await until(tg, "gateway_render_jobs", '{state="running"}', (n) => n === 1);
    controller.abort();
    expect(await abandoned).toBeInstanceOf(Error);
    await until(tg, "gateway_render_events_total", '{event="cancelled-running"}', (n) => n === before + 1);
    expect(await metric(tg, "gateway_render_jobs", '{state="running"}')).toBe(0);
    expect(await documentsOf(tg, auth)).toEqual([]);
    // The replacement worker renders the next document.
    expect((await create(tg, auth, { name: "next", markdown: "# next" })).status).toBe(201);
  });

  it.each([
    ["a list 100,000 deep", `${"- ".repeat(100_000)}hello deep world`, "hello deep world"],
    ["a quote 100,000 deep", `${">".repeat(100_000)} quoted deep words`, "quoted deep words"],
  ])("%s keeps its words", async (label, markdown, words) => {
    const auth = bearer(await tg.key({ user: "deep" }));
    const response = await create(tg, auth, { name: label, markdown });
    expect(response.status).toBe(201);
    const document = (await response.json()) as DocumentSummary;
    const read = (await (await fetch(`${tg.url}${document.url}`, { headers: { authorization: auth } })).json()) as DocumentText;
    expect(read.text).toContain(words);
  });
});

describe("RENDER_TIMEOUT_MS", () => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway({ RENDER_WORKERS: "1", RENDER_TIMEOUT_MS: "50" });
  });
  afterAll(() => tg.close());

  it("a render past its deadline is 413 PAYLOAD_TOO_LARGE naming the budget, and nothing is stored", async () => {
    const auth = bearer(await tg.key({ user: "slow" }));
    const response = await create(tg, auth, { name: "the big table", markdown: table });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: { code: "PAYLOAD_TOO_LARGE", message: expect.stringMatching(/50 ms/), details: { reason: "render_timeout", limitMs: 50 } },
    });
    expect(await documentsOf(tg, auth)).toEqual([]);
    expect(await metric(tg, "gateway_render_events_total", '{event="timeout"}')).toBe(1);
    expect(await metric(tg, "gateway_render_jobs", '{state="running"}')).toBe(0);
  });
});

describe("RENDER_WORKER_MAX_MB", () => {
  let tg: TestGateway;
  beforeAll(async () => {
    // 24 MB, the least allowed: below what a 390,000-character document of mixed markdown needs
    // (about 32 MB since the renderer packs text from a template), with room for a fresh worker's
    // own modules (loaded through tsx from the sources, which alone passes 16 MB) and a note.
    tg = await startTestGateway({ RENDER_WORKERS: "1", RENDER_WORKER_MAX_MB: "24" });
  });
  afterAll(() => tg.close());

  it("a render that needs more heap is 413 PAYLOAD_TOO_LARGE for that create only; nothing is stored; a small one renders", async () => {
    const auth = bearer(await tg.key({ user: "hungry" }));
    const response = await create(tg, auth, { name: "the big document", markdown: generateMarkdown(390_000) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: { code: "PAYLOAD_TOO_LARGE", message: expect.stringMatching(/24 MB/), details: { reason: "render_memory", limitMb: 24 } },
    });
    expect(await documentsOf(tg, auth)).toEqual([]);
    expect(await metric(tg, "gateway_render_events_total", '{event="out-of-memory"}')).toBe(1);
    // The replacement worker has the same small heap, which a note fits in.
    expect((await create(tg, auth, { name: "note", markdown: "note" })).status).toBe(201);
  });
});

describe("RENDER_QUEUE_TIMEOUT_MS", () => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway({ RENDER_WORKERS: "1", RENDER_QUEUE_TIMEOUT_MS: "50" });
  });
  afterAll(() => tg.close());

  it("a create that waits too long for a worker is 503 SERVICE_UNAVAILABLE with Retry-After, like a full queue", async () => {
    const auth = bearer(await tg.key({ user: "waits" }));
    const controller = new AbortController();
    const running = create(tg, auth, { name: "running", markdown: table }, controller.signal).catch(() => undefined);
    await until(tg, "gateway_render_jobs", '{state="running"}', (n) => n === 1);
    const response = await create(tg, auth, { name: "waits", markdown: "# waits" });
    expect(response.status).toBe(503);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await response.json()).toEqual({
      error: { code: "SERVICE_UNAVAILABLE", message: expect.any(String), details: { reason: "render_queue_timeout", limitMs: 50 } },
    });
    controller.abort();
    await running;
    expect(await documentsOf(tg, auth)).toEqual([]);
  });
});

describe("a lone UTF-16 surrogate in a document name", () => {
  let tg: TestGateway;
  let auth: string;
  const name = "report \uD800 draft";
  beforeAll(async () => {
    tg = await startTestGateway({ RENDER_WORKERS: "1" });
    auth = bearer(await tg.key({ user: "surrogate" }));
  });
  afterAll(() => tg.close());

  it.each(["rest", "graphql", "trpc"] as const)("is BAD_USER_INPUT naming the field over %s", async (surface) => {
    const driver = { rest: restDriver, graphql: graphqlDriver, trpc: trpcDriver }[surface](tg.url);
    const outcome = await driver.create(auth, { name, markdown: "# x" });
    expect(outcome).toMatchObject({ ok: false, code: "BAD_USER_INPUT", message: expect.stringMatching(/name.*surrogate/) });
  });

  it("is BAD_USER_INPUT naming the field over MCP", async () => {
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${tg.url}/mcp`), { requestInit: { headers: { authorization: auth } } }),
    );
    const result = (await client.callTool({ name: "docs_create", arguments: { name, markdown: "# x" } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    await client.close();
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/^BAD_USER_INPUT: name.*surrogate/);
  });

  it("nothing was created, and a well-formed pair (an emoji) is still fine", async () => {
    expect(await documentsOf(tg, auth)).toEqual([]);
    const response = await create(tg, auth, { name: "report \uD83D\uDE00 draft", markdown: "# x" });
    expect(response.status).toBe(201);
    expect(((await response.json()) as DocumentSummary).name).toBe("report \uD83D\uDE00 draft");
  });
});
