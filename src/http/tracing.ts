// The server span of every request (attributes in docs/observability.md). Installed only when
// tracing is on; the caller's `traceparent`/`tracestate` (W3C trace context) become its parent.
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Tracer } from "@opentelemetry/api";
import type { MiddlewareHandler } from "hono";
import type { HttpEnv } from "./env.ts";
import { requestHeader } from "./node.ts";
import { redactPath } from "./redact.ts";

/** Which surface a path belongs to (`gateway.surface`). */
export function surfaceOf(path: string): string {
  if (path === "/graphql" || path.startsWith("/graphql/")) return "graphql";
  if (path === "/trpc" || path.startsWith("/trpc/")) return "trpc";
  if (path === "/mcp" || path.startsWith("/mcp/")) return "mcp";
  if (path.startsWith("/api/")) return "rest";
  return "http";
}

export function tracingMiddleware(tracer: Tracer): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const carrier: Record<string, string> = {};
    const traceparent = requestHeader(c, "traceparent");
    if (traceparent !== undefined) {
      carrier["traceparent"] = traceparent;
      const tracestate = requestHeader(c, "tracestate");
      if (tracestate !== undefined) carrier["tracestate"] = tracestate;
    }
    const parent = traceparent === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, carrier);
    const method = c.req.method;
    const path = c.req.path;
    const span = tracer.startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          "http.request.method": method,
          // A share link's token is in its path: the span keeps it out (./redact.ts).
          "url.path": redactPath(path),
          "url.scheme": "http",
          "gateway.surface": surfaceOf(path),
          "gateway.request_id": c.get("requestId"),
        },
      },
      parent,
    );
    try {
      await context.with(trace.setSpan(parent, span), next);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      // A response the surface sent itself (the Node fast path) is known by its status only.
      const status = c.get("sentStatus") ?? c.res.status;
      const route = c.req.routePath;
      span.updateName(`${method} ${route}`);
      span.setAttribute("http.route", route);
      span.setAttribute("http.response.status_code", status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}
