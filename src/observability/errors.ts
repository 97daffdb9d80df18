// Puts the §3 error code a surface answers with on the request's span (`gateway.error.code`).
// Without the tracing SDK there is no active span and this is one no-op lookup.
import { trace } from "@opentelemetry/api";

export function markErrorCode(code: string): void {
  const span = trace.getActiveSpan();
  if (span === undefined) return;
  span.setAttribute("gateway.error.code", code);
}
