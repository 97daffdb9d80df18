// Uploads through GraphQL (multipart request spec) and tRPC (files.upload, FormData) reach the
// sandbox upstream byte for byte; over the limit they fail with PAYLOAD_TOO_LARGE and nothing is
// sent upstream; temp files never outlive the request. The gateway runs in-process here; its
// memory is measured in memory.test.ts, where it runs as its own process.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TRPCClientError } from "@trpc/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createGatewayClient, type AppRouter } from "../../src/client/index.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { startSandbox, type Sandbox } from "../sandbox/index.ts";
import {
  JWT_SECRET,
  MiB,
  graphqlUploadForm,
  leftoverUploads,
  postGraphQL,
  sha256Of,
  signAccessToken,
  streamedGraphQLUpload,
  testFile,
} from "./helpers.ts";

interface RecordedUpload {
  fields: Record<string, string>;
  file: { size: number; sha256: string; filename: string; contentType?: string } | null;
}

let sandbox: Sandbox;
let gateway: TestGateway; // default limit (100 MB)
let small: TestGateway; // UPLOAD_LIMIT_BYTES = 1 MiB
let token: string;
let work: string; // the test's own files
let spoolDir: string; // TMPDIR of this process, so the gateway's temp files are ours to inspect
const savedTmpdir = process.env["TMPDIR"];

beforeAll(async () => {
  token = await signAccessToken();
  sandbox = await startSandbox({ tokens: [token] });
  work = await mkdtemp(join(tmpdir(), "wg-upload-test-"));
  spoolDir = await mkdtemp(join(tmpdir(), "wg-upload-spool-"));
  process.env["TMPDIR"] = spoolDir;
  gateway = await startTestGateway({ API_URL: sandbox.url, JWT_SECRET, UPSTREAM_TIMEOUT_MS: "60000" });
  small = await startTestGateway({ API_URL: sandbox.url, JWT_SECRET, UPLOAD_LIMIT_BYTES: String(MiB) });
});

afterAll(async () => {
  if (savedTmpdir === undefined) delete process.env["TMPDIR"];
  else process.env["TMPDIR"] = savedTmpdir;
  await gateway?.close();
  await small?.close();
  await sandbox?.close();
  await rm(work, { recursive: true, force: true });
  await rm(spoolDir, { recursive: true, force: true });
});

