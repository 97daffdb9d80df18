// The session cookie (docs/app.md "Sign-in"): HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is
// https, scoped to the application's path; and the middleware that lets only a live session
// through, sending anyone else to the sign-in page (303) with where they were going.
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { OpenedSession } from "../auth/sessions.ts";
import type { AppDeps, AppEnv } from "./env.ts";

export const SESSION_COOKIE = "wg_session";

export function setSessionCookie(c: Context<AppEnv>, deps: AppDeps, opened: OpenedSession): void {
  setCookie(c, SESSION_COOKIE, opened.token, {
    path: deps.paths.app,
    httpOnly: true,
    sameSite: "Lax",
    secure: deps.secureCookies,
    maxAge: Math.floor(deps.sessionTtlMs / 1000),
  });
}

export function clearSessionCookie(c: Context<AppEnv>, deps: AppDeps): void {
  deleteCookie(c, SESSION_COOKIE, { path: deps.paths.app, secure: deps.secureCookies });
}

/** The request's path and query as the browser sees them (under PUBLIC_URL's prefix). */
export const browserPath = (c: Context, deps: AppDeps): string => {
  const url = new URL(c.req.url);
  return `${deps.paths.prefix}${url.pathname}${url.search}`;
};

/** A fetch from the client layer (it asks for JSON) rather than a page. */
export const wantsJson = (c: Context): boolean => (c.req.header("accept") ?? "").includes("application/json");

export function requireSession(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE);
    const session = token ? await deps.sessions.resolve(token) : null;
    if (!session || !token) {
      if (token) clearSessionCookie(c, deps);
      if (wantsJson(c)) return c.json({ error: { code: "UNAUTHENTICATED", message: "Your session has ended: sign in again" } }, 401);
      // A form posted after the session ended goes back to where the person was, not to the POST.
      const next = c.req.method === "GET" ? browserPath(c, deps) : (c.req.header("referer") ?? "");
      return c.redirect(deps.paths.signIn(next.startsWith("http") ? new URL(next).pathname : next || undefined), 303);
    }
    c.set("session", session);
    c.set("sessionToken", token);
    return next();
  };
}
