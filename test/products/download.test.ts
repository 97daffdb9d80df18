// A drive file's bytes (docs/api.md "Upstreams": GET /drive/v1/files/:id?download=true) through the gateway: GraphQL's
// DriveFile.downloadUrl points at GET /api/v1/files/{id}/content, which streams the product's answer
// with the caller's access token and request id.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { graphqlFetch, newRequestId, onlyRequest, useProductsEnv } from "./harness.ts";

const env = useProductsEnv();

const download = (path: string, token: string | null, requestId?: string) =>
  fetch(`${env().gateway.url}${path}`, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(requestId ? { "x-request-id": requestId } : {}) },
  });

describe("drive file download", () => {
  it("GraphQL gives downloadUrl; GET on it streams the file's exact bytes with the product's headers", async () => {
    const file = env().sandbox.data.files[0]!;
    const answer = await graphqlFetch(
      env().gateway.url,
      { query: `query ($id: ID!) { file(id: $id) { id downloadUrl } }`, variables: { id: file.id } },
      { token: env().token },
    );
    const { downloadUrl } = (answer.body.data as { file: { downloadUrl: string } }).file;
    expect(downloadUrl).toBe(`/api/v1/files/${encodeURIComponent(file.id)}/content`);

    await env().sandbox.reset();
    const requestId = newRequestId("download");
    const response = await download(downloadUrl, env().token, requestId);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(file.mimeType);
    expect(response.headers.get("content-disposition")).toContain("attachment");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.byteLength).toBe(file.size);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(file.sha256);

    const seen = onlyRequest(env().sandbox, { token: env().token, requestId });
    expect(seen.method).toBe("GET");
    expect(seen.path).toBe(`/drive/v1/files/${file.id}`);
    expect(seen.query).toEqual({ download: "true" });
  });

  it("an unknown file → 404 NOT_FOUND; no credential → 401; a personal API key → 403, never forwarded", async () => {
    const missing = await download("/api/v1/files/f_nope/content", env().token);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");

    const file = env().sandbox.data.files[0]!;
    await env().sandbox.reset();
    const anonymous = await download(`/api/v1/files/${file.id}/content`, null);
    expect(anonymous.status).toBe(401);
    const key = await env().gateway.key({ user: "ann" });
    const withKey = await download(`/api/v1/files/${file.id}/content`, key);
    expect(withKey.status).toBe(403);
    expect(((await withKey.json()) as { error: { code: string; message: string } }).error.message).toMatch(/access token/);
    expect(env().sandbox.requests).toEqual([]);
  });

  it("an id that could leave the drive path is refused before any upstream call", async () => {
    // "%2F" survives URL parsing (a literal ".." would be collapsed by the client itself).
    for (const id of ["a%2F..%2Fadmin", "a%5Cb"]) {
      const response = await download(`/api/v1/files/${id}/content`, env().token);
      expect(response.status, id).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("BAD_USER_INPUT");
    }
    expect(env().sandbox.requests).toEqual([]);
  });
});
