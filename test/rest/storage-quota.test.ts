// STORAGE_QUOTA_MB over REST (docs/configuration.md "Stored content and the storage quota"): a
// real gateway with a 1 MiB quota. A create that would pass it is 413 PAYLOAD_TOO_LARGE naming
// the variable, with the limit and the usage, and stores nothing; renames still work, purging
// gives room back; /metrics shows the quota and counts the refusals, with no per-user label. Two
// large spreadsheet creates racing on one Idempotency-Key (the store writes a large workbook's
// blobs before naming it) leave one workbook, and purging it gives every byte back.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateMarkdown } from "../fixtures/gen-markdown.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

const MiB = 1024 * 1024;

describe("STORAGE_QUOTA_MB over REST", () => {
  let tg: TestGateway;
  let auth: Record<string, string>;
  beforeAll(async () => {
    tg = await startTestGateway({ STORAGE_QUOTA_MB: "1" });
    auth = { authorization: `Bearer ${await tg.key({ user: "quota-user" })}`, "content-type": "application/json" };
  });
  afterAll(() => tg.close());

  const create = (name: string, markdown: string) =>
    fetch(`${tg.url}/api/v1/documents`, { method: "POST", headers: auth, body: JSON.stringify({ name, markdown }) });
  const metric = async (name: string) => {
    const text = await (await fetch(`${tg.url}/metrics`)).text();
    const line = text.split("\n").find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
    return line;
  };

  it("a create past the quota is 413 naming STORAGE_QUOTA_MB and stores nothing; renames and purges still work", async () => {
    expect(await metric("gateway_storage_quota_bytes")).toBe(`gateway_storage_quota_bytes ${MiB}`);
    expect(await metric("gateway_storage_quota_exceeded_total")).toBe("gateway_storage_quota_exceeded_total 0");
    const markdown = generateMarkdown(300_000, 7);
    const first = await create("First", markdown);
    expect(first.status).toBe(201);
    const record = (await first.json()) as { id: string };

    const refused = await create("Second", generateMarkdown(300_000, 8));
    expect(refused.status).toBe(413);
    const body = (await refused.json()) as { error: { code: string; message: string; details: { limit: number; usage: number } } };
    expect(body.error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(body.error.message).toMatch(/STORAGE_QUOTA_MB/);
    expect(body.error.details.limit).toBe(MiB);
    expect(body.error.details.usage).toBeGreaterThan(600_000);
    expect(await metric("gateway_storage_quota_exceeded_total")).toBe("gateway_storage_quota_exceeded_total 1");
    const listed = (await (await fetch(`${tg.url}/api/v1/documents`, { headers: auth })).json()) as { documents: { id: string }[] };
    expect(listed.documents.map((d) => d.id)).toEqual([record.id]);

    // A rename adds nothing: fine even near the quota. Purging the first document makes room.
    const renamed = await fetch(`${tg.url}/api/v1/documents/${record.id}`, {
      method: "PATCH",
      headers: auth,
      body: JSON.stringify({ name: "Renamed" }),
    });
    expect(renamed.status).toBe(200);
    expect((await fetch(`${tg.url}/api/v1/documents/${record.id}`, { method: "DELETE", headers: auth })).status).toBe(204);
    expect((await fetch(`${tg.url}/api/v1/trash/${record.id}`, { method: "DELETE", headers: auth })).status).toBe(204);
    expect((await create("Second", generateMarkdown(300_000, 8))).status).toBe(201);
  });

  it("two large spreadsheet creates racing on one Idempotency-Key make one workbook; purging it leaves nothing counted", async () => {
    const headers = {
      ...auth,
      authorization: `Bearer ${await tg.key({ user: "sheets-quota-user", scopes: ["docs:write", "sheets:write"] })}`,
      "idempotency-key": "race-1",
    };
    // 20,000 rows: hundreds of tiles, so the store writes them ahead of the transaction that names the workbook.
    const sheet = (offset: number) => ({ name: "Sheet1", values: Array.from({ length: 20_000 }, (_, r) => [r + offset]) });
    const post = (offset: number) =>
      fetch(`${tg.url}/api/v1/spreadsheets`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Race", sheets: [sheet(offset)] }),
      });
    const answers = await Promise.all([post(0), post(1)]);
    expect(answers.map((answer) => answer.status).every((status) => status === 200 || status === 201)).toBe(true);
    const [first, second] = (await Promise.all(answers.map((answer) => answer.json()))) as { id: string }[];
    expect(second!.id).toBe(first!.id);
    const { id } = first!;
    expect((await fetch(`${tg.url}/api/v1/spreadsheets/${id}`, { method: "DELETE", headers })).status).toBe(204);
    expect((await fetch(`${tg.url}/api/v1/trash/${id}`, { method: "DELETE", headers })).status).toBe(204);
    // Whatever the losing create wrote was collected: the owner's usage is back to nothing, as a
    // refused create past the quota says (random text, so its tiles do not compress below 1 MiB).
    const noise = Array.from({ length: 30_000 }, () => [randomBytes(30).toString("base64"), randomBytes(30).toString("base64")]);
    const refused = await fetch(`${tg.url}/api/v1/spreadsheets`, {
      method: "POST",
      headers: { ...headers, "idempotency-key": "race-2" },
      body: JSON.stringify({ name: "Noise", sheets: [{ name: "Sheet1", values: noise }] }),
    });
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { error: { details: { usage: number } } }).error.details.usage).toBe(0);
  });
});
