import { fileDownloadUrl, type DriveFile, type DriveSearchHit } from "../src/services/products.ts";
import { defined, orNull } from "./nullable.ts";
import type { Resolvers } from "./types.generated.ts";

/** A drive file as the products give it; search hits also carry a score. */
export type DriveFileParent = DriveFile & Partial<Pick<DriveSearchHit, "score">>;

/**
 * The upload's bytes for the service: a native File as is; yoga's ponyfill File (not a Blob to
 * the service's checks) as its byte stream plus its name, type and size.
 */
function uploadSource(upload: File): { file: File | ReadableStream<Uint8Array>; filename?: string; contentType?: string; size?: number } {
  if (upload instanceof Blob) return { file: upload };
  const file: Pick<File, "stream" | "name" | "type" | "size"> = upload;
  return {
    file: file.stream(),
    ...(file.name ? { filename: file.name } : {}),
    ...(file.type ? { contentType: file.type } : {}),
    size: file.size,
  };
}

export const driveResolvers: Resolvers = {
  Query: {
    file: async (_root, { id }, { services, request }) => orNull(services.products.files.get(await request(), { id })),
    searchFiles: async (_root, { query }, { services, request }) => services.products.files.search(await request(), { query }),
  },
  Mutation: {
    uploadFile: async (_root, { file, name, folderId }, { services, request }) =>
      services.products.files.upload(await request(), { ...uploadSource(file), ...defined({ name, folderId }) }),
    createShare: async (_root, { input }, { services, request }) => services.products.files.share(await request(), defined(input) as never),
  },
  DriveFile: {
    downloadUrl: (file, _args, { services }) => services.publicUrl + fileDownloadUrl(file.id),
  },
};
