// CORS for every surface at once (docs/security.md), one implementation for both front doors (the
// app's middleware below, and the Node fast path, ./fast-path.ts): only origins listed in CORS_ORIGINS get
// Access-Control-* headers; with none listed (the default) no response carries any. Credentials
// are bearer tokens, never cookies, so Access-Control-Allow-Credentials is never sent: a page must
// hold the token itself to use it.
import type { ServerResponse } from "node:http";
import type { MiddlewareHandler } from "hono";
import type { HttpEnv } from "./env.ts";
import { nodeBindings, requestHeader } from "./node.ts";

// Every method and request header the API reads (docs/api.md): a browser app on an allowed origin
// edits (PUT, PATCH), deletes and writes conditionally (If-Match, If-None-Match, Idempotency-Key).
const allowMethods = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
const allowHeaders = [
  "Authorization",
  // The product access token beside a personal API key (docs/api.md "Credentials").
  "X-Access-Token",
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
  // A range read as CSV or markdown that was cut: whether, and the next page's URL.
  "X-Truncated",
  "Link",
].join(", ");
const preflightMaxAge = "600";

export function cors(allowedOrigins: readonly string[]): MiddlewareHandler<HttpEnv> {
  const allowed = new Set(allowedOrigins);
  return async (c, next) => {
    const origin = requestHeader(c, "origin");
    const preflight = c.req.method === "OPTIONS" && origin !== undefined && requestHeader(c, "access-control-request-method") !== undefined;
    if (preflight) {
      const ok = origin !== undefined && allowed.has(origin);
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
    // A surface that writes its own Node response gets the headers on the ServerResponse now.
    const node = nodeBindings(c);
    const headers = node ? corsOnNode(node.outgoing, allowed, origin) : corsHeaders(allowed, origin);
    await next();
    if (c.get("sentStatus") !== undefined) return;
    for (const [name, value] of Object.entries(headers)) {
      if (name === "Vary") c.res.headers.append(name, value);
      else c.res.headers.set(name, value);
    }
  };
}

/**
 * The CORS headers of an answer that is not a preflight's: none while no origin is allowed; once
 * any is, Vary: Origin on every answer (caches must key on it), and the allow headers for an allowed origin.
 */
export function corsHeaders(allowed: ReadonlySet<string>, origin: string | undefined): Record<string, string> {
  if (allowed.size === 0) return {};
  if (origin === undefined || !allowed.has(origin)) return { Vary: "Origin" };
  return { "Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": exposeHeaders, Vary: "Origin" };
}

/**
 * The same headers set on a Node response a surface is about to write itself (under Hono, or on
 * the Node fast path, ./fast-path.ts): Node merges them into its writeHead. Returns them.
 */
export function corsOnNode(outgoing: ServerResponse, allowed: ReadonlySet<string>, origin: string | undefined): Record<string, string> {
  const headers = corsHeaders(allowed, origin);
  for (const [name, value] of Object.entries(headers)) outgoing.setHeader(name, value);
  return headers;
}
