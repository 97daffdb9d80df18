// CORS for every surface at once (docs/security.md): only origins listed in CORS_ORIGINS get
// Access-Control-* headers; with none listed (the default) no response carries any. Credentials
// are bearer tokens, never cookies, so Access-Control-Allow-Credentials is never sent: a page must
// hold the token itself to use it.
import type { MiddlewareHandler } from "hono";
import type { HttpEnv } from "./env.ts";
import { nodeBindings, requestHeader } from "./node.ts";

// Every method and request header the API reads (docs/api.md): a browser app on an allowed origin
// edits (PUT, PATCH), deletes and writes conditionally (If-Match, If-None-Match, Idempotency-Key).
const allowMethods = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
const allowHeaders = [
  "Authorization",
  "Content-Type",
  "Accept",
  "If-Match",
  "If-None-Match",
  "Idempotency-Key",
  "X-Request-Id",
  "X-GraphQL-Yoga-CSRF",
  "Apollo-Require-Preflight",
  "Mcp-Protocol-Version",
  "Mcp-Session-Id",
  "Last-Event-ID",
].join(", ");
// What a page must be able to read back: ETag for its next conditional write, Location of a create.
const exposeHeaders = [
  "ETag",
  "X-Request-Id",
  "Retry-After",
  "Location",
  "Idempotent-Replayed",
  "Content-Disposition",
  "WWW-Authenticate",
  "Mcp-Session-Id",
].join(", ");
const preflightMaxAge = "600";

export function cors(allowedOrigins: readonly string[]): MiddlewareHandler<HttpEnv> {
  const allowed = new Set(allowedOrigins);
  return async (c, next) => {
    const origin = requestHeader(c, "origin");
    const preflight = c.req.method === "OPTIONS" && origin !== undefined && requestHeader(c, "access-control-request-method") !== undefined;
    const ok = origin !== undefined && allowed.has(origin);
    if (preflight) {
      // Answered here for every path, so no surface's own CORS handling (yoga's echoes any origin) runs.
      if (!ok) return c.body(null, 403, { Vary: "Origin" });
      return c.body(null, 204, {
        "Access-Control-Allow-Origin": origin,
        "Access-Control-Allow-Methods": allowMethods,
        "Access-Control-Allow-Headers": allowHeaders,
        "Access-Control-Max-Age": preflightMaxAge,
        Vary: "Origin",
      });
    }
    if (!ok) {
      // Responses differ by Origin once any is allowed: caches must key on it.
      if (allowed.size > 0) nodeBindings(c)?.outgoing.setHeader("Vary", "Origin");
      await next();
      if (allowed.size > 0 && c.get("sentStatus") === undefined) c.res.headers.append("Vary", "Origin");
      return;
    }
    const headers = { "Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": exposeHeaders };
    // A surface that writes its own Node response (yoga's fast path) gets the headers on the
    // ServerResponse now; Node merges them into its writeHead.
    const node = nodeBindings(c);
    if (node) for (const [name, value] of Object.entries(headers)) node.outgoing.setHeader(name, value);
    node?.outgoing.setHeader("Vary", "Origin");
    await next();
    if (c.get("sentStatus") !== undefined) return;
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
    c.res.headers.append("Vary", "Origin");
  };
}
