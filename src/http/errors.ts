// GatewayError → HTTP response, shared by every route that answers with the REST error body, and
// by both front doors for a failure no surface answered: Hono's onError (./app.ts) returns the
// Response; a surface writing Node's response itself (./fast-path.ts, ./app.ts) sends it with `sendNodeError`.
import type { IncomingMessage, ServerResponse } from "node:http";
import { toGatewayError, type GatewayError, markErrorCode } from "../core/errors.ts";
import type { Logger } from "../core/logger.ts";
import { sendNodeResult } from "./send.ts";

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

/**
 * The same answer on Node's response, unless the answer had begun: then the connection is cut (a
 * client must not take half a body for a whole one). Returns the status sent.
 */
export async function sendNodeError(value: unknown, log: Logger, incoming: IncomingMessage, outgoing: ServerResponse): Promise<number> {
  if (outgoing.headersSent) {
    log.error({ err: value }, "response failed after its headers were sent");
    outgoing.destroy();
    return 500;
  }
  const response = errorResponse(value, log);
  return sendNodeResult(response, incoming, outgoing).catch(() => {
    outgoing.destroy();
    return response.status;
  });
}
