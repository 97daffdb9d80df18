// REST documents interface (docs/api.md "REST documents interface" and "Living documents"): each
// route is one service call and its translation to HTTP (status, ETag, If-Match, downloads).
import { Hono, type Context } from "hono";
import type { RequestContext } from "../core/context.ts";
import type { ContextFactory } from "../core/request-context.ts";
import { GatewayError } from "../core/errors.ts";
import type { HttpEnv } from "../http/env.ts";
import { DOCX_UPLOAD_LIMIT_BYTES, etagOf, type DocumentsService, type Download } from "../services/documents.ts";
import { isMultipartType, spoolForm } from "../uploads/index.ts";
import { formDocx, formFields } from "../uploads/docx-form.ts";
import { routeContext } from "./context.ts";
import { downloadResponse } from "./download.ts";
import { methodNotAllowed } from "./methods.ts";
import { expectedVersionOf, notModified } from "./preconditions.ts";

const isMultipart = (c: Context<HttpEnv>) => isMultipartType(c.req.header("content-type"));

async function readJson(c: Context<HttpEnv>): Promise<unknown> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    throw new GatewayError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json (or multipart/form-data with a .docx file)");
  }
  try {
    return await c.req.json();
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw new GatewayError("BAD_USER_INPUT", "The body is not valid JSON");
  }
}

const asObject = (body: unknown): Record<string, unknown> => {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new GatewayError("BAD_USER_INPUT", "The body must be a JSON object");
  return body as Record<string, unknown>;
};

/** A multipart body with one .docx, streamed to a temp file under the .docx limit; removed after `use`. */
async function withDocxForm<T>(c: Context<HttpEnv>, bodyLimit: number, use: (form: FormData) => Promise<T>): Promise<T> {
  const { form, cleanup } = await spoolForm(c.req.raw, { fileBytes: DOCX_UPLOAD_LIMIT_BYTES, fieldBytes: bodyLimit, files: 1 });
  try {
    return await use(form);
  } finally {
    await cleanup();
  }
}

export interface DocumentsRoutesDeps {
  documents: DocumentsService;
  createContext: ContextFactory;
  /** BODY_LIMIT_BYTES: the text fields of a multipart upload. */
  bodyLimit: number;
}

