// A spreadsheet create's large JSON body is parsed, validated and built in a spreadsheets worker,
// never on the event loop (issue 37 F6; src/services/spreadsheets/create-body.ts), through real
// HTTP: while the gateway takes a 100,000-formula chain, no JSON.parse or JSON.stringify on its
// thread handles more than a small part of the body; bad bodies are answered exactly as small ones
// are; an idempotency key replays as before. The body's bytes are moved to the worker, not copied
// on the event loop; an upload's are read by the worker from its temp file.
import { Worker } from "node:worker_threads";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LARGE_JSON_BODY_BYTES } from "../../src/core/json-body.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

let tg: TestGateway;
let auth: string;

beforeAll(async () => {
  tg = await startTestGateway({ RETENTION_INTERVAL_MS: "0" });
  auth = `Bearer ${await tg.key({ scopes: ["sheets:read", "sheets:write"] })}`;
});
afterAll(() => tg.close());

/** The longest text JSON.parse read and JSON.stringify wrote on this thread (the gateway's) while watched. */
const seen = { parsed: 0, written: 0 };
const { parse, stringify } = JSON;
function watchJson(): void {
  seen.parsed = 0;
  seen.written = 0;
  JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
    seen.parsed = Math.max(seen.parsed, String(text).length);
    return parse(text, reviver);
  }) as typeof JSON.parse;
  JSON.stringify = ((...args: Parameters<typeof stringify>) => {
    const text = stringify(...args);
    if (typeof text === "string") seen.written = Math.max(seen.written, text.length);
    return text;
  }) as typeof JSON.stringify;
}
const unwatch = () => {
  JSON.parse = parse;
  JSON.stringify = stringify;
};
afterEach(unwatch);

async function create(body: string, headers: Record<string, string> = {}) {
  watchJson();
  const response = await fetch(`${tg.url}/api/v1/spreadsheets`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json", ...headers },
    body,
  });
  const text = await response.text();
  unwatch();
  return { status: response.status, headers: response.headers, body: parse(text) as Record<string, unknown> };
}

const chain = (rows: number) =>
  stringify({ name: "chain", sheets: [{ name: "Sheet1", values: Array.from({ length: rows }, (_, r) => [r === 0 ? 1 : `=A${r}+1`]) }] });

/** The error answer without what differs per request. */
const errorOf = (body: Record<string, unknown>) => {
  const { requestId: _requestId, ...error } = body["error"] as Record<string, unknown>;
  return error;
};

describe("a large create body", () => {
  it("a 100,000-formula chain: created, computed, and its body never parsed or written whole on the gateway's thread", async () => {
    const body = chain(100_000);
    expect(body.length).toBeGreaterThan(LARGE_JSON_BODY_BYTES);
    const made = await create(body);
    expect(made.status).toBe(201);
    expect(seen.parsed).toBeLessThan(body.length / 10);
    expect(seen.written).toBeLessThan(body.length / 10);
    const read = await fetch(`${tg.url}/api/v1/spreadsheets/${made.body["id"] as string}/values/A100000`, {
      headers: { authorization: auth },
    });
    expect(((await read.json()) as { values: unknown[][] }).values).toEqual([[100_000]]);
  });

  it("bad bodies answer as small ones do: not JSON, not an object, a bad cell, an unknown field, a wrong media type", async () => {
    const padding = Array.from({ length: 40_000 }, (_, r) => [r]);
    const cases: [small: string, large: string, headers?: Record<string, string>][] = [
      ['{"name": "x", "sheets": [', `{"name": "x", "sheets": [{"name": "S", "values": ${stringify(padding)}}`],
      ["[1, 2]", stringify([padding])],
      [
        stringify({ name: "x", sheets: [{ name: "S", values: [[1], [{ bad: true }]] }] }),
        stringify({ name: "x", sheets: [{ name: "S", values: [[1], [{ bad: true }], ...padding] }] }),
      ],
      [
        stringify({ nmae: "x", sheets: [{ name: "S", values: [[1]] }] }),
        stringify({ nmae: "x", sheets: [{ name: "S", values: padding }] }),
      ],
      [stringify({ name: "x" }), stringify({ name: "x", sheets: [{ name: "S", values: padding }] }), { "content-type": "text/plain" }],
    ];
    for (const [small, large, headers] of cases) {
      expect(large.length).toBeGreaterThan(LARGE_JSON_BODY_BYTES);
      const [a, b] = [await create(small, headers), await create(large, headers)];
      expect(b.status).toBe(a.status);
      expect(a.status).toBeGreaterThanOrEqual(400);
      expect(errorOf(b.body)).toEqual(errorOf(a.body));
    }
  });

  it("an idempotency key replays the first create, whatever the body says (docs/api.md), from a large body or a small one", async () => {
    const body = chain(30_000);
    const first = await create(body, { "idempotency-key": "large-1" });
    const again = await create(body, { "idempotency-key": "large-1" });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body["id"]).toBe(first.body["id"]);
    const small = await create(chain(3), { "idempotency-key": "large-1" });
    expect(small.headers.get("idempotent-replayed")).toBe("true");
    expect(small.body["id"]).toBe(first.body["id"]);
  });

  it("the bytes of a large body are moved to the worker, not copied; an uploaded file is read by the worker from its temp file", async () => {
    const moved: number[] = [];
    const jobs: { json?: string; bytes?: Uint8Array }[] = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, transfer?: readonly unknown[]) {
      for (const item of transfer ?? []) if (item instanceof ArrayBuffer) moved.push(item.byteLength);
      if ((message as { type?: string }).type === "job") jobs.push(message as (typeof jobs)[number]);
      return post.call(this, message, transfer as never);
    };
    try {
      const body = chain(30_000);
      expect((await create(body)).status).toBe(201);
      expect(moved).toContain(Buffer.byteLength(body));
      const csv = Array.from({ length: 50_000 }, (_, r) => `${r},row ${r}`).join("\n");
      const form = new FormData();
      form.append("file", new Blob([csv], { type: "text/csv" }), "rows.csv");
      const uploaded = await fetch(`${tg.url}/api/v1/spreadsheets`, { method: "POST", headers: { authorization: auth }, body: form });
      expect(uploaded.status).toBe(201);
      // Neither moved nor copied: the job names the spooled file, which the worker reads.
      expect(moved).not.toContain(Buffer.byteLength(csv));
      const job = jobs
        .map((message) => ({ ...(JSON.parse(message.json ?? "{}") as { kind?: string; path?: string }), bytes: message.bytes }))
        .at(-1);
      expect(job).toMatchObject({ kind: "import", path: expect.any(String), bytes: undefined });
    } finally {
      Worker.prototype.postMessage = post;
    }
  });
});
