// What documents and spreadsheets have alike in the application (docs/app.md): the download, the
// history and restoring a version, share links, moving to the trash. Each route runs the kind's
// own operation.
import { Hono, type Context } from "hono";
import { GatewayError, notFound } from "../../core/errors.ts";
import { downloadResponse } from "../../rest/download.ts";
import { etagOf } from "../../rest/preconditions.ts";
import type { AppDeps, AppEnv } from "../env.ts";
import { csrfOf, run } from "../operations.ts";
import { historyPage } from "../pages/history.ts";
import type { ItemView } from "../pages/parts.ts";
import { EXPIRY_CHOICES, sharePage } from "../pages/share.ts";
import { pageResponse, withNotice } from "../render.ts";

export type ItemKind = "document" | "spreadsheet";

export const kindOps = {
  document: {
    get: "documents.get",
    download: "documents.download",
    versions: "documents.versions",
    downloadVersion: "documents.downloadVersion",
    restoreVersion: "documents.restoreVersion",
    share: "documents.share",
    shares: "documents.shares",
    revokeShare: "documents.revokeShare",
    delete: "documents.delete",
  },
  spreadsheet: {
    get: "sheets.get",
    download: "sheets.download",
    versions: "sheets.versions",
    downloadVersion: "sheets.downloadVersion",
    restoreVersion: "sheets.restoreVersion",
    share: "sheets.share",
    shares: "sheets.shares",
    revokeShare: "sheets.revokeShare",
    delete: "sheets.delete",
  },
} as const;

/** The item's record; NOT_FOUND when it is not the caller's or not live. */
export async function recordOf(c: Context<AppEnv>, deps: AppDeps, kind: ItemKind, id: string) {
  const record = await run(c, deps, kindOps[kind].get, { id });
  if (!record) throw notFound(kind === "document" ? "Document" : "Spreadsheet");
  return record;
}

/** What every page of one item shows of it (its record, or the version read). */
export function itemViewOf(c: Context<AppEnv>, deps: AppDeps, id: string, item: Omit<ItemView, "paths" | "csrf" | "id">): ItemView {
  return { paths: deps.paths, csrf: csrfOf(c, deps), id, name: item.name, version: item.version, updatedAt: item.updatedAt };
}

/** A positive integer from a path or form field, else BAD_USER_INPUT naming it. */
export function positive(value: unknown, field: string): number {
  const n = typeof value === "string" && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) throw new GatewayError("BAD_USER_INPUT", `${field}: expected a positive integer`);
  return n;
}

const formField = async (c: Context<AppEnv>, name: string): Promise<string | undefined> => {
  const value = (await c.req.parseBody())[name];
  return typeof value === "string" ? value : undefined;
};

/** A stored file (.docx, .xlsx) as an attachment. */
const download = (file: Parameters<typeof downloadResponse>[0]) => downloadResponse(file, etagOf(file.version));

function historyRoutes(app: Hono<AppEnv>, deps: AppDeps, kind: ItemKind): void {
  const ops = kindOps[kind];
  app.get("/:id/history", async (c) => {
    const id = c.req.param("id");
    const record = await recordOf(c, deps, kind, id);
    const cursor = c.req.query("cursor") || undefined;
    const page = await run(c, deps, ops.versions, { id, limit: 100, ...(cursor ? { cursor } : {}) });
    const body = historyPage({
      paths: deps.paths,
      csrf: csrfOf(c, deps),
      kind,
      id,
      name: record.name,
      current: record.version,
      versions: page.versions,
      nextCursor: page.nextCursor,
    });
    return pageResponse(c, deps, `History of ${record.name}`, body);
  });
  app.get("/:id/history/:version/download", async (c) =>
    download(await run(c, deps, ops.downloadVersion, { id: c.req.param("id"), version: positive(c.req.param("version"), "version") })),
  );
  app.post("/:id/history/:version/restore", async (c) => {
    const id = c.req.param("id");
    const current = await formField(c, "current");
    await run(c, deps, ops.restoreVersion, {
      id,
      version: positive(c.req.param("version"), "version"),
      ...(current ? { expectedVersion: positive(current, "current") } : {}),
    });
    return c.redirect(withNotice(deps.paths.item(kind, id), "version-restored"), 303);
  });
}

function shareRoutes(app: Hono<AppEnv>, deps: AppDeps, kind: ItemKind): void {
  const ops = kindOps[kind];
  const show = async (c: Context<AppEnv>, created?: { url: string; expiresAt: string }) => {
    const id = c.req.param("id")!;
    const record = await recordOf(c, deps, kind, id);
    const { shares } = await run(c, deps, ops.shares, { id });
    const body = sharePage({ paths: deps.paths, csrf: csrfOf(c, deps), kind, id, name: record.name, created, shares });
    return pageResponse(c, deps, `Share ${record.name}`, body);
  };
  app.get("/:id/share", (c) => show(c));
  app.post("/:id/share", async (c) => {
    const seconds = Number(await formField(c, "expiresIn"));
    if (!EXPIRY_CHOICES.some((choice) => choice.seconds === seconds))
      throw new GatewayError("BAD_USER_INPUT", "Expires in: choose one of the offered durations");
    const share = await run(c, deps, ops.share, { id: c.req.param("id"), expiresInSeconds: seconds });
    // The token is in the link and shown only now: the page is the answer to the post, not a redirect.
    return show(c, { url: deps.paths.absolute(share.url, new URL(c.req.url).origin), expiresAt: share.expiresAt });
  });
  app.post("/:id/share/:shareId/revoke", async (c) => {
    const id = c.req.param("id");
    await run(c, deps, ops.revokeShare, { id, shareId: c.req.param("shareId") });
    return c.redirect(withNotice(`${deps.paths.item(kind, id)}/share`, "revoked"), 303);
  });
}

/** Download, history, sharing and the trash of one kind, under /documents or /spreadsheets. */
export function kindRoutes(deps: AppDeps, kind: ItemKind): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/:id/download", async (c) => download(await run(c, deps, kindOps[kind].download, { id: c.req.param("id") })));
  historyRoutes(app, deps, kind);
  shareRoutes(app, deps, kind);
  app.post("/:id/trash", async (c) => {
    const version = await formField(c, "version");
    await run(c, deps, kindOps[kind].delete, {
      id: c.req.param("id"),
      ...(version ? { expectedVersion: positive(version, "version") } : {}),
    });
    return c.redirect(withNotice(deps.paths.app, "trashed"), 303);
  });
  return app;
}
