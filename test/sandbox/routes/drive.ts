// Drive: POST /drive/v1/files (multipart, streamed to disk), GET /drive/v1/files/:id[?download=true],
// POST /drive/v1/search, POST /drive/v1/shares.
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { z } from "zod";
import { jsonBody } from "../body.ts";
import { HttpError, notFound } from "../errors.ts";
import { json, route, type Reply, type Route, type RouteContext } from "../http.ts";
import type { DriveFile, Share } from "../model.ts";
import { mimeTypeFor, webUrlFor } from "../seed.ts";
import { email, isoDateTime, nonEmpty, parseWith } from "../validate.ts";

const searchSchema = z.object({ query: nonEmpty });
const shareSchema = z.object({
  fileId: nonEmpty,
  permission: z.enum(["view", "comment", "edit"]),
  emails: z.array(email).optional(),
  expiresAt: isoDateTime.optional(),
});

function upload(ctx: RouteContext): Reply {
  const body = ctx.body;
  if (body.kind === "error") throw body.error;
  if (body.kind !== "multipart") throw new HttpError(415, "expected multipart/form-data with a `file` part");
  const part = body.files.find((f) => f.fieldName === "file");
  if (!part) throw new HttpError(400, "file: a multipart part named `file` (with a filename) is required");
  const store = ctx.store;
  const folderId = body.fields.folderId?.trim() || undefined;
  if (folderId !== undefined && !store.folders.some((f) => f.id === folderId)) throw notFound(`folder ${folderId}`);
  const name = body.fields.name?.trim() || part.filename || "untitled";
  const now = new Date().toISOString();
  const id = store.newId("file");
  const mimeType = part.contentType && part.contentType !== "application/octet-stream" ? part.contentType : mimeTypeFor(name);
  const file: DriveFile = {
    id,
    name,
    mimeType,
    size: part.size,
    createdAt: now,
    modifiedAt: now,
    ...(folderId ? { parentId: folderId } : {}),
    webUrl: webUrlFor(id),
  };
  store.files.set(id, { file, sha256: part.sha256, source: { kind: "path", path: part.tempPath } });
  store.keptUploads.add(part.tempPath);
  return json(201, file);
}

function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

function getFile(ctx: RouteContext): Reply {
  const id = ctx.params.id as string;
  const stored = ctx.store.files.get(id);
  if (!stored) throw notFound(`file ${id}`);
  const download = ctx.query.get("download");
  if (download !== "true" && download !== "1") return json(200, stored.file);
  const stream = stored.source.kind === "buffer" ? Readable.from([stored.source.data]) : createReadStream(stored.source.path);
  return {
    kind: "stream",
    status: 200,
    stream,
    headers: {
      "content-type": stored.file.mimeType,
      "content-length": String(stored.file.size),
      "content-disposition": contentDisposition(stored.file.name),
      "x-sha256": stored.sha256,
    },
  };
}

/** Case-insensitive match on the file name: score = share of query words found in it. */
function search(ctx: RouteContext): Reply {
  const { query } = parseWith(searchSchema, jsonBody(ctx.body));
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const data = [...ctx.store.files.values()]
    .map(({ file }) => {
      const name = file.name.toLowerCase();
      const hits = words.filter((w) => name.includes(w)).length;
      return { ...file, score: Math.round((hits / words.length) * 1000) / 1000 };
    })
    .filter((f) => f.score > 0)
    .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return json(200, { data });
}

function share(ctx: RouteContext): Reply {
  const input = parseWith(shareSchema, jsonBody(ctx.body));
  if (!ctx.store.files.has(input.fileId)) throw notFound(`file ${input.fileId}`);
  if (input.expiresAt !== undefined && Date.parse(input.expiresAt) <= Date.now())
    throw new HttpError(400, "expiresAt: must be in the future");
  const id = ctx.store.newId("shr");
  const result: Share = {
    id,
    fileId: input.fileId,
    url: `https://drive.sandbox.example/s/${id}`,
    permission: input.permission,
    ...(input.expiresAt !== undefined ? { expiresAt: new Date(input.expiresAt).toISOString() } : {}),
  };
  ctx.store.shares.push(result);
  return json(201, result);
}

export const driveRoutes: Route[] = [
  route("POST", "/drive/v1/files", upload),
  route("GET", "/drive/v1/files/:id", getFile),
  route("POST", "/drive/v1/search", search),
  route("POST", "/drive/v1/shares", share),
];
