// A drive file's bytes for an import (sheets.create with driveFileId, drive_read): fetched from the
// drive product with the caller's access token, and refused past a limit as they arrive.
import type { Readable } from "node:stream";
import type { RequestContext } from "../core/context.ts";
import { GatewayError } from "../core/errors.ts";
import { withContractErrors } from "./adapter-errors.ts";
import { requireAccessToken, type ProductBackend } from "./products.ts";

export interface DriveFileBytes {
  bytes: Uint8Array;
  filename?: string | undefined;
  contentType: string;
}

async function readAtMost(body: Readable, limit: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    total += buffer.byteLength;
    if (total > limit) {
      body.destroy();
      throw new GatewayError("PAYLOAD_TOO_LARGE", `The drive file is over the ${limit}-byte limit`, { details: { limit } });
    }
    chunks.push(buffer);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

export function driveFiles(products: ProductBackend) {
  return (ctx: RequestContext, fileId: string, limit: number): Promise<DriveFileBytes> =>
    withContractErrors(async () => {
      const call = requireAccessToken(ctx);
      const file = await products.adapters.drive.getFile(call, fileId);
      if (file.size > limit) {
        throw new GatewayError("PAYLOAD_TOO_LARGE", `The drive file is ${file.size} bytes; the limit is ${limit}`, {
          details: { limit, size: file.size },
        });
      }
      const download = await products.adapters.drive.download(call, fileId);
      return { bytes: await readAtMost(download.body, limit), filename: file.name, contentType: download.contentType || file.mimeType };
    });
}
