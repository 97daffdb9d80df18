// What the owner's application's routes share: the Hono variables a signed-in request carries,
// and the dependencies the gateway hands the application (src/gateway.ts).
import type { ContextFactory } from "../core/request-context.ts";
import type { RequestContext } from "../core/context.ts";
import type { SessionAuthority, SessionRecord } from "../auth/sessions.ts";
import type { OidcSignIn } from "../auth/oidc.ts";
import type { HttpEnv } from "../http/env.ts";
import type { Services } from "../services/index.ts";
import type { AppAssets } from "./assets.ts";
import type { Paths } from "./paths.ts";

export interface AppEnv {
  Variables: HttpEnv["Variables"] & {
    /** The signed-in person's session (absent on the sign-in pages and a share link's page). */
    session?: SessionRecord;
    /** The session cookie's token: the CSRF token of its pages is derived from it. */
    sessionToken?: string;
    /** The operations' request context, made once per request from the session. */
    requestContext?: RequestContext;
  };
}

export interface AppDeps {
  services: Services;
  createContext: ContextFactory;
  sessions: SessionAuthority;
  /** OpenID Connect sign-in, when OIDC_ISSUER is set. */
  oidc: OidcSignIn | undefined;
  /** Where links point (PUBLIC_URL's path prefix) and what absolute URLs start with. */
  paths: Paths;
  /** The session cookie is Secure (PUBLIC_URL is https). */
  secureCookies: boolean;
  /** APP_SESSION_TTL in milliseconds: the cookie's Max-Age. */
  sessionTtlMs: number;
  assets: AppAssets;
  /** BODY_LIMIT_BYTES: forms and the editor's markdown. */
  bodyLimit: number;
}
