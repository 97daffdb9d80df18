// GatewayError → HTTP response, shared by every route that answers with the REST error body.
import { toGatewayError, type GatewayError, markErrorCode } from "../core/errors.ts";
import type { Logger } from "../core/logger.ts";

export function errorHeaders(error: GatewayError): Record<string, string> {
  const headers: Record<string, string> = {};
  if (error.code === "UNAUTHENTICATED") headers["WWW-Authenticate"] = 'Bearer realm="workspace-gateway"';
  if (error.code === "FORBIDDEN" && error.scope) {
    headers["WWW-Authenticate"] = `Bearer error="insufficient_scope", scope="${error.scope}"`;
  }
  if (error.retryAfter !== undefined) headers["Retry-After"] = String(error.retryAfter);
  return headers;
}

/** Logs what the caller must not see (INTERNAL causes), then builds the body of docs/api.md "Errors". */
export function errorResponse(value: unknown, log: Logger): Response {
  const error = toGatewayError(value);
  markErrorCode(error.code);
  if (error.code === "INTERNAL") log.error({ err: error.cause ?? error }, "unexpected error");
  else if (error.status >= 500) log.warn({ code: error.code, message: error.message }, "request failed");
  return Response.json(error.toBody(), { status: error.status, headers: errorHeaders(error) });
}
