// Listening and graceful shutdown (docs/deploy.md#shutdown): readiness turns false at once, the
// listener keeps serving for the drain delay (a load balancer's health checks notice), then stops
// accepting; in-flight requests finish (bounded), then the gateway closes (workers, store).
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions, type ServerResponse } from "node:http";
import { Server as NetServer, type AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { isLoopbackHost } from "./core/address.ts";
import type { Gateway } from "./gateway.ts";
import { quietInstant } from "./http/quiet-instant.ts";
import { metricsResponse } from "./observability/metrics.ts";

/** How long connections accepted just before shutdown get to have their request read (see stop). */
const IDLE_SWEEP_GRACE_MS = 250;
/** How long the listener waits for a quiet instant to close (./http/quiet-instant.ts) before it closes anyway. */
const QUIET_WAIT_MS = 500;
export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  /** Where /metrics is served when METRICS_PORT is set (then not on `url`). */
  metricsUrl?: string;
  /** Stops accepting, waits for in-flight requests (up to the shutdown timeout), closes the gateway. */
  stop(): Promise<void>;
}

const urlOf = (host: string, port: number) => `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

/**
 * Slow clients must not hold sockets (docs/security.md): Node answers 408 and closes a connection
 * whose headers take longer than HEADERS_TIMEOUT_MS (slowloris) or whose whole request, body
 * included, takes longer than REQUEST_TIMEOUT_MS (a body sent a byte a second). Node checks these
 * every connectionsCheckingInterval (30 s by default), so the interval follows the timeouts.
 * Long renders and upstream calls are bounded elsewhere, not here.
 */
function timeouts(gateway: Gateway) {
  const headersTimeout = gateway.config.HEADERS_TIMEOUT_MS;
  const requestTimeout = Math.max(gateway.config.REQUEST_TIMEOUT_MS, headersTimeout);
  const connectionsCheckingInterval = Math.min(30_000, Math.max(50, Math.floor(headersTimeout / 4)));
  return { headersTimeout, requestTimeout, connectionsCheckingInterval };
}

/** /metrics on its own listener (METRICS_PORT, METRICS_HOST), so the main port need not expose it. */
function listenMetrics(gateway: Gateway, port: number, host: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    const answer =
      req.method === "GET" && path === "/metrics"
        ? metricsResponse(gateway.metrics, gateway.config.METRICS_TOKEN, req.headers.authorization)
        : Promise.resolve(Response.json({ error: { code: "NOT_FOUND", message: "Only GET /metrics is served here" } }, { status: 404 }));
    void answer.then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  const { headersTimeout, requestTimeout } = timeouts(gateway);
  server.headersTimeout = headersTimeout;
  server.requestTimeout = requestTimeout;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve({ server, url: urlOf(host, (server.address() as AddressInfo).port) }));
  });
}

export interface ListenOptions {
  port: number;
  host: string;
  /** After the listener closes, how long in-flight requests may take before their connections are cut. */
  shutdownTimeoutMs: number;
  /** SHUTDOWN_DRAIN_MS: how long the listener keeps accepting once /readyz says "draining". Default 0. */
  drainMs?: number;
}

export async function listen(gateway: Gateway, options: ListenOptions): Promise<RunningServer> {
  const metricsPort = gateway.config.METRICS_PORT;
  const metrics = metricsPort === undefined ? undefined : await listenMetrics(gateway, metricsPort, gateway.config.METRICS_HOST);
  const closeMetrics = () =>
    new Promise<void>((done) => {
      if (!metrics) return done();
      metrics.server.close(() => done());
      metrics.server.closeAllConnections();
    });
  const loopback = isLoopbackHost(options.host);
  if (!loopback && metricsPort === undefined && gateway.config.METRICS_TOKEN === undefined) {
    gateway.logger.warn(
      { host: options.host },
      "/metrics is open to anyone who can reach this port: set METRICS_TOKEN or METRICS_PORT (docs/security.md)",
    );
  }
  return new Promise((resolve, reject) => {
    const { headersTimeout, requestTimeout, connectionsCheckingInterval } = timeouts(gateway);
    const { fastPath } = gateway;
    const server = serve({
      fetch: gateway.app.fetch,
      // Hono's listener, after the surfaces' fast path (src/http/fast-path.ts) has had its pick.
      ...(fastPath
        ? {
            createServer: ((serverOptions: ServerOptions, listener: RequestListener) =>
              createServer(serverOptions, (req, res) => {
                if (!fastPath(req, res)) void listener(req, res);
              })) as typeof createServer,
          }
        : {}),
      port: options.port,
      hostname: options.host,
      serverOptions: { connectionsCheckingInterval, headersTimeout, requestTimeout },
    }) as Server;
    server.requestTimeout = requestTimeout;
    server.headersTimeout = headersTimeout;
    server.keepAliveTimeout = 5_000;
    // While draining, every response asks its client to close the connection after it, so that
    // keep-alive clients reconnect (through the load balancer, to another replica).
    let draining = false;
    server.prependListener("request", (_req: IncomingMessage, res: ServerResponse) => {
      if (draining) res.setHeader("Connection", "close");
    });
    server.once("error", (error) => void closeMetrics().then(() => reject(error)));
    server.once("listening", () => {
      const { port } = server.address() as AddressInfo;
      let stopping: Promise<void> | undefined;
      resolve({
        url: urlOf(options.host, port),
        port,
        server,
        ...(metrics ? { metricsUrl: metrics.url } : {}),
        stop: () =>
          (stopping ??= (async () => {
            gateway.drain();
            draining = true;
            const drainMs = options.drainMs ?? 0;
            if (drainMs > 0) {
              // Idle keep-alive sockets are left alone meanwhile (closing one races with a request
              // its client is sending on it): each carries at most one more request, answered with
              // Connection: close, or times out (keepAliveTimeout).
              gateway.logger.info({ drainMs }, "draining: /readyz answers 503, new connections accepted until the drain delay ends");
              await new Promise((resolve) => setTimeout(resolve, drainMs));
            }
            // Nothing may run between this and server.close() below (the same microtask run).
            await quietInstant(server, QUIET_WAIT_MS);
            await new Promise<void>((done) => {
              let sweep: NodeJS.Timeout | undefined;
              // Node counts a connection accepted just before the listener closed as idle until its
              // request is parsed: closing it then resets a request its client already sent. Give
              // those a moment; then keep-alive sockets are closed as their last response ends.
              const grace = setTimeout(
                () => {
                  server.closeIdleConnections();
                  sweep = setInterval(() => server.closeIdleConnections(), 50);
                },
                Math.min(IDLE_SWEEP_GRACE_MS, options.shutdownTimeoutMs),
              );
              const force = setTimeout(() => server.closeAllConnections(), options.shutdownTimeoutMs);
              force.unref();
              // The listener only: http.Server's close() would also close every idle connection at
              // once, a connection accepted a moment ago whose request is still on its way included
              // (its balancer saw "socket hang up"); the grace above is for those.
              NetServer.prototype.close.call(server, () => {
                clearTimeout(force);
                clearTimeout(grace);
                clearInterval(sweep);
                // http.Server's own close, with nothing left to close, stops its request-timeout timer.
                server.close();
                done();
              });
            });
            await closeMetrics();
            await gateway.close().catch(() => {});
          })()),
      });
    });
  });
}
