// Helpers for the upload tests: deterministic bytes (AES-CTR keystream: fast, reproducible, never
// held whole in memory), HS256 access tokens, GraphQL multipart requests, the gateway as a child
// process (so its RSS is its own), and the temp files an upload leaves.
import { createCipheriv, createHash } from "node:crypto";
import { createWriteStream, openAsBlob } from "node:fs";
import { readdir } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { SignJWT } from "jose";
import { TEMP_PREFIX } from "../../src/uploads/index.ts";

export const MiB = 1024 * 1024;
export const JWT_SECRET = "an-upload-test-secret-of-at-least-32-characters";

export const signAccessToken = (subject = "uploader") =>
  new SignJWT({ scope: "docs:read docs:write" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime("30m")
    .sign(new TextEncoder().encode(JWT_SECRET));

/** `size` deterministic pseudo-random bytes for `seed`, in 1 MiB chunks. */
export function* deterministicBytes(size: number, seed: number): Generator<Buffer> {
  const key = createHash("sha256").update(`upload-test-${seed}`).digest();
  const cipher = createCipheriv("aes-256-ctr", key, Buffer.alloc(16));
  const zeros = Buffer.alloc(MiB);
  for (let left = size; left > 0; left -= MiB) {
    yield cipher.update(left >= MiB ? zeros : zeros.subarray(0, left));
  }
}

export function sha256Of(size: number, seed: number): string {
  const hash = createHash("sha256");
  for (const chunk of deterministicBytes(size, seed)) hash.update(chunk);
  return hash.digest("hex");
}

/** Writes the bytes to `path` and returns a file-backed File (the test process never holds them). */
export async function testFile(
  path: string,
  size: number,
  seed: number,
  name = "upload.bin",
  type = "application/octet-stream",
): Promise<File> {
  await pipeline(Readable.from(deterministicBytes(size, seed)), createWriteStream(path));
  return new File([await openAsBlob(path)], name, { type });
}

/** The GraphQL multipart request spec: operations, map, then the file. */
export function graphqlUploadForm(file: Blob, filename: string, variables: { name?: string; folderId?: string } = {}): FormData {
  const form = new FormData();
  form.append(
    "operations",
    JSON.stringify({
      query:
        "mutation ($file: Upload!, $name: String, $folderId: ID) { uploadFile(file: $file, name: $name, folderId: $folderId) { id name size mimeType } }",
      variables: { file: null, ...variables },
    }),
  );
  form.append("map", JSON.stringify({ 0: ["variables.file"] }));
  form.append("0", file, filename);
  return form;
}

export interface GraphQLAnswer {
  status: number;
  body: {
    data?: { uploadFile: { id: string; name: string; size: number; mimeType: string } } | null;
    errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
  };
}

export async function postGraphQL(
  url: string,
  token: string | null,
  body: BodyInit,
  headers: Record<string, string> = {},
): Promise<GraphQLAnswer> {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), "apollo-require-preflight": "true", ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as GraphQLAnswer["body"] };
  } catch {
    throw new Error(`not JSON (HTTP ${response.status}): ${text.slice(0, 300)}`);
  }
}

/**
 * A GraphQL multipart body as a byte stream with no Content-Length (chunked), the file made of
 * `size` deterministic bytes: the gateway only learns the size by reading.
 */
export function streamedGraphQLUpload(size: number, seed: number): { body: ReadableStream<Uint8Array>; contentType: string } {
  const boundary = "----upload-test-boundary-7d3f";
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n` +
    JSON.stringify({ query: "mutation ($file: Upload!) { uploadFile(file: $file) { id size } }", variables: { file: null } }) +
    `\r\n--${boundary}\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.file"]}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="streamed.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  async function* parts() {
    yield Buffer.from(head);
    yield* deterministicBytes(size, seed);
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return {
    body: Readable.toWeb(Readable.from(parts())) as ReadableStream<Uint8Array>,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Upload temp dirs (src/uploads) left in `dir`. */
export async function leftoverUploads(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.startsWith(TEMP_PREFIX));
}

export { memoryOf, startGatewayProcess, type GatewayProcess } from "../helpers/process.ts";
