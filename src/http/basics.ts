// What every request gets, whichever way it is served (Hono's middleware in ./app.ts, or the Node
// fast path in ./fast-path.ts): a request id, a logger bound to it, the client's address, and at
// the end the duration metric and the request log line.
import { lazyChild } from "../core/logger.ts";
import type { ClientAddressResolver } from "../auth/client-address.ts";
import type { Logger } from "../core/logger.ts";
import type { Metrics } from "../observability/metrics.ts";
import { redactPath } from "./redact.ts";
import { requestIdFrom } from "./request-id.ts";

export interface BasicsDeps {
  logger: Logger;
  metrics: Metrics;
  clientAddress: ClientAddressResolver;
}

export interface RequestBasics {
  env: { requestId: string; log: Logger; clientAddress: string };
  started: number;
}

/** Routes whose requests are counted but not logged one by one (probes and scrapes). */
const unlogged = new Set(["/healthz", "/readyz", "/metrics"]);

export function startRequest(
  deps: BasicsDeps,
  requestIdHeader: string | undefined,
  peer: string | undefined,
  forwardedFor: () => string | null | undefined,
): RequestBasics {
  const started = performance.now();
  const requestId = requestIdFrom(requestIdHeader);
  return { env: { requestId, log: lazyChild(deps.logger, { requestId }), clientAddress: deps.clientAddress(peer, forwardedFor) }, started };
}

/** `route` is the route's pattern (the metric's label), `path` the request's path (logged, redacted). */
export function finishRequest(
  deps: BasicsDeps,
  basics: RequestBasics,
  request: { method: string; route: string; path: string; status: number },
): void {
  const { method, route, status } = request;
  const seconds = (performance.now() - basics.started) / 1000;
  deps.metrics.httpDuration.observe({ method, route, status: String(status) }, seconds);
  if (!unlogged.has(route)) {
    basics.env.log.info({ method, path: redactPath(request.path), status, ms: Math.round(seconds * 1000) }, "request");
  }
}
