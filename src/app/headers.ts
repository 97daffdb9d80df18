// Headers on every page of the application and on a share link's page (docs/app.md "Safe"): a
// Content-Security-Policy that lets only the gateway's own script and stylesheet run (no inline
// script or style, no plugins, no framing), no MIME sniffing, referrers only to the gateway
// itself. Pages hold a person's documents: nothing caches them.
import type { MiddlewareHandler } from "hono";

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // Images of a document: the gateway's own, or written into the markdown as data: URLs.
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    headers.set("X-Content-Type-Options", "nosniff");
    headers.set("Referrer-Policy", "same-origin");
    headers.set("X-Frame-Options", "DENY");
    if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  };
}
