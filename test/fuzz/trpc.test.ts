// tRPC fuzzing over raw HTTP: single calls and `?batch=1` batches of random procedures (real,
// misspelt, nested too deep), with inputs shaped like each procedure's and random ones, sent as
// GET query strings and POST bodies, sometimes malformed. Every error must carry
// data.gatewayCode, a known code; never INTERNAL; no 5xx but the upstream ones.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyValue, checkTrpcAnswer, expectCode, fuzzParams, nastyString, pct, startFuzzEnv, type FuzzEnv } from "./harness.ts";

let env: FuzzEnv;
beforeAll(async () => {
  env = await startFuzzEnv();
});
afterAll(() => env?.close());

const id = fc.oneof(fc.constantFrom("f1", "t1", "m1", "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A", "bt_intro30", "wf_onboard", "s1"), nastyString(20));
const when = fc.oneof(
  fc.date({ min: new Date("2026-01-01"), max: new Date("2027-01-01"), noInvalidDate: true }).map((d) => d.toISOString()),
  nastyString(10),
);
const email = fc.oneof(fc.constantFrom("a@example.com", "b@example.com"), nastyString(10));
const small = fc.oneof(fc.integer({ min: -2, max: 120 }), anyValue);

/** Inputs shaped like each procedure's (fields of the right names, values right or not). */
const shaped: Record<string, fc.Arbitrary<unknown>> = {
  viewer: fc.constant(undefined),
  "documents.list": fc.record({ query: nastyString(), limit: small, cursor: nastyString() }, { requiredKeys: [] }),
  "documents.read": fc.record({ id, maxChars: small }, { requiredKeys: [] }),
  "documents.get": fc.record({ id }, { requiredKeys: [] }),
  "documents.create": fc.record(
    { name: nastyString(), markdown: fc.oneof(fc.string({ maxLength: 300 }), anyValue), idempotencyKey: nastyString() },
    { requiredKeys: [] },
  ),
  "messages.list": fc.record({ folder: nastyString(), q: nastyString(), limit: small, cursor: nastyString() }, { requiredKeys: [] }),
  "messages.send": fc.record(
    { to: fc.array(email, { maxLength: 3 }), subject: nastyString(), body: nastyString(), threadId: id },
    { requiredKeys: [] },
  ),
  "messages.thread": fc.record({ id }, { requiredKeys: [] }),
  "messages.createDraft": fc.record(
    { threadId: id, body: nastyString(), generate: fc.record({ instructions: nastyString() }, { requiredKeys: [] }) },
    { requiredKeys: [] },
  ),
  "calendar.events": fc.record({ from: when, to: when, limit: small, cursor: nastyString() }, { requiredKeys: [] }),
  "bookings.create": fc.record(
    { bookingTypeId: id, start: when, attendee: fc.record({ name: nastyString(), email }, { requiredKeys: [] }) },
    { requiredKeys: [] },
  ),
  "files.get": fc.record({ id }, { requiredKeys: [] }),
  "files.upload": anyValue,
  "files.search": fc.record({ query: nastyString() }, { requiredKeys: [] }),
  "files.share": fc.record(
    {
      fileId: id,
      permission: fc.oneof(fc.constantFrom("view", "comment", "edit"), nastyString()),
      emails: fc.array(email, { maxLength: 2 }),
    },
    { requiredKeys: [] },
  ),
  "search.query": fc.record({ query: nastyString(), sources: fc.array(nastyString(10), { maxLength: 2 }) }, { requiredKeys: [] }),
  "search.chat": fc.record({ sessionId: id, message: nastyString() }, { requiredKeys: [] }),
  "meetings.create": fc.record(
    { title: nastyString(), startsAt: when, durationMinutes: small, attendees: fc.array(email, { maxLength: 2 }) },
    { requiredKeys: [] },
  ),
  "meetings.transcript": fc.record({ id }, { requiredKeys: [] }),
  "meetings.summary": fc.record({ id }, { requiredKeys: [] }),
  "enterprise.dataQuery": fc.record({ question: nastyString() }, { requiredKeys: [] }),
  "enterprise.invoices": fc.record({ status: nastyString(), limit: small, cursor: nastyString() }, { requiredKeys: [] }),
  "workflows.run": fc.record({ id, input: anyValue }, { requiredKeys: [] }),
};
const procedures = Object.keys(shaped);
const mutations = new Set([
  "documents.create",
  "messages.send",
  "messages.createDraft",
  "bookings.create",
  "files.upload",
  "files.share",
  "search.chat",
  "meetings.create",
  "workflows.run",
]);

const call = fc.oneof(
  {
    arbitrary: fc
      .constantFrom(...procedures)
      .chain((path) =>
        fc.tuple(
          fc.constant(path),
          fc.oneof({ arbitrary: shaped[path] as fc.Arbitrary<unknown>, weight: 4 }, { arbitrary: anyValue, weight: 1 }),
        ),
      ),
    weight: 8,
  },
  {
    arbitrary: fc.tuple(
      fc.oneof(
        fc.constantFrom(
          "documents",
          "documents.nope",
          "viewer.x",
          "documents.list.more",
          "__proto__",
          "constructor",
          "toString",
          "documents.__proto__",
          "",
        ),
        nastyString(20),
      ),
      anyValue,
    ),
    weight: 1,
  },
);

