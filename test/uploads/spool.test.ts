// src/uploads/spool.ts on its own: a multipart body becomes a FormData of file-backed Files; every
// limit and every malformed body fails cleanly, with no temp file left.
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GatewayError } from "../../src/core/errors.ts";
import { FormRequest, spoolForm, type UploadLimits } from "../../src/uploads/index.ts";
import { MiB, deterministicBytes } from "./helpers.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "wg-spool-test-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));
afterEach(async () => {
  expect(await readdir(root)).toEqual([]);
});

const limits: UploadLimits = { fileBytes: 4 * MiB, fieldBytes: 64 * 1024 };

/** A Request carrying `form` exactly as a client would send it (undici encodes it). */
async function requestOf(form: FormData, headers: Record<string, string> = {}): Promise<Request> {
  const encoded = new Response(form);
  const body = new Uint8Array(await encoded.arrayBuffer());
  return new Request("http://gateway.test/graphql", {
    method: "POST",
    headers: { "content-type": encoded.headers.get("content-type")!, "content-length": String(body.byteLength), ...headers },
    body,
  });
}

const rawRequest = (body: string, contentType = "multipart/form-data; boundary=b") =>
  new Request("http://gateway.test/graphql", { method: "POST", headers: { "content-type": contentType }, body });

const bytes = (size: number, seed: number) => Buffer.concat([...deterministicBytes(size, seed)]);
const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

