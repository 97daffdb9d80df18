// REST documents interface (docs/api.md "REST documents interface"): each route is one service call and its translation.
import contentDisposition from "content-disposition";
import { Hono, type Context } from "hono";
import type { ContextFactory } from "../core/request-context.ts";
import { routeContext } from "./context.ts";
import { GatewayError } from "../core/errors.ts";
import type { HttpEnv } from "../http/env.ts";
import type { DocumentsService } from "../services/documents.ts";
import { methodNotAllowed } from "./methods.ts";

/**
 * The download's file name. A name may contain "/" and "\\" ("Q3/Q4 review"), but content-disposition
 * keeps only path.basename of it ("Q4 review.docx") and browsers treat either as a path separator,
 * so both become "_".
 */
const downloadFilename = (name: string): string => `${name.replace(/[/\\]/g, "_")}.docx`;

/** Plain-ASCII stand-in for old clients; the exact name travels in filename* (RFC 6266). */
const asciiFilename = (name: string): string =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "_")
    .replace(/["\\]/g, "'");

export const DOCX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

async function readJson(c: Context<HttpEnv>): Promise<unknown> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    throw new GatewayError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json");
  }
  try {
    return await c.req.json();
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw new GatewayError("BAD_USER_INPUT", "The body is not valid JSON");
  }
}

export function documentsRoutes(deps: { documents: DocumentsService; createContext: ContextFactory }): Hono<HttpEnv> {
  const { documents } = deps;
  const context = routeContext(deps.createContext);

  return new Hono<HttpEnv>()
    .post("/", async (c) => {
      const ctx = await context(c);
      const body = await readJson(c);
      const idempotencyKey = c.req.header("idempotency-key");
      const input =
        body && typeof body === "object" && !Array.isArray(body) && idempotencyKey !== undefined
          ? { ...body, idempotencyKey }
          : body;
      const { document, replayed } = await documents.create(ctx, input as never);
      c.header("Location", document.url);
      if (replayed) c.header("Idempotent-Replayed", "true");
      return c.json(document, 201);
    })
    .get("/", async (c) => {
      const ctx = await context(c);
      return c.json(await documents.list(ctx, c.req.query()));
    })
    .get("/:id", async (c) => {
      const ctx = await context(c);
      return c.json(await documents.read(ctx, { ...c.req.query(), id: c.req.param("id") }));
    })
    .get("/:id/content", async (c) => {
      const ctx = await context(c);
      const { name, docx } = await documents.download(ctx, c.req.param("id"));
      const filename = downloadFilename(name);
      return c.body(docx as Uint8Array<ArrayBuffer>, 200, {
        "Content-Type": DOCX_MEDIA_TYPE,
        "Content-Length": String(docx.byteLength),
        "Content-Disposition": contentDisposition(filename, { type: "attachment", fallback: asciiFilename(filename) }),
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      });
    })
    // Living documents (PUT/PATCH/DELETE on a document) are planned, not implemented: until then
    // the other methods are 405 with what is allowed.
    .all("/", methodNotAllowed("GET", "POST"))
    .all("/:id", methodNotAllowed("GET"))
    .all("/:id/content", methodNotAllowed("GET"));
}
