// The one drive field that is not an operation: where the gateway streams a file's bytes. Every
// other product field is derived from the operation table (operations.ts).
import { fileDownloadUrl } from "../src/services/products.ts";
import type { Resolvers } from "./types.generated.ts";

export const driveResolvers: Resolvers = {
  DriveFile: {
    downloadUrl: (file, _args, { services }) => services.publicUrl + fileDownloadUrl(file.id),
  },
};
