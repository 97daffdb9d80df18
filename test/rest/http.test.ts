// REST specifics beyond the shared matrix: HTTP statuses and headers, downloads, OpenAPI,
// health, request ids, body limits.
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { openapiPaths, surface } from "../helpers/surface.ts";

let tg: TestGateway;
let auth: { authorization: string };

beforeAll(async () => {
  tg = await startTestGateway({ BODY_LIMIT_BYTES: String(3 * 1024 * 1024) });
  auth = { authorization: `Bearer ${await tg.key()}` };
});
afterAll(() => tg.close());

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${tg.url}/api/v1/documents`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json", ...headers },
    body,
  });

describe("POST /api/v1/documents", () => {
  it("answers 201 with Location and the document body", async () => {
    const response = await post(JSON.stringify({ name: "Q3 review", markdown: "# Q3\n\nAll **good**." }));
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ name: "Q3 review", characters: "Q3\n\nAll good.".length });
    expect(body["id"]).toMatch(/^doc_[0-9A-Z]{26}$/);
    expect(response.headers.get("location")).toBe(`/api/v1/documents/${body["id"] as string}`);
    expect(body["url"]).toBe(response.headers.get("location"));
    expect(body["downloadUrl"]).toBe(`${response.headers.get("location")}/content`);
    expect(Object.keys(body).sort()).toEqual(
      ["characters", "createdAt", "downloadUrl", "id", "name", "sizeBytes", "updatedAt", "url", "version"].sort(),
    );
  });

  it("a reused Idempotency-Key replays the first 201, with Idempotent-Replayed, even for a different body", async () => {
    const key = { "idempotency-key": `rest-replay-${Date.now()}` };
    const first = await post(JSON.stringify({ name: "first", markdown: "one" }), key);
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const firstBody = await first.json();
    for (const body of [
      { name: "first", markdown: "one" },
      { name: "second", markdown: "two" },
    ]) {
      const again = await post(JSON.stringify(body), key);
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.headers.get("location")).toBe(first.headers.get("location"));
      expect(await again.json()).toEqual(firstBody);
    }
  });

  it("malformed JSON → 400 BAD_USER_INPUT", async () => {
    const response = await post("{not json");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "BAD_USER_INPUT" } });
  });

  it("reads the body as Fetch's text() would: a byte-order mark dropped, malformed UTF-8 as U+FFFD", async () => {
    // The Node path reads the body off the socket itself (src/http/node.ts nodeBodyText).
    const json = Buffer.from(JSON.stringify({ name: "bytes", markdown: "before X after" }), "utf8");
    const at = json.indexOf("X");
    const bytes = Buffer.concat([Buffer.of(0xef, 0xbb, 0xbf), json.subarray(0, at), Buffer.of(0xe2, 0x82), json.subarray(at + 1)]);
    const response = await fetch(`${tg.url}/api/v1/documents`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: bytes,
    });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    const text = await fetch(`${tg.url}/api/v1/documents/${id}`, { headers: auth }).then((r) => r.json());
    expect(text).toMatchObject({ text: "before \uFFFD after" });
  });

  it("a body of unknown length (chunked) is read as one with a Content-Length", async () => {
    const json = JSON.stringify({ name: "chunked", markdown: "# Streamed\n\nin pieces" });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < json.length; i += 7) controller.enqueue(new TextEncoder().encode(json.slice(i, i + 7)));
        controller.close();
      },
    });
    const response = await fetch(`${tg.url}/api/v1/documents`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ name: "chunked", characters: "Streamed\n\nin pieces".length });
  });

  it("a JSON array or string body → 400", async () => {
    expect((await post("[]")).status).toBe(400);
    expect((await post('"x"')).status).toBe(400);
  });

  it("wrong content type → 415 UNSUPPORTED_MEDIA_TYPE", async () => {
    const response = await post(JSON.stringify({ name: "x", markdown: "x" }), { "content-type": "text/plain" });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: { code: "UNSUPPORTED_MEDIA_TYPE" } });
  });

  it("markdown over the limit → 413 with limit and length details", async () => {
    const response = await post(JSON.stringify({ name: "x", markdown: "b".repeat(400_001) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: { code: "PAYLOAD_TOO_LARGE", message: expect.any(String), details: { limit: 400_000, length: 400_001 } },
    });
  });

  it("a body over the byte limit → 413 before parsing", async () => {
    const response = await post(JSON.stringify({ name: "x", markdown: "é".repeat(2_000_000) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE" } });
  });

  it("missing credential → 401 with WWW-Authenticate: Bearer", async () => {
    const response = await fetch(`${tg.url}/api/v1/documents`);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await response.json()).toMatchObject({ error: { code: "UNAUTHENTICATED" } });
  });
});

describe("GET /api/v1/documents/{id}/content", () => {
  it("serves the .docx with a safe Content-Disposition for unicode and quotes", async () => {
    const refused = await post(JSON.stringify({ name: "Résumé\r\nX-Evil: 1", markdown: "# Hi" }));
    expect(refused.status).toBe(400);
    const created = (await (await post(JSON.stringify({ name: 'Résumé "final"; x=1', markdown: "# Hi" }))).json()) as {
      downloadUrl: string;
      sizeBytes: number;
    };
    const response = await fetch(`${tg.url}${created.downloadUrl}`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    const disposition = response.headers.get("content-disposition")!;
    expect(disposition).toMatch(/^attachment; filename="[^"\r\n]*\.docx"; filename\*=UTF-8''/);
    expect(disposition).toContain("R%C3%A9sum%C3%A9");
    expect(response.headers.get("x-evil")).toBeNull();
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.byteLength).toBe(created.sizeBytes);
    const zip = await JSZip.loadAsync(bytes);
    expect(zip.file("word/document.xml")).not.toBeNull();
  });

  it.each([
    ["Q3/Q4 review", 'attachment; filename="Q3_Q4 review.docx"'],
    ["a/", 'attachment; filename="a_.docx"'],
    ["/", 'attachment; filename="_.docx"'],
    ["back\\slash\\", 'attachment; filename="back_slash_.docx"'],
    ["../../etc/passwd", 'attachment; filename=".._.._etc_passwd.docx"'],
    ["Ré/sumé", "attachment; filename=\"Re_sume.docx\"; filename*=UTF-8''R%C3%A9_sum%C3%A9.docx"],
  ])("a name with path separators keeps every part in the file name: %j", async (name, expected) => {
    const created = (await (await post(JSON.stringify({ name, markdown: "x" }))).json()) as { name: string; downloadUrl: string };
    expect(created.name).toBe(name);
    const response = await fetch(`${tg.url}${created.downloadUrl}`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(expected);
  });

  it.each([
    ["malformed", "doc_x"],
    ["65 characters", `doc_${"A".repeat(61)}`],
    ["1,000 characters", "x".repeat(1000)],
    ["lower-case", "doc_01jd7q6r1v2s3t4u5w6x7y8z9a"],
  ])("a %s id that cannot exist is 404 NOT_FOUND on the text and the download route alike", async (_label, id) => {
    for (const path of [`/api/v1/documents/${id}`, `/api/v1/documents/${id}/content`]) {
      const response = await fetch(`${tg.url}${path}`, { headers: auth });
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toMatchObject({ error: { code: "NOT_FOUND" } });
    }
  });

  it("someone else's document → 404", async () => {
    const created = (await (await post(JSON.stringify({ name: "mine", markdown: "x" }))).json()) as { downloadUrl: string };
    const other = `Bearer ${await tg.key({ user: "mallory" })}`;
    const response = await fetch(`${tg.url}${created.downloadUrl}`, { headers: { authorization: other } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
  });
});

describe("the rest of the HTTP surface", () => {
  it("unknown route → 404 in the error body", async () => {
    const response = await fetch(`${tg.url}/api/v1/nope`, { headers: auth });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
  });

  it("echoes a sane X-Request-Id and replaces an unsafe one", async () => {
    const mine = await fetch(`${tg.url}/healthz`, { headers: { "x-request-id": "abc-123" } });
    expect(mine.headers.get("x-request-id")).toBe("abc-123");
    const unsafe = await fetch(`${tg.url}/healthz`, { headers: { "x-request-id": "a b<script>" } });
    expect(unsafe.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const onError = await fetch(`${tg.url}/api/v1/documents`, { headers: { "x-request-id": "err-1" } });
    expect(onError.headers.get("x-request-id")).toBe("err-1");
  });

  it("health, readiness and metrics need no credential", async () => {
    expect(await (await fetch(`${tg.url}/healthz`)).json()).toEqual({ status: "ok" });
    expect(await (await fetch(`${tg.url}/readyz`)).json()).toEqual({ status: "ready" });
    const metrics = await (await fetch(`${tg.url}/metrics`)).text();
    expect(metrics).toContain("gateway_http_request_duration_seconds");
  });

  it("serves an OpenAPI 3.1 description generated from the route schemas", async () => {
    type Schema = { properties?: Record<string, { maxLength?: number }> };
    const doc = (await (await fetch(`${tg.url}/api/v1/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, { post?: { requestBody: { content: { "application/json": { schema: Schema } } } } }>;
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual([...openapiPaths].sort());
    for (const [path, methods] of Object.entries(surface.openapi)) expect(Object.keys(doc.paths[path]!).sort(), path).toEqual(methods);
    const input = doc.paths["/api/v1/documents"]?.post?.requestBody.content["application/json"].schema;
    expect(input?.properties?.["markdown"]?.maxLength).toBe(400_000);
  });
});
