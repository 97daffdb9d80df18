// Signing in and out (docs/app.md "Sign-in"): a personal API key posted by the sign-in form, a
// one-time sign-in link, OpenID Connect (authorization code + PKCE). Before a session exists the
// form's CSRF token is the twin of a short-lived cookie of its own (and the origin is checked).
import { randomBytes, timingSafeEqual } from "node:crypto";
import { Hono, type Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { decodePending, encodePending } from "../../auth/oidc.ts";
import type { OpenedSession } from "../../auth/sessions.ts";
import { isGatewayError } from "../../core/errors.ts";
import { csrfRefused, sameOrigin } from "../csrf.ts";
import type { AppDeps, AppEnv } from "../env.ts";
import { page } from "../layout.ts";
import { safeNext } from "../paths.ts";
import { signInPage } from "../pages/sign-in.ts";
import { noticeNamed } from "../render.ts";
import { SESSION_COOKIE, setSessionCookie } from "../session.ts";

const FORM_COOKIE = "wg_sign_in";
const OIDC_COOKIE = "wg_oidc";

function formToken(c: Context<AppEnv>, deps: AppDeps): string {
  const existing = getCookie(c, FORM_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString("base64url");
  setCookie(c, FORM_COOKIE, token, {
    path: `${deps.paths.app}/sign-in`,
    httpOnly: true,
    sameSite: "Strict",
    secure: deps.secureCookies,
    maxAge: 3600,
  });
  return token;
}

function showSignIn(c: Context<AppEnv>, deps: AppDeps, next: string, error?: string, status: 200 | 400 | 401 = 200) {
  const body = signInPage({ paths: deps.paths, csrf: formToken(c, deps), next, provider: deps.oidc?.providerName });
  const notice = error ? ({ kind: "error", text: error } as const) : noticeNamed(c);
  return c.html(page({ title: "Sign in", paths: deps.paths, assets: deps.assets, notice }, body), status);
}

/** Opens the session and goes on; a refused credential shows the sign-in page with why. */
async function signIn(c: Context<AppEnv>, deps: AppDeps, next: string, open: () => Promise<OpenedSession>) {
  let opened: OpenedSession;
  try {
    opened = await open();
  } catch (error) {
    if (isGatewayError(error) && error.code === "UNAUTHENTICATED") return showSignIn(c, deps, next, error.message, 401);
    throw error;
  }
  setSessionCookie(c, deps, opened);
  return c.redirect(safeNext(deps.paths, next), 303);
}

const callbackUrl = (c: Context, deps: AppDeps) =>
  `${deps.paths.publicUrl ? new URL(deps.paths.publicUrl).origin : new URL(c.req.url).origin}${deps.paths.app}/sign-in/oidc/callback`;

function oidcRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  const oidc = deps.oidc;
  if (!oidc) return;
  app.get("/sign-in/oidc", async (c) => {
    const { url, pending } = await oidc.start(callbackUrl(c, deps), safeNext(deps.paths, c.req.query("next")));
    setCookie(c, OIDC_COOKIE, encodePending(pending), {
      path: `${deps.paths.app}/sign-in/oidc`,
      httpOnly: true,
      sameSite: "Lax",
      secure: deps.secureCookies,
      maxAge: 600,
    });
    return c.redirect(url.href, 302);
  });
  app.get("/sign-in/oidc/callback", async (c) => {
    const pending = decodePending(getCookie(c, OIDC_COOKIE));
    deleteCookie(c, OIDC_COOKIE, { path: `${deps.paths.app}/sign-in/oidc`, secure: deps.secureCookies });
    if (!pending) return showSignIn(c, deps, deps.paths.app, "That sign-in took too long or was started elsewhere: try again", 400);
    const refused = c.req.query("error");
    if (refused) return showSignIn(c, deps, pending.next, `${oidc.providerName} did not sign you in (${refused})`, 401);
    const query = new URL(c.req.url).searchParams;
    return signIn(c, deps, pending.next, async () => deps.sessions.withIdentity(await oidc.finish(callbackUrl(c, deps), query, pending)));
  });
}

export function signInRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/sign-in", async (c) => {
    const next = safeNext(deps.paths, c.req.query("next"));
    const token = getCookie(c, SESSION_COOKIE);
    if (token && (await deps.sessions.resolve(token))) return c.redirect(next, 303);
    return showSignIn(c, deps, next);
  });
  app.post("/sign-in", sameOrigin(deps), async (c) => {
    const form = await c.req.parseBody();
    const next = safeNext(deps.paths, typeof form["next"] === "string" ? form["next"] : undefined);
    const expected = getCookie(c, FORM_COOKIE);
    const presented = typeof form["_csrf"] === "string" ? form["_csrf"] : "";
    if (!expected || expected.length !== presented.length || !timingSafeEqual(Buffer.from(expected), Buffer.from(presented))) {
      throw csrfRefused("This sign-in form has expired");
    }
    const key = typeof form["key"] === "string" ? form["key"] : "";
    return signIn(c, deps, next, () => deps.sessions.withKey(key));
  });
  app.get("/sign-in/link", (c) => signIn(c, deps, deps.paths.app, () => deps.sessions.withLink(c.req.query("token") ?? "")));
  oidcRoutes(app, deps);
  return app;
}
