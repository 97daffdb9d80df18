// Pages as responses: the frame's settings for this request (its CSRF token, the assets), the
// notices a redirect may ask for (by a fixed name, never by text from the URL), and errors as
// pages — or as JSON for the client layer's fetches.
import type { Context } from "hono";
import { html } from "hono/html";
import { toGatewayError, type GatewayError } from "../core/errors.ts";
import type { AppDeps, AppEnv } from "./env.ts";
import { page, type Chrome, type Html, type Notice } from "./layout.ts";
import { csrfOf } from "./operations.ts";
import { wantsJson } from "./session.ts";

/** What a redirect may ask the next page to say (`?notice=<name>`). */
const notices: Record<string, Notice> = {
  saved: { kind: "ok", text: "Saved." },
  created: { kind: "ok", text: "Created." },
  imported: { kind: "ok", text: "Imported." },
  trashed: { kind: "ok", text: "Moved to the trash. You can restore it from the trash for 30 days." },
  restored: { kind: "ok", text: "Restored." },
  "version-restored": { kind: "ok", text: "That version is now the newest one." },
  deleted: { kind: "ok", text: "Deleted for good." },
  revoked: { kind: "ok", text: "The link no longer works." },
  "kept-theirs": { kind: "info", text: "Kept the other version; your changes were not saved." },
  "signed-out": { kind: "ok", text: "You are signed out." },
};

export const noticeNamed = (c: Context): Notice | undefined => {
  const name = c.req.query("notice");
  return name === undefined ? undefined : notices[name];
};

export const withNotice = (path: string, notice: keyof typeof notices): string =>
  `${path}${path.includes("?") ? "&" : "?"}notice=${notice}`;

export function chromeOf(c: Context<AppEnv>, deps: AppDeps, title: string, extra: Partial<Chrome> = {}): Chrome {
  return { title, paths: deps.paths, assets: deps.assets, csrf: csrfOf(c, deps), notice: noticeNamed(c), ...extra };
}

export function pageResponse(c: Context<AppEnv>, deps: AppDeps, title: string, body: Html, extra: Partial<Chrome> = {}, status = 200) {
  return c.html(page(chromeOf(c, deps, title, extra), body), status as 200);
}

const titles: Partial<Record<GatewayError["code"], string>> = {
  NOT_FOUND: "Not found",
  FORBIDDEN: "Not allowed",
  UNAUTHENTICATED: "Sign-in needed",
  PRECONDITION_FAILED: "Changed meanwhile",
  PAYLOAD_TOO_LARGE: "Too large",
  UNSUPPORTED_MEDIA_TYPE: "Not a file this can open",
  BAD_USER_INPUT: "Something is not right",
  RATE_LIMITED: "Too many requests",
};

/** An error as a page (its status, what happened, the way back), or as the API's JSON body for a fetch. */
export function errorPage(c: Context<AppEnv>, deps: AppDeps, value: unknown): Response | Promise<Response> {
  const error = toGatewayError(value);
  if (error.code === "INTERNAL") c.get("log").error({ err: error.cause ?? error }, "unexpected error");
  if (wantsJson(c)) return c.json(error.toBody(), error.status as 400);
  const title = titles[error.code] ?? "Something went wrong";
  const message = error.code === "INTERNAL" ? "An unexpected error happened. Try again in a moment." : error.message;
  const body = html`<h1>${title}</h1>
    <p>${message}</p>
    <p><a href="${deps.paths.app}">Back to your documents</a></p>`;
  return pageResponse(c, deps, title, body, {}, error.status);
}
