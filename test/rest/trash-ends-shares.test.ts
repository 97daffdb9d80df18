// Issue 23 finding 6 through the REST API: deleting a document ends its share links at once and
// for good. While it is in the trash the link is 404; restored, the old link stays 404 and is not
// listed; a new share works.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

describe("the trash ends share links", () => {
  let tg: TestGateway;
  let auth: Record<string, string>;
  beforeAll(async () => {
    tg = await startTestGateway();
    auth = { authorization: `Bearer ${await tg.key({ user: "sharer" })}`, "content-type": "application/json" };
  });
  afterAll(() => tg.close());

  it("trash, restore: the old link is 404 and not listed; sharing again works", async () => {
    const created = await fetch(`${tg.url}/api/v1/documents`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "Shared", markdown: "Shared text." }),
    });
    const { id } = (await created.json()) as { id: string };
    const doc = `${tg.url}/api/v1/documents/${id}`;
    const share = (await (await fetch(`${doc}/shares`, { method: "POST", headers: auth, body: "{}" })).json()) as { url: string };
    expect((await fetch(`${tg.url}${share.url}`)).status).toBe(200);

    expect((await fetch(doc, { method: "DELETE", headers: auth })).status).toBe(204);
    expect((await fetch(`${tg.url}${share.url}`)).status).toBe(404);
    expect((await fetch(`${tg.url}${share.url}/content`)).status).toBe(404);

    const restored = await fetch(`${tg.url}/api/v1/trash/${id}/restore`, { method: "POST", headers: auth });
    expect(restored.status).toBe(200);
    expect((await fetch(`${tg.url}${share.url}`)).status).toBe(404);
    expect((await fetch(`${tg.url}${share.url}/content`)).status).toBe(404);
    expect(await (await fetch(`${doc}/shares`, { headers: auth })).json()).toEqual({ shares: [] });

    const again = (await (await fetch(`${doc}/shares`, { method: "POST", headers: auth, body: "{}" })).json()) as { url: string };
    expect(again.url).not.toBe(share.url);
    const read = await fetch(`${tg.url}${again.url}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { text: string }).text).toBe("Shared text.");
  });
});
