// The list and what starts from it (docs/app.md "The list"): search and paging, a new document or
// spreadsheet, an import by file picker or drag and drop (.docx → a document; .xlsx, .csv → a
// spreadsheet), the editor's live preview, sign-out.
import { Hono } from "hono";
import { SHEETS_UPLOAD_LIMIT_BYTES } from "../../contract/spreadsheets.ts";
import { GatewayError } from "../../core/errors.ts";
import { spoolForm } from "../../uploads/index.ts";
import { checkCsrf } from "../csrf.ts";
import type { AppDeps, AppEnv } from "../env.ts";
import { contextOf, csrfOf, run } from "../operations.ts";
import { listPage } from "../pages/list.ts";
import { pageResponse, withNotice } from "../render.ts";
import { clearSessionCookie } from "../session.ts";

export const LIST_PAGE_SIZE = 50;
/** The largest file the import takes: a .docx's and a workbook's limit are the same (25 MB). */
export const IMPORT_LIMIT_BYTES = SHEETS_UPLOAD_LIMIT_BYTES;

const importerOf = (fileName: string) => {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  if (extension === "docx") return "documents.import" as const;
  if (extension === "xlsx" || extension === "csv") return "sheets.import" as const;
  throw new GatewayError("UNSUPPORTED_MEDIA_TYPE", "Import takes a .docx, .xlsx or .csv file");
};

export function itemRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { paths } = deps;
  app.get("/", async (c) => {
    const query = (c.req.query("q") ?? "").trim().slice(0, 255);
    const cursor = c.req.query("cursor") || undefined;
    const page = await deps.services.items.list(await contextOf(c, deps), { query: query || undefined, limit: LIST_PAGE_SIZE, cursor });
    const body = listPage({
      paths,
      csrf: csrfOf(c, deps),
      query,
      items: page.items,
      nextCursor: page.nextCursor,
      paged: cursor !== undefined,
    });
    return pageResponse(c, deps, query ? `Search: ${query}` : "Your documents", body);
  });
  app.post("/documents", async (c) => {
    const document = await run(c, deps, "documents.create", { name: "Untitled document", markdown: "" });
    return c.redirect(paths.document(document.id, "edit"), 303);
  });
  app.post("/spreadsheets", async (c) => {
    const spreadsheet = await run(c, deps, "sheets.create", { name: "Untitled spreadsheet" });
    return c.redirect(withNotice(paths.spreadsheet(spreadsheet.id), "created"), 303);
  });
  app.post("/import", async (c) => {
    const { form, cleanup } = await spoolForm(c.req.raw, {
      fileBytes: IMPORT_LIMIT_BYTES,
      fieldBytes: deps.bodyLimit,
      files: 1,
      fields: 4,
    });
    try {
      const token = form.get("_csrf");
      checkCsrf(c, deps, typeof token === "string" ? token : undefined);
      const file = form.get("file");
      if (!(file instanceof File) || file.size === 0) throw new GatewayError("BAD_USER_INPUT", "Choose a file to import");
      const operation = importerOf(file.name);
      const created = await run(c, deps, operation, { file });
      const kind = operation === "documents.import" ? "document" : "spreadsheet";
      return c.redirect(withNotice(paths.item(kind, created.id), "imported"), 303);
    } finally {
      await cleanup();
    }
  });
  app.post("/preview", async (c) => {
    const body = (await c.req.json().catch(() => undefined)) as { markdown?: unknown } | undefined;
    if (typeof body?.markdown !== "string") throw new GatewayError("BAD_USER_INPUT", "markdown: expected a string");
    return c.json({ html: deps.services.preview(body.markdown) });
  });
  app.post("/sign-out", async (c) => {
    const token = c.get("sessionToken");
    if (token) await deps.sessions.end(token);
    clearSessionCookie(c, deps);
    return c.redirect(withNotice(paths.signIn(), "signed-out"), 303);
  });
  return app;
}