afterEach(async () => {
  // Every request has answered by now: no upload may leave a temp file behind.
  expect(await leftoverUploads(spoolDir)).toEqual([]);
  sandbox.clearRequests();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const uploadsReceived = () => sandbox.requestsTo("/drive/v1/files", "POST").map((r) => r.body as RecordedUpload);

describe("50 MB through GraphQL and tRPC", () => {
  const size = 50 * MiB;

  it("GraphQL multipart: the sandbox receives the file byte for byte", async () => {
    const file = await testFile(join(work, "gql.bin"), size, 1);
    const form = graphqlUploadForm(file, "report.bin", { name: "Quarterly report.bin" });
    const { status, body } = await postGraphQL(gateway.url, token, form);
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    expect(body.data?.uploadFile).toMatchObject({ name: "Quarterly report.bin", size });
    const [received] = uploadsReceived();
    expect(received?.file).toMatchObject({ size, sha256: sha256Of(size, 1), filename: "report.bin" });
    expect(received?.fields).toMatchObject({ name: "Quarterly report.bin" });
  });

  it("tRPC files.upload (typed client, FormData): the sandbox receives the file byte for byte", async () => {
    const client = createGatewayClient({ url: gateway.url, token });
    const folderId = sandbox.data.folders[0]!.id;
    const form = new FormData();
    form.append("file", await testFile(join(work, "trpc.bin"), size, 2), "données.bin");
    form.append("name", "Données.bin");
    form.append("folderId", folderId);
    const uploaded = await client.files.upload.mutate(form);
    expect(uploaded).toMatchObject({ name: "Données.bin", size, parentId: folderId });
    const [received] = uploadsReceived();
    expect(received?.file).toMatchObject({ size, sha256: sha256Of(size, 2), filename: "données.bin" });
    expect(received?.fields).toMatchObject({ name: "Données.bin", folderId });
  });

  it("a body sent without Content-Length (chunked) is streamed the same way", async () => {
    const upload = streamedGraphQLUpload(8 * MiB, 3);
    const { status, body } = await postGraphQL(gateway.url, token, upload.body, { "content-type": upload.contentType });
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    expect(uploadsReceived()[0]?.file).toMatchObject({ size: 8 * MiB, sha256: sha256Of(8 * MiB, 3) });
  });

  it("the file keeps its content type", async () => {
    const file = await testFile(join(work, "pdf.bin"), 1000, 4, "scan.pdf", "application/pdf");
    const { body } = await postGraphQL(gateway.url, token, graphqlUploadForm(file, "scan.pdf"));
    expect(body.data?.uploadFile).toMatchObject({ name: "scan.pdf", mimeType: "application/pdf", size: 1000 });
    expect(uploadsReceived()[0]?.file).toMatchObject({ contentType: "application/pdf", sha256: sha256Of(1000, 4) });
  });
});

describe("the limit (UPLOAD_LIMIT_BYTES)", () => {
  it("GraphQL: over the limit → 413 PAYLOAD_TOO_LARGE, nothing sent upstream", async () => {
    // 1 MiB + 1 byte: the declared Content-Length passes the up-front check, the file's bytes do not.
    const file = await testFile(join(work, "over.bin"), MiB + 1, 5);
    const { status, body } = await postGraphQL(small.url, token, graphqlUploadForm(file, "over.bin"));
    expect(status).toBe(413);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { limit: MiB } });
    expect(sandbox.countRequests("/drive/v1/files")).toBe(0);
  });

  it("GraphQL: a Content-Length far over the limit is refused before the body is read", async () => {
    const file = await testFile(join(work, "far-over.bin"), 8 * MiB, 6);
    const { status, body } = await postGraphQL(small.url, token, graphqlUploadForm(file, "far-over.bin"));
    expect(status).toBe(413);
    expect(body.errors?.[0]?.extensions?.["code"]).toBe("PAYLOAD_TOO_LARGE");
    expect(sandbox.countRequests("/drive/v1/files")).toBe(0);
  });

  it("GraphQL: over the limit without Content-Length → 413 while streaming", async () => {
    const upload = streamedGraphQLUpload(3 * MiB, 7);
    const { status, body } = await postGraphQL(small.url, token, upload.body, { "content-type": upload.contentType });
    expect(status).toBe(413);
    expect(body.errors?.[0]?.extensions?.["code"]).toBe("PAYLOAD_TOO_LARGE");
    expect(sandbox.countRequests("/drive/v1/files")).toBe(0);
  });

  it("tRPC: over the limit → PAYLOAD_TOO_LARGE with data.gatewayCode, nothing sent upstream", async () => {
    const client = createGatewayClient({ url: small.url, token });
    const form = new FormData();
    form.append("file", await testFile(join(work, "over-trpc.bin"), MiB + 1, 8), "over.bin");
    const error = await client.files.upload.mutate(form).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TRPCClientError);
    const data = (error as TRPCClientError<AppRouter>).data;
    expect(data).toMatchObject({ code: "PAYLOAD_TOO_LARGE", httpStatus: 413, gatewayCode: "PAYLOAD_TOO_LARGE" });
    expect(sandbox.countRequests("/drive/v1/files")).toBe(0);
  });

  it("at the limit exactly, the upload goes through", async () => {
    const file = await testFile(join(work, "exact.bin"), MiB, 9);
    const { status, body } = await postGraphQL(small.url, token, graphqlUploadForm(file, "exact.bin"));
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    expect(uploadsReceived()[0]?.file).toMatchObject({ size: MiB, sha256: sha256Of(MiB, 9) });
  });
});

