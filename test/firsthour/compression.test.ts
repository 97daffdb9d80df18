// Issue 14 part 5: response compression over real HTTP, on both ways a response leaves the gateway
// (Hono routes, and the Node fast path that writes yoga's responses such as GraphiQL's page).
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseEncoding, compress } from "../../src/http/compression.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

let tg: TestGateway;
let key: string;
let docId: string;
beforeAll(async () => {
  tg = await startTestGateway();
  key = await tg.key();
  for (let i = 0; i < 30; i++) {
    const response = await fetch(`${tg.url}/api/v1/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ name: `Compressible ${i}`, markdown: `# Doc ${i}\n\n${"All work and no play. ".repeat(100)}` }),
    });
    docId = ((await response.json()) as { id: string }).id;
  }
});
afterAll(() => tg.close());

/** One response's raw bytes and headers (undici's request does not decode). */
async function raw(path: string, headers: Record<string, string> = {}) {
  const response = await request(`${tg.url}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
  const body = Buffer.from(await response.body.arrayBuffer());
  const header = (name: string) => {
    const value = response.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  };
  return { status: response.statusCode, body, header };
}

const decode = (encoding: string | undefined, body: Buffer) =>
  encoding === "br" ? brotliDecompressSync(body) : encoding === "gzip" ? gunzipSync(body) : body;

describe("Accept-Encoding", () => {
  it("prefers br, honours q-values and refusals", () => {
    expect(chooseEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(chooseEncoding("gzip")).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip")).toBe("gzip");
    expect(chooseEncoding("gzip;q=1, br;q=0.5")).toBe("gzip");
    expect(chooseEncoding("*")).toBe("br");
    expect(chooseEncoding("identity")).toBeUndefined();
    expect(chooseEncoding(undefined)).toBeUndefined();
  });
});

describe("the compressed-body cache", () => {
  it("compresses a body read again once, per encoding, and a changed body anew", async () => {
    const body = Buffer.from(JSON.stringify({ text: "A hot document's text, read again and again. ".repeat(500) }));
    const first = await compress(body, "br");
    expect(brotliDecompressSync(first)).toEqual(body);
    // The very buffer: no second compression.
    expect(await compress(Buffer.from(body), "br")).toBe(first);
    // Kept in memory of its own size, not as a slice of zlib's 64 KB output chunk.
    expect(first.buffer.byteLength).toBe(first.byteLength);
    const gzip = await compress(body, "gzip");
    expect(gunzipSync(gzip)).toEqual(body);
    expect(await compress(body, "gzip")).toBe(gzip);
    const changed = Buffer.from(body);
    changed[changed.length - 3] = 0x21;
    const other = await compress(changed, "br");
    expect(other).not.toBe(first);
    expect(brotliDecompressSync(other)).toEqual(changed);
  });
});

describe("response compression", () => {
  it("GraphiQL's page (the Node fast path) in br and gzip, the same page once decoded", async () => {
    const plain = await raw("/graphql", { accept: "text/html" });
    expect(plain.header("content-encoding")).toBeUndefined();
    expect(plain.body.byteLength).toBeGreaterThan(1_000_000);
    for (const encoding of ["br", "gzip"]) {
      const packed = await raw("/graphql", { accept: "text/html", "accept-encoding": encoding });
      expect(packed.status).toBe(200);
      expect(packed.header("content-encoding")).toBe(encoding);
      expect(packed.header("vary")).toMatch(/Accept-Encoding/i);
      expect(Number(packed.header("content-length"))).toBe(packed.body.byteLength);
      expect(packed.body.byteLength).toBeLessThan(plain.body.byteLength / 3);
      expect(decode(encoding, packed.body).equals(plain.body)).toBe(true);
    }
  });

  it("GraphiQL's page carries an ETag and Cache-Control: no-cache; a reload with it is a 304 without a body", async () => {
    const first = await raw("/graphql", { accept: "text/html", "accept-encoding": "br" });
    const etag = first.header("etag");
    expect(etag).toMatch(/^"[\w-]{20,}"$/);
    expect(first.header("cache-control")).toBe("no-cache");
    const again = await raw("/graphql", { accept: "text/html", "accept-encoding": "br", "if-none-match": etag! });
    expect({ status: again.status, bytes: again.body.byteLength, etag: again.header("etag") }).toEqual({ status: 304, bytes: 0, etag });
    const other = await raw("/graphql", { accept: "text/html", "if-none-match": '"another-page"' });
    expect(other.status).toBe(200);
    expect(other.header("etag")).toBe(etag);
    // A query by GET is not the page: no ETag of GraphiQL's on it.
    const query = await raw("/graphql?query=%7B__typename%7D", { accept: "application/json" });
    expect(query.status).toBe(200);
    expect(query.header("etag")).toBeUndefined();
  });

  it("a JSON list and a document's text (Hono routes) in gzip", async () => {
    for (const path of ["/api/v1/documents?limit=30", `/api/v1/documents/${docId}`]) {
      const plain = await raw(path);
      const packed = await raw(path, { "accept-encoding": "gzip" });
      expect(packed.header("content-encoding"), path).toBe("gzip");
      expect(packed.body.byteLength).toBeLessThan(plain.body.byteLength);
      expect(JSON.parse(decode("gzip", packed.body).toString())).toEqual(JSON.parse(plain.body.toString()));
    }
  });

  it("a GraphQL result over the threshold is compressed; one under it is not", async () => {
    const post = (query: string) =>
      request(`${tg.url}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "accept-encoding": "gzip" },
        body: JSON.stringify({ query }),
      });
    const big = await post("{ documents(first: 30) { edges { node { id name url downloadUrl createdAt } } } }");
    expect(big.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(Buffer.from(await big.body.arrayBuffer())).toString())).toHaveProperty("data.documents.edges");
    const small = await post("{ viewer { id } }");
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(await small.body.text())).toHaveProperty("data.viewer.id");
  });

  it("small bodies, the .docx download and callers that ask for nothing are sent as they are", async () => {
    const health = await raw("/healthz", { "accept-encoding": "gzip, br" });
    expect(health.header("content-encoding")).toBeUndefined();
    expect(JSON.parse(health.body.toString())).toEqual({ status: "ok" });

    const docx = await raw(`/api/v1/documents/${docId}/content`, { "accept-encoding": "gzip, br" });
    expect(docx.status).toBe(200);
    expect(docx.header("content-encoding")).toBeUndefined();
    expect(Number(docx.header("content-length"))).toBe(docx.body.byteLength);
    expect(docx.body.subarray(0, 2).toString()).toBe("PK");

    const list = await raw("/api/v1/documents?limit=30");
    expect(list.header("content-encoding")).toBeUndefined();
    expect(list.header("vary")).toMatch(/Accept-Encoding/i);
  });
});
