// GET /api/v1/shared/{token} for a browser (Accept: text/html): the recipient's page. Any other
// Accept falls through to the REST route and its JSON (contract §4/§11). The read runs the same
// operation as the REST route (shared.read), anonymously: the token is the credential.
import { Hono, type Context } from "hono";
import type { HttpEnv } from "../../http/env.ts";
import { prefersHtml } from "../../http/index-page.ts";
import { requestSignal } from "../../http/node.ts";
import { gridCellsOf } from "../cells.ts";
import type { AppDeps, AppEnv } from "../env.ts";
import { securityHeaders } from "../headers.ts";
import { page } from "../layout.ts";
import { sharedDocumentPage, sharedSheetPage } from "../pages/shared.ts";
import { errorPage } from "../render.ts";

/** Where the page lives: under the REST base, before the REST routes. */
export const SHARED_BASE = "/api/v1/shared";

async function sharedPage(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  const token = c.req.param("token")!;
  const ctx = await deps.createContext({
    requestId: c.get("requestId"),
    authorization: null,
    anonymous: true,
    signal: requestSignal(c),
    clientAddress: c.get("clientAddress"),
  });
  const input = { token, format: "markdown", maxChars: 1_000_000, maxCells: 5_000 };
  const read = await deps.services.operations.run("shared.read", ctx, input);
  const downloadHref = `${deps.paths.prefix}${SHARED_BASE}/${encodeURIComponent(token)}/content`;
  const chrome = { paths: deps.paths, assets: deps.assets };
  if ("kind" in read) {
    const { spreadsheet } = read;
    // The text each cell shows, as the owner's grid has it (../cells.ts): a second read of the same range.
    const shown = await deps.services.operations.run("shared.read", ctx, { ...input, range: read.range, render: "formatted" });
    const body = sharedSheetPage({
      name: spreadsheet.name,
      updatedAt: spreadsheet.updatedAt,
      range: read.range,
      values: gridCellsOf(read.values, "kind" in shown ? shown.values : []),
      truncated: read.truncated,
      downloadHref,
    });
    return c.html(page({ ...chrome, title: spreadsheet.name }, body));
  }
  const body = sharedDocumentPage({ name: read.name, updatedAt: read.updatedAt, body: deps.services.preview(read.text), downloadHref });
  return c.html(page({ ...chrome, title: read.name }, body));
}

export function sharedPageRoutes(deps: AppDeps): Hono<HttpEnv> {
  const app = new Hono<AppEnv>();
  const headers = securityHeaders();
  app.get("/:token", async (c, next) => {
    if (!prefersHtml(c.req.header("accept"))) return next();
    await headers(c, async () => {
      try {
        c.res = await sharedPage(c, deps);
      } catch (error) {
        c.res = await errorPage(c, deps, error);
      }
      c.res.headers.set("Vary", "Accept");
    });
    return c.res;
  });
  return app as unknown as Hono<HttpEnv>;
}
