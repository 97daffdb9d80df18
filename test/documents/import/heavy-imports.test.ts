// Issue 23, finding 4: two uploads whose document.xml inflates to 190 MB, beside another user's
// creates every second, through a real gateway. Every upload is answered (refused early with a
// 413 that says which bound, since no real document needs that much XML or text), every create
// succeeds, and the process's RSS (the gateway and its worker threads run in this process) stays
// under 700 MB. The creates' latency is a time, so bench/docx-import.ts measures it (p95 ≤ 2 s).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../../helpers/gateway.ts";
import { runHeavyImports } from "./heavy-scenario.ts";

let tg: TestGateway;
beforeAll(async () => {
  tg = await startTestGateway();
});
afterAll(async () => {
  await tg?.close();
});

describe("heavy .docx imports beside other users' creates", () => {
  it("two 190 MB-inflating uploads are refused early with 413; every create of the other user succeeds; RSS stays under 700 MB", async () => {
    const keys = { uploader: await tg.key({ user: "heavy-uploader" }), other: await tg.key({ user: "bystander" }) };
    const result = await runHeavyImports(tg.url, keys, { uploads: 2, seconds: 8 });
    for (const upload of result.uploads) {
      expect({ status: upload.status, code: upload.code }).toEqual({ status: 413, code: "PAYLOAD_TOO_LARGE" });
      expect(["docx_text", "docx_elements", "xml_bytes"]).toContain(upload.reason);
    }
    expect(result.creates.map((c) => c.status)).toEqual(result.creates.map(() => 201));
    expect(result.peakRssMb).toBeLessThanOrEqual(700);
    const list = await fetch(`${tg.url}/api/v1/documents`, { headers: { authorization: `Bearer ${keys.uploader}` } });
    expect(((await list.json()) as { documents: unknown[] }).documents).toEqual([]);
  }, 120_000);
});
