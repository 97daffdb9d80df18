// Pieces of the upstream client that need no upstream: paths, tenants, breaker, Retry-After,
// multipart framing, access-token checks.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createTenantResolver, loadTenantsFile } from "../../adapters/tenants.ts";
import { parseBase, path, queryString, segment } from "../../adapters/upstream/base.ts";
import { parseRetryAfter } from "../../adapters/upstream/errors.ts";
import { multipartBody } from "../../adapters/upstream/multipart.ts";
import { AdapterError } from "../../adapters/errors.ts";

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return error instanceof AdapterError ? error.code : `not an AdapterError: ${String(error)}`;
  }
  return undefined;
};

describe("paths", () => {
  it("keeps the configured origin and prefix", () => {
    expect(parseBase("https://api.example.com/v2/", "API_URL")).toEqual({ origin: "https://api.example.com", prefix: "/v2" });
    expect(parseBase("http://127.0.0.1:8080", "API_URL")).toEqual({ origin: "http://127.0.0.1:8080", prefix: "" });
    expect(() => parseBase("ftp://x", "API_URL")).toThrow(/API_URL/);
    expect(() => parseBase("https://u:p@x", "API_URL")).toThrow(/credentials/);
  });

  it("encodes ids as one segment and refuses separators and dot segments", () => {
    expect(path`/email/v1/threads/${"a b?c#d"}`).toBe("/email/v1/threads/a%20b%3Fc%23d");
    expect(path`/meetings/v1/meetings/${"m_1"}/summary`).toBe("/meetings/v1/meetings/m_1/summary");
    for (const bad of ["", ".", "..", "a/b", "a\\b", "a\nb", "x".repeat(257)]) expect(codeOf(() => segment(bad))).toBe("BAD_USER_INPUT");
  });

  it("builds query strings from defined values only", () => {
    expect(queryString({ folder: "inbox", q: undefined, limit: 5, cursor: null })).toBe("?folder=inbox&limit=5");
    expect(queryString({ q: "a&b=c" })).toBe("?q=a%26b%3Dc");
    expect(queryString({})).toBe("");
  });
});

describe("tenants", () => {
  const dir = mkdtempSync(join(tmpdir(), "tenants-"));
  const file = join(dir, "tenants.json");
  writeFileSync(file, JSON.stringify({ acme: "http://127.0.0.1:1/acme/", globex: "https://globex.example.com" }));

  it("prefers the map, then the template", () => {
    const resolver = createTenantResolver({ TENANTS_FILE: file, TENANT_URL_TEMPLATE: "https://{tenant}.erp.example.com" });
    expect(resolver.resolve("acme")).toEqual({ origin: "http://127.0.0.1:1", prefix: "/acme" });
    // The tenant picks the host: connected to only at public addresses (address-guard.ts).
    expect(resolver.resolve("initech")).toEqual({ origin: "https://initech.erp.example.com", prefix: "", restricted: true });
  });

  it("answers TENANT_REQUIRED, FORBIDDEN and UPSTREAM_NOT_CONFIGURED", () => {
    const resolver = createTenantResolver({ TENANTS_FILE: file, TENANT_URL_TEMPLATE: undefined });
    expect(codeOf(() => resolver.resolve(null))).toBe("TENANT_REQUIRED");
    expect(codeOf(() => resolver.resolve(""))).toBe("TENANT_REQUIRED");
    for (const bad of ["../b", "a.evil.com", "a@b", "A", "-a", "a/b", "a:80", "x".repeat(64)]) {
      expect(codeOf(() => resolver.resolve(bad))).toBe("FORBIDDEN");
    }
    expect(codeOf(() => resolver.resolve("initech"))).toBe("UPSTREAM_NOT_CONFIGURED");
    expect(codeOf(() => createTenantResolver({ TENANTS_FILE: undefined, TENANT_URL_TEMPLATE: undefined }).resolve("acme"))).toBe(
      "UPSTREAM_NOT_CONFIGURED",
    );
  });

  it("refuses a bad TENANTS_FILE at start-up, naming the variable", () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ "Bad.Tenant": "https://x.example.com" }));
    expect(() => loadTenantsFile(bad)).toThrow(/TENANTS_FILE: Bad\.Tenant/);
    writeFileSync(bad, JSON.stringify({ ok: "not a url" }));
    expect(() => loadTenantsFile(bad)).toThrow(/TENANTS_FILE: ok/);
    expect(() => loadTenantsFile(join(dir, "missing.json"))).toThrow(/TENANTS_FILE/);
  });
});

describe("Retry-After", () => {
  it("reads seconds and HTTP dates", () => {
    expect(parseRetryAfter("30")).toBe(30);
    expect(parseRetryAfter(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThanOrEqual(4);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe("multipart body", () => {
  const read = async (body: NodeJS.ReadableStream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks).toString();
  };

  it("frames fields and the file, with a Content-Length when the size is known", async () => {
    const errors: AdapterError[] = [];
    const body = multipartBody(
      [["name", "Q3.txt"]],
      { data: Buffer.from("hello"), filename: 'résumé "1".txt', contentType: "text/plain" },
      100,
      (e) => errors.push(e),
    );
    const boundary = /boundary=(.+)$/.exec(body.contentType)?.[1] as string;
    const text = await read(body.body);
    expect(text.length).toBe(body.length);
    expect(text).toContain(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nQ3.txt\r\n`);
    expect(text).toContain(
      `filename="r_sum_ _1_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%221%22.txt\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`,
    );
    expect(errors).toEqual([]);
  });

  it("stops a stream over the limit", async () => {
    const errors: AdapterError[] = [];
    async function* chunks() {
      for (let i = 0; i < 10; i++) yield Buffer.alloc(50);
    }
    const body = multipartBody([], { data: chunks(), filename: "a", contentType: "application/octet-stream" }, 200, (e) => errors.push(e));
    expect(body.length).toBeUndefined();
    await expect(read(body.body)).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(errors[0]?.code).toBe("PAYLOAD_TOO_LARGE");
    expect(
      codeOf(() => multipartBody([], { data: Buffer.alloc(300), filename: "a", contentType: "text/plain" }, 200, () => undefined)),
    ).toBe("PAYLOAD_TOO_LARGE");
  });
});
