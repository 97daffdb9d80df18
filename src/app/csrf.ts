// Cross-site request forgery (docs/app.md "Safe"): every state-changing request to the
// application must come from its own origin (hono/csrf: Origin or Sec-Fetch-Site) and carry the
// session's CSRF token, in the `_csrf` form field or the X-CSRF-Token header (the client layer's
// fetches). A multipart upload's token is in its form, which the import route reads and checks
// itself (checkCsrf) before anything runs.
import type { Context, MiddlewareHandler } from "hono";
import { csrf } from "hono/csrf";
import { HTTPException } from "hono/http-exception";
import { GatewayError } from "../core/errors.ts";
import type { AppDeps, AppEnv } from "./env.ts";

const SAFE = /^(GET|HEAD|OPTIONS)$/;

export const csrfRefused = (why: string) => new GatewayError("FORBIDDEN", `${why}: reload the page and try again`);

/** The origin check alone: the request's own origin, or PUBLIC_URL's. */
export function sameOrigin(deps: AppDeps): MiddlewareHandler {
  const publicOrigin = deps.paths.publicUrl ? new URL(deps.paths.publicUrl).origin : undefined;
  const check = csrf({ origin: (origin, c) => origin === new URL(c.req.url).origin || origin === publicOrigin });
  return async (c, next) => {
    try {
      await check(c, async () => {});
    } catch (error) {
      if (error instanceof HTTPException) throw csrfRefused("This request did not come from the application's own pages");
      throw error;
    }
    await next();
  };
}

/** Whether the request carries the session's CSRF token; throws FORBIDDEN when not. */
export function checkCsrf(c: Context<AppEnv>, deps: AppDeps, presented: string | undefined): void {
  const token = c.get("sessionToken");
  if (!token || !deps.sessions.csrfMatches(token, presented)) throw csrfRefused("This form has expired or was not made by the application");
}

const isForm = (c: Context) => /^application\/x-www-form-urlencoded\b/i.test(c.req.header("content-type") ?? "");
const isMultipart = (c: Context) => /^multipart\/form-data\b/i.test(c.req.header("content-type") ?? "");

/** The origin check and the token, on every state-changing request of a signed-in person. */
export function csrfGuard(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const origin = sameOrigin(deps);
  return async (c, next) => {
    if (SAFE.test(c.req.method)) return next();
    return origin(c, async () => {
      if (isMultipart(c)) {
        // Only the import takes a file, and it checks the token in its form.
        if (!c.req.path.endsWith("/import")) throw csrfRefused("This address takes no file");
      } else {
        const field = isForm(c) ? (await c.req.parseBody())["_csrf"] : undefined;
        checkCsrf(c, deps, c.req.header("x-csrf-token") ?? (typeof field === "string" ? field : undefined));
      }
      await next();
    });
  };
}
