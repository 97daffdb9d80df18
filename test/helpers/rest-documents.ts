// A small REST client for the documents API in tests: one gateway, one credential (or none), and
// the bodies it answers. Shared by test/rest/living-documents.test.ts and other-writers.test.ts.
import { expect } from "vitest";

export const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

export interface Record_ {
  id: string;
  name: string;
  version: number;
  sizeBytes: number;
  characters: number;
  url: string;
  downloadUrl: string;
  createdAt: string;
  updatedAt: string;
}
export interface ReadBody {
  id: string;
  name: string;
  version: number;
  format: string;
  text: string;
  truncated: boolean;
  totalChars: number;
}
export interface VersionBody {
  version: number;
  name: string;
  createdAt: string;
  createdBy: string;
  sizeBytes: number;
  characters: number;
  source: string;
}
export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

/** A small REST client for one gateway and one credential (or none). */
export function client(base: string, key: string | null) {
  const auth: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { ...auth, ...(init.headers as Record<string, string> | undefined) } });
  const withJson = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(path, { method, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  return {
    call,
    get: (path: string, headers: Record<string, string> = {}) => call(path, { headers }),
    post: (path: string, body: unknown, headers?: Record<string, string>) => withJson("POST", path, body, headers),
    put: (path: string, body: unknown, headers?: Record<string, string>) => withJson("PUT", path, body, headers),
    patch: (path: string, body: unknown, headers?: Record<string, string>) => withJson("PATCH", path, body, headers),
    del: (path: string, headers: Record<string, string> = {}) => call(path, { method: "DELETE", headers }),
    form: (
      method: "POST" | "PUT",
      path: string,
      fields: Record<string, string>,
      file?: { bytes: Uint8Array; name: string },
      headers: Record<string, string> = {},
    ) => {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.set(key, value);
      if (file) form.set("file", new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: DOCX_TYPE }), file.name);
      return call(path, { method, headers, body: form });
    },
    async create(name: string, markdown: string): Promise<Record_> {
      const response = await withJson("POST", "/api/v1/documents", { name, markdown });
      expect(response.status).toBe(201);
      return (await response.json()) as Record_;
    },
    async text(id: string, query = ""): Promise<ReadBody> {
      const response = await call(`/api/v1/documents/${id}${query}`);
      expect(response.status).toBe(200);
      return (await response.json()) as ReadBody;
    },
    async bytes(path: string): Promise<Uint8Array> {
      const response = await call(path);
      expect(response.status).toBe(200);
      return new Uint8Array(await response.arrayBuffer());
    },
    async ids(): Promise<string[]> {
      const response = await call("/api/v1/documents?limit=100");
      expect(response.status).toBe(200);
      return ((await response.json()) as { documents: { id: string }[] }).documents.map((d) => d.id);
    },
  };
}
export type Client = ReturnType<typeof client>;

export async function errorOf(response: Response, status: number, code: string): Promise<ErrorBody> {
  const body = (await response.json()) as ErrorBody;
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code });
  return body;
}
