// Reads cut in the store (issue 23 finding 1), through the REST API: a read with maxChars asks the
// store for that many characters, never the whole text, for the document, any of its versions and
// a share link; the body still reports the whole length.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../src/store/types.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

describe("reads are cut in the store", () => {
  let tg: TestGateway;
  let auth: Record<string, string>;
  const asked: number[] = [];
  beforeAll(async () => {
    tg = await startTestGateway();
    auth = { authorization: `Bearer ${await tg.key({ user: "cutter" })}`, "content-type": "application/json" };
    // Record the maxChars each read asks the store for.
    const store: Store = tg.gateway.store;
    const readText = store.documents.readText.bind(store);
    const readVersionText = store.documents.readVersionText.bind(store);
    store.documents.readText = async (ownerId, id, format, maxChars) => {
      asked.push(maxChars ?? -1);
      return readText(ownerId, id, format, maxChars);
    };
    store.documents.readVersionText = async (ownerId, id, version, format, maxChars) => {
      asked.push(maxChars ?? -1);
      return readVersionText(ownerId, id, version, format, maxChars);
    };
  });
  afterAll(() => tg.close());

  it("document, version and shared reads ask the store for maxChars and report the whole length", async () => {
    const markdown = `# Title\n\n${"word ".repeat(20_000)}`;
    const created = (await (
      await fetch(`${tg.url}/api/v1/documents`, { method: "POST", headers: auth, body: JSON.stringify({ name: "Long", markdown }) })
    ).json()) as { id: string; characters: number };
    const url = `${tg.url}/api/v1/documents/${created.id}`;
    await fetch(url, { method: "PATCH", headers: auth, body: JSON.stringify({ name: "Longer" }) });
    const share = (await (await fetch(`${url}/shares`, { method: "POST", headers: auth, body: "{}" })).json()) as { url: string };

    asked.length = 0;
    const reads = [
      await fetch(`${url}?maxChars=1`, { headers: auth }),
      await fetch(`${url}/versions/1?maxChars=1`, { headers: auth }),
      await fetch(`${url}/versions/2?maxChars=1&format=markdown`, { headers: auth }),
      await fetch(`${tg.url}${share.url}?maxChars=1`),
    ];
    const bodies = (await Promise.all(reads.map((r) => r.json()))) as { text: string; truncated: boolean; totalChars: number }[];
    expect(asked).toEqual([1, 1, 1, 1]);
    expect(bodies.map((b) => [b.text, b.truncated])).toEqual([
      ["T", true],
      ["T", true],
      ["#", true],
      ["T", true],
    ]);
    expect(bodies.map((b) => b.totalChars)).toEqual([created.characters, created.characters, markdown.length, created.characters]);
  });
});
