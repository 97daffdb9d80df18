// REST fuzzing: random methods, paths, query strings, headers and bodies against a real gateway
// (with the sandbox behind /api/v1/files). Every answer must keep the REST contract: no 5xx but
// the documented upstream ones, no INTERNAL, every error `{"error":{"code","message"}}`.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyValue, checkRestAnswer, fuzzParams, nastyString, pct, startFuzzEnv, type FuzzEnv } from "./harness.ts";

let env: FuzzEnv;
beforeAll(async () => {
  env = await startFuzzEnv();
});
afterAll(() => env?.close());

const segment = fc.oneof(
  nastyString(30).map(pct),
  fc.constantFrom(
    "%",
    "%zz",
    "%2e%2e",
    "%2F",
    "..",
    ".",
    "",
    "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A",
    "doc_" + "Z".repeat(26),
    "f1",
    "content",
    "~",
    "%00",
    "%C0%AF",
    "%ED%A0%80",
  ),
);

const path = fc.oneof(
  fc.constant("/api/v1/documents"),
  segment.map((s) => `/api/v1/documents/${s}`),
  segment.map((s) => `/api/v1/documents/${s}/content`),
  segment.map((s) => `/api/v1/files/${s}/content`),
  fc.constantFrom(
    "/api/v1/documents/",
    "/api/v1/openapi.json",
    "/healthz",
    "/readyz",
    "/api",
    "/api/v1",
    "/api/v1/files",
    "/",
    "//api/v1/documents",
  ),
  fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => `/${parts.join("/")}`),
  fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `/api/v1/documents/${parts.join("/")}`),
);

const queryValue = fc.oneof(
  nastyString(20).map(pct),
  fc.integer({ min: -5, max: 2_000_000 }).map(String),
  fc.constantFrom("", "%", "1e3", "0x10", "NaN", "Infinity", "1.5", " 5", "%2B5", "[]", "true"),
);
const query = fc
  .array(
    fc.tuple(fc.constantFrom("limit", "cursor", "query", "maxChars", "id", "after", "first", "limit[]", "__proto__", "x"), queryValue),
    {
      maxLength: 5,
    },
  )
  .map((pairs) => (pairs.length === 0 ? "" : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join("&")}`));

/** Header values fetch can send: latin1 without CR, LF and NUL. */
const headerValue = fc.oneof(
  fc.string({ maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/g, "")),
  fc.constantFrom(
    "",
    "application/json",
    "text/plain",
    "application/json; charset=utf-16",
    "multipart/form-data",
    "application/x-www-form-urlencoded",
    "*/*",
  ),
);
const headers = fc.record(
  {
    "content-type": fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
      "multipart/form-data; boundary=x",
      "application/jsonx",
      "application/merge-patch+json",
    ),
    accept: headerValue,
    "x-request-id": headerValue,
    "idempotency-key": headerValue,
    "if-none-match": headerValue,
    range: fc.constantFrom("bytes=0-1", "bytes=-5", "bytes=x", "items=0-1"),
  },
  { requiredKeys: [] },
);

const documentish = fc.record(
  { name: anyValue, markdown: fc.oneof(anyValue, fc.string({ maxLength: 200 })), idempotencyKey: anyValue, extra: anyValue },
  { requiredKeys: [] },
);
const body = fc.oneof(
  documentish.map((value) => JSON.stringify(value)),
  anyValue.map((value) => JSON.stringify(value) ?? "null"),
  fc.string({ maxLength: 200 }),
  fc.constantFrom(
    "",
    "{",
    '{"name":',
    "[1,2",
    '{"name":"a","markdown":"b"}',
    '{"name":"a","markdown":"b","name":"c"}',
    "\u0000",
    '"\\ud800"',
  ),
);

const request = fc.record({
  method: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"),
  path,
  query,
  credential: fc.nat(),
  headers,
  body,
});

describe("REST fuzz", () => {
  it("keeps the REST error contract on random requests", async () => {
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const credential = env.credentials[r.credential % env.credentials.length];
        const init: RequestInit = {
          method: r.method,
          headers: { ...r.headers, ...(credential === undefined ? {} : { authorization: credential }) },
          ...(r.method === "GET" || r.method === "HEAD" ? {} : { body: r.body }),
        };
        const where = `${r.method} ${r.path}${r.query}`;
        const response = await fetch(`${env.url}${r.path}${r.query}`, init);
        const text = await response.text();
        answered++;
        if (r.method === "HEAD") {
          expect(response.status, where).toBeLessThan(500);
          return;
        }
        checkRestAnswer(response.status, response.headers.get("content-type"), text, where);
      }),
      fuzzParams(0x5e57, 200),
    );
    expect(answered).toBeGreaterThan(0);
  });
});
