// A document's pages (docs/app.md "Documents"): as its reader sees it, the editor and its save
// (If-Match: a conflict shows both texts, nothing lost), an earlier version. The download,
// history, sharing and trash are the kinds' routes (./kinds.ts).
import { Hono, type Context } from "hono";
import { GatewayError, isGatewayError } from "../../core/errors.ts";
import { expectedVersionOf } from "../../rest/preconditions.ts";
import type { AppDeps, AppEnv } from "../env.ts";
import { csrfOf, run } from "../operations.ts";
import { documentPage, documentVersionPage } from "../pages/document.ts";
import { conflictPage, editorPage } from "../pages/editor.ts";
import { pageResponse, withNotice } from "../render.ts";
import { itemViewOf, kindRoutes, positive, recordOf } from "./kinds.ts";

/** The most a page reads of a document: more than the markdown a document may hold (400,000). */
const READ_ALL = 1_000_000;

const markdownOf = (c: Context<AppEnv>, deps: AppDeps, id: string) =>
  run(c, deps, "documents.read", { id, format: "markdown", maxChars: READ_ALL });

/** A textarea posts its line breaks as CRLF; the documents keep LF. */
const lf = (text: string) => text.replace(/\r\n?/g, "\n");

async function save(c: Context<AppEnv>, deps: AppDeps) {
  const id = c.req.param("id")!;
  const form = await c.req.parseBody();
  const markdown = typeof form["markdown"] === "string" ? lf(form["markdown"]) : undefined;
  const name = typeof form["name"] === "string" ? form["name"].trim() : undefined;
  if (markdown === undefined) throw new GatewayError("BAD_USER_INPUT", "markdown: the editor's text is missing");
  // The client layer sends If-Match; a form posted without it carries the version it was opened at.
  const basedOn = expectedVersionOf(c) ?? (typeof form["version"] === "string" ? positive(form["version"], "version") : undefined);
  try {
    await run(c, deps, "documents.update", { id, markdown, ...(name ? { name } : {}), ...(basedOn ? { expectedVersion: basedOn } : {}) });
  } catch (error) {
    if (!isGatewayError(error) || error.code !== "PRECONDITION_FAILED" || basedOn === undefined) throw error;
    const theirs = await markdownOf(c, deps, id);
    const body = conflictPage({
      paths: deps.paths,
      csrf: csrfOf(c, deps),
      id,
      mine: { name: name || theirs.name, markdown, basedOn },
      theirs: { name: theirs.name, markdown: theirs.text, version: theirs.version },
    });
    return pageResponse(c, deps, `Conflict: ${theirs.name}`, body, {}, 409);
  }
  return c.redirect(withNotice(deps.paths.document(id), "saved"), 303);
}

export function documentRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { paths } = deps;
  app.get("/:id", async (c) => {
    const id = c.req.param("id");
    const [record, read] = await Promise.all([recordOf(c, deps, "document", id), markdownOf(c, deps, id)]);
    const body = documentPage({
      ...itemViewOf(c, deps, id, record),
      body: deps.services.preview(read.text),
      truncated: read.truncated,
    });
    return pageResponse(c, deps, record.name, body);
  });
  app.get("/:id/edit", async (c) => {
    const id = c.req.param("id");
    const read = await markdownOf(c, deps, id);
    const body = editorPage({
      paths,
      csrf: csrfOf(c, deps),
      id,
      name: read.name,
      version: read.version,
      markdown: read.text,
      preview: deps.services.preview(read.text),
    });
    return pageResponse(c, deps, `Edit ${read.name}`, body, { script: "editor" });
  });
  app.post("/:id/edit", (c) => save(c, deps));
  app.get("/:id/history/:version", async (c) => {
    const id = c.req.param("id");
    const version = positive(c.req.param("version"), "version");
    const [record, read] = await Promise.all([
      recordOf(c, deps, "document", id),
      run(c, deps, "documents.readVersion", { id, version, format: "markdown", maxChars: READ_ALL }),
    ]);
    const body = documentVersionPage({
      paths,
      csrf: csrfOf(c, deps),
      id,
      name: read.name,
      version,
      current: record.version,
      body: deps.services.preview(read.text),
    });
    return pageResponse(c, deps, `${read.name}, version ${version}`, body);
  });
  app.route("/", kindRoutes(deps, "document"));
  return app;
}
