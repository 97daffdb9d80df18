// Multipart uploads: streamed to disk and hashed, received byte for byte, downloadable.
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "./index.ts";

type ErrorBody = { error: { code: string; message: string } };

const auth = { authorization: "Bearer sandbox-token" };
let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb.close();
});
beforeEach(() => {
  sb.clearRequests();
  sb.clearFaults();
});

const sha = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");

/** A multipart body sent as a stream of `chunkSize` pieces, so boundaries land anywhere. */
function streamedMultipart(parts: Uint8Array[], chunkSize: number): ReadableStream<Uint8Array> {
  const all = Buffer.concat(parts);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= all.length) return controller.close();
      controller.enqueue(all.subarray(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

describe("POST /drive/v1/files", () => {
  it("receives a few MB byte for byte, records size and sha256, and serves it back", async () => {
    const bytes = randomBytes(4 * 1024 * 1024 + 123);
    const folder = sb.data.folders[0]!;
    const form = new FormData();
    form.append("name", "Quarterly report.bin");
    form.append("folderId", folder.id);
    form.append("file", new Blob([bytes], { type: "application/octet-stream" }), "report.bin");
    const res = await fetch(`${sb.url}/drive/v1/files`, { method: "POST", headers: auth, body: form });
    expect(res.status).toBe(201);
    const file = (await res.json()) as Record<string, unknown>;
    expect(file).toMatchObject({
      name: "Quarterly report.bin",
      size: bytes.length,
      parentId: folder.id,
      mimeType: "application/octet-stream",
    });
    expect(Object.keys(file).sort()).toEqual(["createdAt", "id", "mimeType", "modifiedAt", "name", "parentId", "size", "webUrl"]);

    expect(sb.requests[0]?.body).toEqual({
      fields: { name: "Quarterly report.bin", folderId: folder.id },
      file: { size: bytes.length, sha256: sha(bytes), filename: "report.bin", contentType: "application/octet-stream" },
    });
    expect(sb.requests[0]?.headers.authorization).toBe("Bearer sandbox-token");

    const meta = await fetch(`${sb.url}/drive/v1/files/${file.id}`, { headers: auth });
    expect(await meta.json()).toEqual(file);
    const download = await fetch(`${sb.url}/drive/v1/files/${file.id}?download=true`, { headers: auth });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-length")).toBe(String(bytes.length));
    expect(download.headers.get("content-disposition")).toContain('filename="Quarterly report.bin"');
    expect(sha(new Uint8Array(await download.arrayBuffer()))).toBe(sha(bytes));
  });

  it("copes with a 50 MB streamed upload and bytes that look like boundaries", async () => {
    const boundary = "----sandbox-boundary-7f3a";
    // Content full of near-boundaries: CRLF, "--", and the boundary without its leading CRLF.
    const tricky = Buffer.from(`\r\n--${boundary.slice(0, -1)}X\r\n--\r\n${boundary}\r\n`);
    const filler = randomBytes(1024 * 1024);
    const content = Buffer.concat([tricky, ...Array.from({ length: 50 }, () => filler), tricky]);
    const head = Buffer.from(
      `preamble\r\n--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nbig.dat\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.dat"\r\nContent-Type: application/x-big\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\nepilogue`);
    const res = await fetch(`${sb.url}/drive/v1/files`, {
      method: "POST",
      headers: { ...auth, "content-type": `multipart/form-data; boundary=${boundary}` },
      body: streamedMultipart([head, content, tail], 65_521),
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(201);
    const file = (await res.json()) as { id: string; size: number; name: string; mimeType: string };
    expect(file).toMatchObject({ size: content.length, name: "big.dat", mimeType: "application/x-big" });
    expect((sb.requests[0]?.body as { file: { sha256: string } }).file.sha256).toBe(sha(content));
    const download = await fetch(`${sb.url}/drive/v1/files/${file.id}?download=true`, { headers: auth });
    expect(sha(new Uint8Array(await download.arrayBuffer()))).toBe(sha(content));
  });

  it("parses bodies split into tiny chunks", async () => {
    const boundary = "b0undary";
    const content = Buffer.from("hello\r\n--b0undar\r\nworld");
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await fetch(`${sb.url}/drive/v1/files`, {
      method: "POST",
      headers: { ...auth, "content-type": `multipart/form-data; boundary="${boundary}"` },
      body: streamedMultipart([body], 3),
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ name: "résumé.txt", size: content.length, mimeType: "text/plain" });
  });

  it("answers 400 without a file part, 415 for JSON, 404 for an unknown folder, 400 for a truncated body", async () => {
    const noFile = new FormData();
    noFile.append("name", "x");
    const r1 = await fetch(`${sb.url}/drive/v1/files`, { method: "POST", headers: auth, body: noFile });
    expect(r1.status).toBe(400);
    expect(((await r1.json()) as ErrorBody).error.code).toBe("invalid_argument");

    const r2 = await fetch(`${sb.url}/drive/v1/files`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: "{}",
    });
    expect(r2.status).toBe(415);

    const badFolder = new FormData();
    badFolder.append("folderId", "fld_nope");
    badFolder.append("file", new Blob(["x"]), "x.txt");
    const r3 = await fetch(`${sb.url}/drive/v1/files`, { method: "POST", headers: auth, body: badFolder });
    expect(r3.status).toBe(404);

    const r4 = await fetch(`${sb.url}/drive/v1/files`, {
      method: "POST",
      headers: { ...auth, "content-type": "multipart/form-data; boundary=zz" },
      body: '--zz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
    });
    expect(r4.status).toBe(400);
  });

  it("answers 413 above maxUploadBytes", async () => {
    const small = await startSandbox({ maxUploadBytes: 1000 });
    try {
      const form = new FormData();
      form.append("file", new Blob([randomBytes(5000)]), "big.bin");
      const res = await fetch(`${small.url}/drive/v1/files`, { method: "POST", headers: auth, body: form });
      expect(res.status).toBe(413);
      expect(((await res.json()) as ErrorBody).error.code).toBe("payload_too_large");
    } finally {
      await small.close();
    }
  });
});
