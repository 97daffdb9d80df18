// GET /api/v1/files/{id}/content: a drive file's bytes, streamed from the drive product with the
// caller's access token. GraphQL carries JSON, so this is where `DriveFile.downloadUrl` points (fileDownloadUrl).
import { Readable } from "node:stream";
import { Hono } from "hono";
import type { ContextFactory } from "../core/request-context.ts";
import type { HttpEnv } from "../http/env.ts";
import type { ProductServices } from "../services/products.ts";
import { routeContext } from "./context.ts";
import { methodNotAllowed } from "./methods.ts";

export function filesRoutes(deps: { products: ProductServices; createContext: ContextFactory }): Hono<HttpEnv> {
  const context = routeContext(deps.createContext);
  return new Hono<HttpEnv>()
    .get("/:id/content", async (c) => {
      const ctx = await context(c);
      const download = await deps.products.files.download(ctx, { id: c.req.param("id") });
      const headers: Record<string, string> = {
        "Content-Type": download.contentType,
        // The product's own file name when it gave one; the bytes are never rendered inline.
        "Content-Disposition": download.contentDisposition ?? "attachment",
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      };
      if (download.contentLength !== undefined) headers["Content-Length"] = String(download.contentLength);
      // Streamed through: a client that hangs up destroys the upstream body (and its request).
      return new Response(Readable.toWeb(download.body) as ReadableStream<Uint8Array>, { status: 200, headers });
    })
    .all("/:id/content", methodNotAllowed("GET"));
}