/** The `input` query parameter: JSON of the input(s), or something that is not. */
const encodeInput = (value: unknown) => pct(JSON.stringify(value) ?? "null");

const request = fc.record({
  calls: fc.array(call, { minLength: 1, maxLength: 4 }),
  batch: fc.boolean(),
  method: fc.constantFrom("auto", "auto", "auto", "auto", "GET", "POST", "PUT"),
  credential: fc.oneof(fc.constantFrom(1, 2), fc.nat()),
  malformed: fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 8 },
    { arbitrary: fc.constantFrom("%", "{", "[]", "null", '{"0":', "%7B%220%22%3A1%7D%7D", ""), weight: 1 },
  ),
  contentType: fc.constantFrom(
    "application/json",
    "application/json",
    "application/json",
    "application/json",
    "text/plain",
    "application/x-www-form-urlencoded",
    undefined,
  ),
  trpcAccept: fc.constantFrom(undefined, undefined, "application/jsonl"),
});

describe("tRPC fuzz", () => {
  it("answers random calls and batches in the tRPC error contract", async () => {
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const calls = r.batch ? r.calls : r.calls.slice(0, 1);
        // "auto": what a tRPC client would send, GET for queries and POST for mutations.
        const method = r.method === "auto" ? (mutations.has(calls[0]?.[0] ?? "") ? "POST" : "GET") : r.method;
        const path = calls.map(([p]) => pct(p).replace(/%2E/g, ".")).join(",");
        const inputs = r.batch ? Object.fromEntries(calls.map(([, input], i) => [String(i), input])) : calls[0]?.[1];
        const query: string[] = [];
        if (r.batch) query.push("batch=1");
        let body: string | undefined;
        if (method === "GET") {
          if (r.malformed !== undefined) query.push(`input=${r.malformed}`);
          else if (inputs !== undefined) query.push(`input=${encodeInput(inputs)}`);
        } else {
          body = r.malformed ?? (inputs === undefined ? undefined : JSON.stringify(inputs));
        }
        const authorization = env.credentials[r.credential % env.credentials.length];
        const headers: Record<string, string> = {};
        if (authorization !== undefined) headers["authorization"] = authorization;
        if (r.contentType !== undefined && body !== undefined) headers["content-type"] = r.contentType;
        if (r.trpcAccept !== undefined) headers["trpc-accept"] = r.trpcAccept;
        const url = `${env.url}/trpc/${path}${query.length ? `?${query.join("&")}` : ""}`;
        const response = await fetch(url, { method: method, headers, ...(body === undefined ? {} : { body }) });
        const text = await response.text();
        answered++;
        if (process.env["FUZZ_DEBUG"])
          console.log(method, url.slice(0, 300), body?.slice(0, 200), "=>", response.status, text.slice(0, 300));
        const where = `${method} ${url.slice(env.url.length, 600)} ${body?.slice(0, 300) ?? ""}`;
        if (r.trpcAccept === "application/jsonl" && r.batch && response.status === 200) {
          // Streaming (httpBatchStreamLink): one JSON value a line, errors inside in the same shape.
          for (const line of text.split("\n").filter(Boolean)) expect(() => JSON.parse(line), where).not.toThrow();
          for (const [, code] of text.matchAll(/"gatewayCode":"([^"]*)"/g)) expectCode(code, undefined, where);
          for (const [, status] of text.matchAll(/"httpStatus":(\d+)/g))
            expect(Number(status) < 500 || [502, 503, 504].includes(Number(status)), where).toBe(true);
          return;
        }
        checkTrpcAnswer(response.status, text, where);
      }),
      fuzzParams(0x78c, 200),
    );
    expect(answered).toBeGreaterThan(0);
  });

  // Regressions the fuzzer found, with the example that showed each.
  it("an id with a lone surrogate is BAD_USER_INPUT, not an INTERNAL from encodeURIComponent", async () => {
    const response = await fetch(`${env.url}/trpc/workflows.run`, {
      method: "POST",
      headers: { authorization: `Bearer ${env.products.token}`, "content-type": "application/json" },
      body: '{"id":"\\ud800","input":2147483648}',
    });
    const text = await response.text();
    checkTrpcAnswer(response.status, text, "workflows.run id \\ud800");
    expect(JSON.parse(text)).toMatchObject({ error: { data: { gatewayCode: "BAD_USER_INPUT" } } });
  });

  it("a query parameter with a lone surrogate reaches the product (as U+FFFD)", async () => {
    env.products.sandbox.clearRequests();
    const input = pct('{"q":"budget \\ud800"}');
    const response = await fetch(`${env.url}/trpc/messages.list?input=${input}`, {
      headers: { authorization: `Bearer ${env.products.token}` },
    });
    const text = await response.text();
    checkTrpcAnswer(response.status, text, "messages.list q with \\ud800");
    expect(response.status).toBe(200);
    expect(env.products.sandbox.requests.at(-1)?.query["q"]).toBe("budget \uFFFD");
  });
});