describe("spoolForm", () => {
  it("fields stay strings; files become file-backed Files with their name, type and bytes", async () => {
    const one = bytes(3 * MiB, 1);
    const two = bytes(1000, 2);
    const form = new FormData();
    form.append("operations", '{"query":"x"}');
    form.append("0", new Blob([one], { type: "image/png" }), "photo.png");
    form.append("1", new Blob([two]), "notes – été.txt");
    form.append("name", "Überschrift");

    const { form: spooled, cleanup } = await spoolForm(await requestOf(form), limits, { tmpRoot: root });
    expect(spooled.get("operations")).toBe('{"query":"x"}');
    expect(spooled.get("name")).toBe("Überschrift");
    const photo = spooled.get("0") as File;
    const notes = spooled.get("1") as File;
    expect(photo).toBeInstanceOf(File);
    expect([photo.name, photo.type, photo.size]).toEqual(["photo.png", "image/png", one.byteLength]);
    expect([notes.name, notes.type, notes.size]).toEqual(["notes – été.txt", "application/octet-stream", 1000]);
    expect(sha256(new Uint8Array(await photo.arrayBuffer()))).toBe(sha256(one));
    expect(sha256(new Uint8Array(await notes.arrayBuffer()))).toBe(sha256(two));
    expect([...spooled.keys()]).toEqual(["operations", "0", "1", "name"]);
    // Each names its temp file (UploadedFile.path), for a reader in another thread.
    const path = (photo as File & { path?: string }).path;
    expect(path?.startsWith(root)).toBe(true);
    expect(sha256(new Uint8Array(await readFile(path!)))).toBe(sha256(one));

    // The bytes live in one temp dir until cleanup, then nowhere.
    const [dir] = await readdir(root);
    expect((await readdir(join(root, dir!))).length).toBe(2);
    expect((await stat(join(root, dir!, (await readdir(join(root, dir!)))[0]!))).size).toBeGreaterThan(0);
    await cleanup();
    await cleanup(); // idempotent
  });

  it("all files together over fileBytes → PAYLOAD_TOO_LARGE", async () => {
    const form = new FormData();
    form.append("0", new Blob([bytes(3 * MiB, 3)]), "a.bin");
    form.append("1", new Blob([bytes(2 * MiB, 4)]), "b.bin");
    const error = await failure(spoolForm(await requestOf(form), limits, { tmpRoot: root }));
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.details).toMatchObject({ limit: 4 * MiB });
  });

  it("a declared Content-Length over the total is refused before reading", async () => {
    const form = new FormData();
    form.append("0", new Blob([bytes(10, 5)]), "a.bin");
    const request = await requestOf(form, { "content-length": String(64 * MiB) });
    const error = await failure(spoolForm(request, limits, { tmpRoot: root }));
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(request.bodyUsed).toBe(false);
  });

  it("text fields over fieldBytes → PAYLOAD_TOO_LARGE (never silently truncated)", async () => {
    const form = new FormData();
    form.append("operations", "x".repeat(64 * 1024 + 1));
    expect((await failure(spoolForm(await requestOf(form), limits, { tmpRoot: root }))).code).toBe("PAYLOAD_TOO_LARGE");

    const many = new FormData();
    for (let i = 0; i < 3; i++) many.append(`f${i}`, "y".repeat(30 * 1024));
    expect((await failure(spoolForm(await requestOf(many), limits, { tmpRoot: root }))).code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("more files or fields than allowed → PAYLOAD_TOO_LARGE", async () => {
    const form = new FormData();
    for (let i = 0; i < 3; i++) form.append(String(i), new Blob(["x"]), `${i}.txt`);
    expect((await failure(spoolForm(await requestOf(form), { ...limits, files: 2 }, { tmpRoot: root }))).code).toBe("PAYLOAD_TOO_LARGE");

    const fields = new FormData();
    for (let i = 0; i < 4; i++) fields.append(`f${i}`, "v");
    expect((await failure(spoolForm(await requestOf(fields), { ...limits, fields: 3 }, { tmpRoot: root }))).code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("a field check that refuses stops there: the parts after it in the same chunk are not spooled, and the refusal settles", async () => {
    // The whole body in one chunk: busboy still emits the file after the refusal, and a destroyed
    // parser need not end that file's stream (Node 24 does not), so spooling it hung the request.
    const form = new FormData();
    form.append("operations", '{"query":"mutation { uploadFile }"}');
    form.append("map", '{"0":["variables.file"]}');
    form.append("0", new Blob(["x"]), "x.txt");
    const seen: string[] = [];
    const refuse = (name: string) => {
      seen.push(name);
      if (name === "operations") throw new GatewayError("FORBIDDEN", "no");
    };
    const settled = spoolForm(await requestOf(form), limits, { tmpRoot: root, checkField: refuse });
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve("still pending after 10 s"), 10_000).unref());
    const error = await Promise.race([failure(settled), timeout]);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe("FORBIDDEN");
    expect(seen).toEqual(["operations"]);
  });

  it("malformed bodies → BAD_USER_INPUT", async () => {
    // No boundary: refused before a temp dir exists.
    expect((await failure(spoolForm(rawRequest("", "multipart/form-data"), limits, { tmpRoot: root }))).code).toBe("BAD_USER_INPUT");
    // Cut off inside a file part.
    const cut = '--b\r\nContent-Disposition: form-data; name="0"; filename="a.bin"\r\n\r\nsome bytes';
    const error = await failure(spoolForm(rawRequest(cut), limits, { tmpRoot: root }));
    expect(error.code).toBe("BAD_USER_INPUT");
    expect(error.message).toMatch(/^multipart\/form-data: /);
    // No closing boundary after a field.
    expect(
      (await failure(spoolForm(rawRequest('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n'), limits, { tmpRoot: root })))
        .code,
    ).toBe("BAD_USER_INPUT");
  });
});

describe("FormRequest", () => {
  it("is the caller's request (URL, method, headers, signal) with formData() answered from the spooled form", async () => {
    const controller = new AbortController();
    const original = new Request("http://gateway.test/trpc/files.upload", {
      method: "POST",
      headers: { authorization: "Bearer t", "content-type": "multipart/form-data; boundary=b", "content-length": "123" },
      body: "x",
      signal: controller.signal,
    });
    const form = new FormData();
    form.append("name", "n");
    const request = new FormRequest(original, () => Promise.resolve(form));
    expect(request.url).toBe(original.url);
    expect(request.method).toBe("POST");
    expect(request.headers.get("authorization")).toBe("Bearer t");
    expect(request.headers.get("content-type")).toBe("multipart/form-data; boundary=b");
    expect(request.headers.has("content-length")).toBe(false);
    expect(await request.formData()).toBe(form);
    controller.abort();
    expect(request.signal.aborted).toBe(true);
  });
});
