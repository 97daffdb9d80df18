// A full render queue over HTTP: one render worker and no queue, so while one large document
// renders every other create is refused at once with 503 SERVICE_UNAVAILABLE + Retry-After, and
// nothing of a refused create is stored.
//
// Deterministic, not a race to win: each render of 400,000 characters keeps the only worker busy
// for hundreds of milliseconds, while all the concurrent requests reach the pool within a few; so
// of the requests in flight together, only the first to reach the pool can render, and the
// assertion holds for any interleaving in which they overlap at all.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DocumentList, DocumentSummary, DocumentText } from "../../src/contract/documents.ts";
import { generateMarkdown } from "../fixtures/gen-markdown.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

const CONCURRENT = 8;

let tg: TestGateway;
let auth: { authorization: string };
let markdown: string;

beforeAll(async () => {
  tg = await startTestGateway({ RENDER_WORKERS: "1", RENDER_QUEUE: "0" });
  auth = { authorization: `Bearer ${await tg.key({ user: "queue" })}` };
  // The largest document a caller may send (400,000 characters and a final newline).
  markdown = generateMarkdown(400_000, 5);
}, 60_000);
afterAll(() => tg.close());

const create = (name: string) =>
  fetch(`${tg.url}/api/v1/documents`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ name, markdown }),
  });

describe("RENDER_WORKERS=1, RENDER_QUEUE=0", () => {
  it("concurrent large creates: the overflow is 503 + Retry-After, every 201 is whole and readable, nothing else is stored", async () => {
    const responses = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => create(`burst ${i}`)));

    const created: DocumentSummary[] = [];
    let refused = 0;
    for (const response of responses) {
      if (response.status === 201) {
        created.push((await response.json()) as DocumentSummary);
        continue;
      }
      expect(response.status).toBe(503);
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.headers.get("x-request-id")).toBeTruthy();
      const body = (await response.json()) as unknown;
      expect(body).toEqual({ error: { code: "SERVICE_UNAVAILABLE", message: expect.any(String) } });
      refused++;
    }
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created.length + refused).toBe(CONCURRENT);

    // Every 201 is a whole document: its text and its .docx are both there and agree with the summary.
    for (const document of created) {
      const read = await fetch(`${tg.url}${document.url}?maxChars=1000000`, { headers: auth });
      expect(read.status).toBe(200);
      const text = (await read.json()) as DocumentText;
      expect(text).toMatchObject({ id: document.id, truncated: false, totalChars: document.characters });
      const content = await fetch(`${tg.url}${document.downloadUrl}`, { headers: auth });
      expect(content.status).toBe(200);
      expect((await content.arrayBuffer()).byteLength).toBe(document.sizeBytes);
    }

    // A refused create left nothing behind: the caller's documents are exactly the 201s.
    const list = (await (await fetch(`${tg.url}/api/v1/documents?limit=100`, { headers: auth })).json()) as DocumentList;
    expect(list.documents.map((d) => d.id).sort()).toEqual(created.map((d) => d.id).sort());

    // Operators see the refusals.
    const metrics = await (await fetch(`${tg.url}/metrics`)).text();
    expect(Number(/^gateway_render_queue_rejected_total (\d+)/m.exec(metrics)?.[1])).toBe(refused);

    // And the worker takes work again once it is free.
    expect((await create("after the burst")).status).toBe(201);
  }, 60_000);
});