describe("before and around the body", () => {
  it("no credential → 401 UNAUTHENTICATED without reading the file (GraphQL and tRPC)", async () => {
    const file = await testFile(join(work, "anon.bin"), 4 * MiB, 10);
    const gql = await postGraphQL(gateway.url, null, graphqlUploadForm(file, "anon.bin"));
    expect(gql.status).toBe(401);
    expect(gql.body.errors?.[0]?.extensions?.["code"]).toBe("UNAUTHENTICATED");

    const form = new FormData();
    form.append("file", file, "anon.bin");
    const response = await fetch(`${gateway.url}/trpc/files.upload`, { method: "POST", body: form });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { data: { gatewayCode: string } } }).error.data.gatewayCode).toBe("UNAUTHENTICATED");
    expect(sandbox.countRequests("/drive/v1/files")).toBe(0);
  });

  it("a personal API key authenticates but cannot upload (product operations need an access token)", async () => {
    const key = await gateway.key();
    const file = await testFile(join(work, "key.bin"), 1000, 11);
    const { body } = await postGraphQL(gateway.url, key, graphqlUploadForm(file, "key.bin"));
    expect(body.errors?.[0]?.extensions?.["code"]).toBe("FORBIDDEN");
    expect(sandbox.countRequests("/drive/v1/files")).toBe(0);
  });

  it.each(["graphql", "trpc/files.upload"])(
    "/%s refuses an API key before reading the file: the answer comes while the client is still sending",
    async (path) => {
      const key = await gateway.key();
      const upload = streamedGraphQLUpload(40 * MiB, 14);
      const reader = upload.body.getReader();
      let sent = 0;
      let stalled = false;
      // Sends 1 MiB, then nothing more until the test ends: a gateway that spooled first would never answer.
      const release = new AbortController();
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          if (sent >= MiB) {
            stalled = true;
            await new Promise((resolve) => release.signal.addEventListener("abort", resolve, { once: true }));
            return c.close();
          }
          const { value } = await reader.read();
          sent += value!.byteLength;
          c.enqueue(value!);
        },
      });
      try {
        const response = await fetch(`${gateway.url}/${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": upload.contentType, "apollo-require-preflight": "true" },
          body,
          duplex: "half",
          // A gateway that waits for the body never answers: fail with a clear abort, not a hang.
          signal: AbortSignal.timeout(15_000),
        } as RequestInit);
        expect(response.status).toBe(403);
        const text = await response.text();
        expect(text).toContain("FORBIDDEN");
        expect(text).toMatch(/access token/);
        expect(await leftoverUploads(spoolDir)).toEqual([]);
        // The body was still open: only an answer given before reading it could arrive.
        expect(stalled).toBe(true);
      } finally {
        release.abort();
      }
      expect(sandbox.countRequests("/drive/v1/files")).toBe(0);
    },
  );

  it("a malformed multipart body → 400 BAD_USER_INPUT", async () => {
    const { status, body } = await postGraphQL(gateway.url, token, '--nope\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{', {
      "content-type": "multipart/form-data; boundary=nope",
    });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.["code"]).toBe("BAD_USER_INPUT");
  });

  it("a client that goes away mid-upload leaves no temp file and sends nothing upstream", async () => {
    const controller = new AbortController();
    const upload = streamedGraphQLUpload(40 * MiB, 12);
    const reader = upload.body.getReader();
    let sent = 0;
    // Sends 6 MiB, waits until the gateway is spooling them, then goes away.
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (sent > 6 * MiB) {
          for (let i = 0; i < 100 && (await leftoverUploads(spoolDir)).length === 0; i++) await sleep(20);
          controller.abort();
          return;
        }
        const { done, value } = await reader.read();
        if (done) return c.close();
        sent += value.byteLength;
        c.enqueue(value);
      },
    });
    const answer = fetch(`${gateway.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": upload.contentType, "apollo-require-preflight": "true" },
      body,
      duplex: "half",
      signal: controller.signal,
    } as RequestInit);
    await expect(answer).rejects.toThrow();
    expect((await leftoverUploads(spoolDir)).length).toBe(1); // it was spooling…
    for (let i = 0; i < 100 && (await leftoverUploads(spoolDir)).length > 0; i++) await sleep(20);
    expect(await leftoverUploads(spoolDir)).toEqual([]); // …and cleaned up when the client left
    expect(sandbox.countRequests("/drive/v1/files")).toBe(0);
  });

  it("JSON GraphQL requests keep their own (small) body limit", async () => {
    const response = await fetch(`${gateway.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query: `{ viewer { id } }`, variables: { pad: "x".repeat(2 * MiB) } }),
    });
    expect(response.status).toBe(413);
  });

  it("multipart to another tRPC procedure is not an upload: normal body limit, no spooling", async () => {
    const form = new FormData();
    form.append("file", await testFile(join(work, "other.bin"), 4 * MiB, 13), "other.bin");
    const response = await fetch(`${gateway.url}/trpc/documents.create`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(response.status).toBe(413);
  });
});