export function documentsRoutes(deps: DocumentsRoutesDeps): Hono<HttpEnv> {
  const { documents } = deps;
  const context = routeContext(deps.createContext);
  const id = (c: Context<HttpEnv>) => c.req.param("id") ?? "";
  /** A record with its ETag. */
  const record = (c: Context<HttpEnv>, document: { version: number }, status: 200 | 201 = 200) => {
    c.header("ETag", etagOf(document.version));
    return c.json(document, status);
  };
  const download = (c: Context<HttpEnv>, file: Download) => downloadResponse(file, etagOf(file.version));

  return (
    new Hono<HttpEnv>()
      .post("/", async (c) => {
        const ctx = await context(c);
        const idempotencyKey = c.req.header("idempotency-key");
        const { document, replayed } = isMultipart(c)
          ? await withDocxForm(c, deps.bodyLimit, async (form) => {
              const fields = formFields(form, ["name"]);
              return documents.import(
                ctx,
                { ...fields, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) },
                await formDocx(form),
              );
            })
          : await documents.create(ctx, {
              ...asObject(await readJson(c)),
              ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
            } as never);
        c.header("Location", document.url);
        if (replayed) c.header("Idempotent-Replayed", "true");
        return record(c, document, 201);
      })
      .get("/", async (c) => {
        const ctx = await context(c);
        return c.json(await documents.list(ctx, c.req.query()));
      })
      .get("/:id", async (c) => {
        const ctx = await context(c);
        const body = await documents.read(ctx, { ...c.req.query(), id: id(c) });
        if (notModified(c, body.version)) return c.body(null, 304, { ETag: etagOf(body.version) });
        return record(c, body);
      })
      .put("/:id", async (c) => {
        const ctx = await context(c);
        const expectedVersion = expectedVersionOf(c);
        const document = isMultipart(c)
          ? await withDocxForm(c, deps.bodyLimit, async (form) =>
              documents.updateFromDocx(ctx, { ...formFields(form, ["name"]), id: id(c), expectedVersion }, await formDocx(form)),
            )
          : await documents.update(ctx, {
              ...asObject(await readJson(c)),
              id: id(c),
              ...(expectedVersion === undefined ? {} : { expectedVersion }),
            } as never);
        return record(c, document);
      })
      .patch("/:id", async (c) => {
        const ctx = await context(c);
        const expectedVersion = expectedVersionOf(c);
        const body = asObject(await readJson(c));
        return record(
          c,
          await documents.rename(ctx, { ...body, id: id(c), ...(expectedVersion === undefined ? {} : { expectedVersion }) } as never),
        );
      })
      .delete("/:id", async (c) => {
        const ctx = await context(c);
        const expectedVersion = expectedVersionOf(c);
        await documents.delete(ctx, { id: id(c), ...(expectedVersion === undefined ? {} : { expectedVersion }) });
        return c.body(null, 204);
      })
      .get("/:id/content", async (c) => {
        const ctx = await context(c);
        return download(c, await documents.download(ctx, id(c)));
      })
      .get("/:id/versions", async (c) => {
        const ctx = await context(c);
        return c.json(await documents.versions(ctx, { ...c.req.query(), id: id(c) }));
      })
      .get("/:id/versions/:version", async (c) => {
        const ctx = await context(c);
        return c.json(await documents.readVersion(ctx, { ...c.req.query(), id: id(c), version: c.req.param("version") } as never));
      })
      .get("/:id/versions/:version/content", async (c) => {
        const ctx = await context(c);
        return download(c, await documents.downloadVersion(ctx, { id: id(c), version: c.req.param("version") }));
      })
      .post("/:id/versions/:version/restore", async (c) => {
        const ctx = await context(c);
        const expectedVersion = expectedVersionOf(c);
        return record(
          c,
          await documents.restoreVersion(ctx, {
            id: id(c),
            version: c.req.param("version") as never,
            ...(expectedVersion === undefined ? {} : { expectedVersion }),
          }),
        );
      })
      .post("/:id/shares", async (c) => {
        const ctx = await context(c);
        const body = c.req.header("content-length") === "0" || !c.req.header("content-type") ? {} : asObject(await readJson(c));
        const share = await documents.share(ctx, { ...body, id: id(c) } as never);
        c.header("Cache-Control", "no-store");
        return c.json(share, 201);
      })
      .get("/:id/shares", async (c) => {
        const ctx = await context(c);
        return c.json(await documents.shares(ctx, { id: id(c) }));
      })
      .delete("/:id/shares/:shareId", async (c) => {
        const ctx = await context(c);
        await documents.revokeShare(ctx, { id: id(c), shareId: c.req.param("shareId") });
        return c.body(null, 204);
      })
      // Other methods on these paths are 405 with what is allowed.
      .all("/", methodNotAllowed("GET", "POST"))
      .all("/:id", methodNotAllowed("GET", "PUT", "PATCH", "DELETE"))
      .all("/:id/content", methodNotAllowed("GET"))
      .all("/:id/versions", methodNotAllowed("GET"))
      .all("/:id/versions/:version", methodNotAllowed("GET"))
      .all("/:id/versions/:version/content", methodNotAllowed("GET"))
      .all("/:id/versions/:version/restore", methodNotAllowed("POST"))
      .all("/:id/shares", methodNotAllowed("GET", "POST"))
      .all("/:id/shares/:shareId", methodNotAllowed("DELETE"))
  );
}

/** GET/DELETE /api/v1/trash…: the caller's deleted documents (docs/api.md "Living documents"). */
export function trashRoutes(deps: { documents: DocumentsService; createContext: ContextFactory }): Hono<HttpEnv> {
  const { documents } = deps;
  const context = routeContext(deps.createContext);
  return new Hono<HttpEnv>()
    .get("/", async (c) => c.json(await documents.trash(await context(c), c.req.query())))
    .post("/:id/restore", async (c) => {
      const document = await documents.restore(await context(c), { id: c.req.param("id") });
      c.header("ETag", etagOf(document.version));
      return c.json(document);
    })
    .delete("/:id", async (c) => {
      await documents.purge(await context(c), { id: c.req.param("id") });
      return c.body(null, 204);
    })
    .all("/", methodNotAllowed("GET"))
    .all("/:id/restore", methodNotAllowed("POST"))
    .all("/:id", methodNotAllowed("DELETE"));
}

/**
 * GET /api/v1/shared/{token}[/content]: a share link, the only credential-free documents route.
 * The token is the credential; requests are limited per client address like any unverified caller.
 */
export function sharedRoutes(deps: { documents: DocumentsService; createContext: ContextFactory }): Hono<HttpEnv> {
  const { documents } = deps;
  const context = (c: Context<HttpEnv>): Promise<RequestContext> =>
    deps.createContext({
      requestId: c.get("requestId"),
      authorization: null,
      anonymous: true,
      signal: c.req.raw.signal,
      clientAddress: c.get("clientAddress"),
    });
  const noStore = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
  return new Hono<HttpEnv>()
    .get("/:token", async (c) => {
      const body = await documents.readShared(await context(c), { ...c.req.query(), token: c.req.param("token") });
      return c.json(body, 200, { ...noStore, ETag: etagOf(body.version) });
    })
    .get("/:token/content", async (c) => {
      const file = await documents.downloadShared(await context(c), c.req.param("token"));
      const response = downloadResponse(file, etagOf(file.version));
      response.headers.set("Referrer-Policy", "no-referrer");
      return response;
    })
    .all("/:token", methodNotAllowed("GET"))
    .all("/:token/content", methodNotAllowed("GET"));
}
