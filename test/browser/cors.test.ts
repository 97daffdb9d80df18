// CORS as a browser sees it: a page on an allowed origin (http://localhost:<port>, the gateway
// being http://127.0.0.1:<port>, so every call is cross-origin) edits, reads conditionally and
// deletes a document with If-Match / If-None-Match, which makes Chromium send a real preflight
// first, and reads back the headers it needs (ETag). Issue 23: the preflight allowed only GET,
// POST and OPTIONS, without If-Match. Skipped without Chromium, as test/browser/graphiql.test.ts.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireProgram } from "../helpers/external.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

const executablePath = requireProgram("chromium", {
  envVar: "CHROMIUM_PATH",
  install: "apt-get install -y chromium",
  purpose: "the CORS browser test (test/browser/cors.test.ts)",
});

interface Answer {
  status: number;
  etag: string | null;
  requestId: string | null;
}

/** Runs fetch in the page (so under the page's origin and CORS) and returns what a script can read of the answer. */
async function pageFetch(
  page: Page,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<Answer> {
  return page.evaluate(
    async ([target, options]) => {
      const response = await fetch(target, options);
      await response.arrayBuffer();
      return { status: response.status, etag: response.headers.get("etag"), requestId: response.headers.get("x-request-id") };
    },
    [url, init] as const,
  );
}

describe.skipIf(!executablePath)("CORS in Chromium", () => {
  let pages: Server;
  let origin: string;
  let tg: TestGateway;
  let browser: Browser;
  const lines: string[] = [];

  beforeAll(async () => {
    pages = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>app</title>"));
    await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
    origin = `http://localhost:${(pages.address() as AddressInfo).port}`;
    const log = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
        done();
      },
    });
    tg = await startTestGateway({ CORS_ORIGINS: origin, LOG_LEVEL: "info" }, { logTo: log });
    browser = await chromium.launch({ executablePath: executablePath!, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
  });
  afterAll(async () => {
    await browser?.close();
    await tg?.close();
    await new Promise((resolve) => pages?.close(resolve));
  });

  it("a page on the allowed origin edits with If-Match (after a preflight), reads with If-None-Match and deletes", async () => {
    const key = await tg.key({ user: "browser-cors" });
    const created = await fetch(`${tg.url}/api/v1/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "cors", markdown: "# one" }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const url = `${tg.url}/api/v1/documents/${id}`;

    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    const auth = { authorization: `Bearer ${key}` };
    const put = await pageFetch(page, url, {
      method: "PUT",
      headers: { ...auth, "content-type": "application/json", "if-match": '"v1"' },
      body: JSON.stringify({ markdown: "# two" }),
    });
    expect(put).toMatchObject({ status: 200, etag: '"v2"' });
    expect(put.requestId).toBeTruthy();
    // Chromium asked first: the gateway logged the preflight for this path.
    const preflights = lines.map((line) => JSON.parse(line) as { msg?: string; method?: string; path?: string });
    expect(preflights.some((l) => l.msg === "request" && l.method === "OPTIONS" && l.path === `/api/v1/documents/${id}`)).toBe(true);

    // A stale If-Match is a 412 the page can read; a matching If-None-Match a 304.
    const stale = await pageFetch(page, url, {
      method: "PUT",
      headers: { ...auth, "content-type": "application/json", "if-match": '"v1"' },
      body: JSON.stringify({ name: "late" }),
    });
    expect(stale.status).toBe(412);
    const notModified = await pageFetch(page, url, { method: "GET", headers: { ...auth, "if-none-match": '"v2"' } });
    expect(notModified.status).toBe(304);

    const removed = await pageFetch(page, url, { method: "DELETE", headers: { ...auth, "if-match": '"v2"' } });
    expect(removed.status).toBe(204);
    await page.close();
  });

  it("a page on another origin cannot make the same call: the preflight is refused", async () => {
    const page = await browser.newPage();
    // 127.0.0.1:<pages port> is not localhost:<pages port>: another origin, not listed.
    await page.goto(`http://127.0.0.1:${(pages.address() as AddressInfo).port}/`);
    const outcome = await page.evaluate(async (target) => {
      try {
        await fetch(target, { method: "DELETE", headers: { authorization: "Bearer x", "if-match": '"v1"' } });
        return "answered";
      } catch (error) {
        return (error as Error).name;
      }
    }, `${tg.url}/api/v1/documents/doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A`);
    expect(outcome).toBe("TypeError");
    await page.close();
  });
});
