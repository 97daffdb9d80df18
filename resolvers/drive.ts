// The one drive field that is not an operation: where the gateway streams a file's bytes. Every
// other product field is derived from the operation table (products.ts).
import { fileDownloadUrl, type DriveFile, type DriveSearchHit } from "../src/services/products.ts";
import type { Resolvers } from "./types.generated.ts";

/** A drive file as the products give it; search hits also carry a score. */
export type DriveFileParent = DriveFile & Partial<Pick<DriveSearchHit, "score">>;

export const driveResolvers: Resolvers = {
  DriveFile: {
    downloadUrl: (file, _args, { services }) => services.publicUrl + fileDownloadUrl(file.id),
  },
};
