// The trash (docs/app.md "Trash"): both kinds together, restore or delete for good.
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../env.ts";
import { csrfOf, run } from "../operations.ts";
import { trashPage } from "../pages/trash.ts";
import { pageResponse, withNotice } from "../render.ts";

export function trashRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { paths } = deps;
  app.get("/trash", async (c) => {
    const cursor = c.req.query("cursor") || undefined;
    const page = await run(c, deps, "trash.list", { limit: 50, ...(cursor ? { cursor } : {}) });
    const entries = page.documents.map((entry) => ({ kind: entry.kind, id: entry.id, name: entry.name, deletedAt: entry.deletedAt }));
    return pageResponse(c, deps, "Trash", trashPage({ paths, csrf: csrfOf(c, deps), entries, nextCursor: page.nextCursor }));
  });
  app.post("/trash/:id/restore", async (c) => {
    await run(c, deps, "trash.restore", { id: c.req.param("id") });
    return c.redirect(withNotice(`${paths.app}/trash`, "restored"), 303);
  });
  app.post("/trash/:id/delete", async (c) => {
    await run(c, deps, "trash.purge", { id: c.req.param("id") });
    return c.redirect(withNotice(`${paths.app}/trash`, "deleted"), 303);
  });
  return app;
}
