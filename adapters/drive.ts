// Drive product (docs/api.md "Upstreams"): upload (streamed multipart), metadata, download (streamed),
// search, shares.
import { z } from "zod";
import { optional } from "./common.ts";
import { path, type UpstreamBase } from "./upstream/base.ts";
import type { UpstreamCall, UpstreamClient, UpstreamDownload } from "./upstream/client.ts";
import type { UploadFile } from "./upstream/multipart.ts";

export const driveFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  mimeType: z.string(),
  size: z.number().int().nonnegative(),
  createdAt: z.string(),
  modifiedAt: z.string(),
  parentId: optional(z.string()),
  webUrl: z.string(),
});

export const driveSearchHitSchema = driveFileSchema.extend({ score: optional(z.number()) });

const searchResultSchema = z.object({ data: z.array(driveSearchHitSchema) });

export const sharePermissions = ["view", "comment", "edit"] as const;

export const shareSchema = z.object({
  id: z.string(),
  fileId: z.string(),
  url: z.string(),
  permission: z.enum(sharePermissions),
  expiresAt: optional(z.string()),
});

export type DriveFile = z.output<typeof driveFileSchema>;
export type DriveSearchHit = z.output<typeof driveSearchHitSchema>;
export type Share = z.output<typeof shareSchema>;
export type SharePermission = (typeof sharePermissions)[number];

export interface UploadBody {
  file: UploadFile;
  name?: string | undefined;
  folderId?: string | undefined;
}

export interface CreateShareBody {
  fileId: string;
  permission: SharePermission;
  emails?: string[] | undefined;
  expiresAt?: string | undefined;
}

export type Download = UpstreamDownload;

export interface DriveAdapter {
  upload(call: UpstreamCall, body: UploadBody): Promise<DriveFile>;
  getFile(call: UpstreamCall, id: string): Promise<DriveFile>;
  download(call: UpstreamCall, id: string): Promise<Download>;
  search(call: UpstreamCall, query: string): Promise<DriveSearchHit[]>;
  createShare(call: UpstreamCall, body: CreateShareBody): Promise<Share>;
}

export function createDriveAdapter(upstream: UpstreamClient, base: () => UpstreamBase): DriveAdapter {
  const product = "drive" as const;
  return {
    upload: async (call, { file, name, folderId }) =>
      upstream.upload(call, {
        product,
        base: base(),
        path: "/drive/v1/files",
        fields: { name, folderId },
        file: { ...file, fieldName: "file" },
        schema: driveFileSchema,
      }),
    getFile: async (call, id) =>
      upstream.json(call, { product, base: base(), method: "GET", path: path`/drive/v1/files/${id}`, schema: driveFileSchema }),
    download: async (call, id) =>
      upstream.download(call, { product, base: base(), path: path`/drive/v1/files/${id}`, query: { download: "true" } }),
    search: async (call, query) =>
      (
        await upstream.json(call, {
          product,
          base: base(),
          method: "POST",
          path: "/drive/v1/search",
          body: { query },
          schema: searchResultSchema,
        })
      ).data,
    createShare: async (call, body) =>
      upstream.json(call, { product, base: base(), method: "POST", path: "/drive/v1/shares", body, schema: shareSchema }),
  };
}
