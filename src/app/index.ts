// The owner's application (docs/app.md): server-rendered pages at /app for the people who own the
// documents and spreadsheets — sign-in, the list, documents, spreadsheets, history, sharing and
// the trash — and a share link's page for its recipient. A surface like REST or MCP: every page
// runs the operations of the table through the one runner, as the signed-in person.
import { Hono } from "hono";
import { notFound } from "../core/errors.ts";
import type { HttpEnv } from "../http/env.ts";
import type { RequestHead } from "../http/node.ts";
import { csrfGuard } from "./csrf.ts";
import type { AppDeps, AppEnv } from "./env.ts";
import { securityHeaders } from "./headers.ts";
import { errorPage } from "./render.ts";
import { documentRoutes } from "./routes/documents.ts";
import { itemRoutes } from "./routes/items.ts";
import { signInRoutes } from "./routes/sign-in.ts";
import { spreadsheetRoutes } from "./routes/spreadsheets.ts";
import { trashRoutes } from "./routes/trash.ts";
import { requireSession } from "./session.ts";

export type { AppDeps } from "./env.ts";
export { SHARED_BASE, sharedPageRoutes } from "./routes/shared.ts";
export { loadAppAssets } from "./assets.ts";
export { createPaths } from "./paths.ts";

/** Where the application lives. */
export const APP_BASE = "/app";

export function createAppRoutes(deps: AppDeps): Hono<HttpEnv> {
  const app = new Hono<AppEnv>();
  app.use(securityHeaders());
  app.get("/assets/:file", (c) => {
    const asset = deps.assets.byFile(c.req.param("file"));
    if (!asset) return c.notFound();
    return c.body(asset.body, 200, { "Content-Type": asset.type, "Cache-Control": "public, max-age=31536000, immutable" });
  });
  app.route("/", signInRoutes(deps));
  const signedIn = new Hono<AppEnv>();
  signedIn.use(requireSession(deps), csrfGuard(deps));
  signedIn.route("/", itemRoutes(deps));
  signedIn.route("/documents", documentRoutes(deps));
  signedIn.route("/spreadsheets", spreadsheetRoutes(deps));
  signedIn.route("/", trashRoutes(deps));
  app.route("/", signedIn);
  app.onError((error, c) => errorPage(c, deps, error));
  // What no route answers is a page too (the gateway's own 404 is JSON).
  app.all("*", (c) => errorPage(c, deps, notFound("Page")));
  return app as unknown as Hono<HttpEnv>;
}

/** The import streams its file to disk under its own limit, not the server's body limit. */
export const appOwnsBodyLimit = (request: RequestHead): boolean => request.method === "POST" && request.path === `${APP_BASE}/import`;
