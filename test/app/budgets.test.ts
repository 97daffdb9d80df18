// The application's weight (docs/app.md "Built light"): every page loads one script of the
// gateway's own and no other, the list's at most 60 KB gzipped, any page's at most 150 KB; the
// stylesheet and scripts are served with their hash in the name, cached for a year.
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAppAssets } from "../../src/app/assets.ts";
import { clientEntries } from "../../src/app/bundle.ts";
import { AppClient } from "../helpers/app.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

const KB = 1024;
let tg: TestGateway;
let client: AppClient;

beforeAll(async () => {
  tg = await startTestGateway();
  client = new AppClient(tg.url);
  await client.signInWithKey(await tg.key({ scopes: ["docs:read", "docs:write", "sheets:read", "sheets:write"] }));
});
afterAll(() => tg.close());

/** The scripts a page loads, each fetched as a browser would, gzipped. */
async function scriptsOf(path: string, as = client): Promise<{ src: string; gzipBytes: number; cache: string | null }[]> {
  const page = await as.get(path);
  expect(page.status, path).toBe(200);
  const sources = [...page.text.matchAll(/<script\b[^>]*>/g)].map((m) => /src="([^"]+)"/.exec(m[0])?.[1]);
  expect(
    sources.every((src) => src?.startsWith("/app/assets/")),
    `${path}: only the gateway's own script files`,
  ).toBe(true);
  return Promise.all(
    sources.map(async (src) => {
      const response = await as.get(src!);
      return { src: src!, gzipBytes: gzipSync(response.text).byteLength, cache: response.headers.get("cache-control") };
    }),
  );
}

describe("budgets", () => {
  it("the list page's JavaScript is at most 60 KB gzipped, every page's at most 150 KB, each page one script", async () => {
    const list = await client.get("/app");
    const created = await client.post("/app/documents", { _csrf: /name="_csrf" value="([^"]+)"/.exec(list.text)![1]! });
    const editor = created.location!;
    const listScripts = await scriptsOf("/app");
    expect(listScripts).toHaveLength(1);
    expect(listScripts[0]!.gzipBytes).toBeLessThanOrEqual(60 * KB);
    expect(listScripts[0]!.cache).toContain("immutable");
    expect(await scriptsOf("/app/sign-in", new AppClient(tg.url))).toHaveLength(1);
    for (const path of ["/app/trash", editor]) {
      const scripts = await scriptsOf(path);
      expect(scripts, path).toHaveLength(1);
      expect(
        scripts.reduce((sum, s) => sum + s.gzipBytes, 0),
        path,
      ).toBeLessThanOrEqual(150 * KB);
    }
    const assets = await loadAppAssets();
    for (const entry of clientEntries) expect(assets.of(entry).gzipBytes, entry).toBeLessThanOrEqual(150 * KB);
  });
});
