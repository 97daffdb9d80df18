// The one HTTP application: cross-cutting middleware, health, metrics, and the surfaces mounted
// side by side. Surfaces are handed in already built; this file only wires them.
import type { IncomingMessage, ServerResponse } from "node:http";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import type { ClientAddressResolver } from "../auth/client-address.ts";
import { GatewayError } from "../core/errors.ts";
import type { Logger } from "../core/logger.ts";
import { cors } from "./cors.ts";
import type { HttpEnv } from "./env.ts";
import { compressionMiddleware } from "./compression.ts";
import { docResponse, loadDocs, type DocFile } from "./docs.ts";
import { errorResponse, sendNodeError } from "./errors.ts";
import { indexHtml, indexJson, prefersHtml, type IndexInfo } from "./index-page.ts";
import { metricsResponse, type Metrics } from "../observability/metrics.ts";
import { declaredBody, nodeBindings, requestHead, requestHeader, type RequestHead } from "./node.ts";
import { finishRequest, startRequest } from "./basics.ts";
import { bodyLimitMiddleware, limitUnlessOwned } from "./body-limit.ts";
import { REQUEST_ID_HEADER, stampRequestId } from "./request-id.ts";
import { sendNodeResult, type NodeResult } from "./send.ts";

export type { NodeResult } from "./send.ts";

/** What a surface gets besides the request: the id and logger the gateway assigned. */
export interface SurfaceEnv {
  requestId: string;
  log: Logger;
  /** The client's address, for per-address limits (src/auth/client-address.ts). */
  clientAddress: string;
}

export type FetchHandler = (request: Request, env: SurfaceEnv) => Response | Promise<Response>;

/** Answers a request that failed before its surface ran, in that surface's error shape. */
export type FailureHandler = (error: GatewayError, request: Request, env: SurfaceEnv) => Response | Promise<Response>;

export interface Surface {
  /** Path prefix, e.g. "/graphql" or "/trpc". */
  path: string;
  fetch: FetchHandler;
  /** Body limit for this surface; defaults to the gateway's. */
  bodyLimit?: number;
  /** Requests whose body the surface limits itself while streaming it (file uploads); `bodyLimit` is not applied to them. */
  ownsBodyLimit?: (request: RequestHead) => boolean;
  /** Errors the app raises for this surface (a body over the limit); default the REST error body. */
  fail?: FailureHandler;
  /**
   * The same handling from Node's request and response (see ./node.ts), used when the server is
   * Node's and the body's length is declared. The app sends the Response or in-memory answer it returns.
   */
  handleNode?: (incoming: IncomingMessage, outgoing: ServerResponse, env: SurfaceEnv) => NodeResult | Promise<NodeResult>;
  /**
   * Requests `handleNode` may answer before Hono sees them (./fast-path.ts): read off the request
   * line and headers only. Without it, every request goes through Hono.
   */
  fastNode?: (incoming: IncomingMessage) => boolean;
}

export interface HttpAppDeps {
  logger: Logger;
  metrics: Metrics;
  bodyLimit: number;
  clientAddress: ClientAddressResolver;
  /** /metrics: the bearer token it needs (METRICS_TOKEN), and whether it is served on the main port (not with METRICS_PORT). */
  metricsRoute?: { token?: string | undefined; onMainPort: boolean };
  /** CORS_ORIGINS: the browser origins allowed on every surface (none: no CORS headers). */
  corsOrigins: readonly string[];
  ready: () => Promise<void>;
  /**
   * What works but not as configured (Redis unreachable: rate limits per process), one reason each.
   * /readyz then answers 200 {"status":"degraded","reasons":[…]}: the gateway still serves every
   * request (rate limits fail open), so a load balancer must keep sending traffic. docs/configuration.md.
   */
  degraded?: () => string[];
  /** The store's connection pool (PostgreSQL), shown in /readyz. */
  pool?: () => unknown;
  /** True once shutdown began (SIGTERM): /readyz answers 503 "draining" so load balancers stop sending. */
  draining?: () => boolean;
  /** REST route groups; `ownsBodyLimit` as for surfaces (uploads the routes stream and limit themselves). */
  routes: { path: string; app: Hono<HttpEnv>; ownsBodyLimit?: (request: RequestHead) => boolean }[];
  surfaces: Surface[];
  openapi: unknown;
  /** GET /: the links index (./index-page.ts). */
  index?: IndexInfo;
  /** GET /docs/<name>.md (./docs.ts); default the package's docs/*.md. */
  docs?: readonly DocFile[];
  /** The server span of each request (src/observability); absent when tracing is off, and then costs nothing. */
  tracing?: MiddlewareHandler<HttpEnv> | undefined;
}

const isNativeResponse = (response: unknown): response is Response => response instanceof globalThis.Response;

/** Request id, logger, client address, metrics and the request log line: the first middleware of every request. */
function requestBasics(deps: HttpAppDeps): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const basics = startRequest(deps, requestHeader(c, "x-request-id"), nodeBindings(c)?.incoming.socket.remoteAddress, () =>
      requestHeader(c, "x-forwarded-for"),
    );
    c.set("requestId", basics.env.requestId);
    c.set("log", basics.env.log);
    c.set("clientAddress", basics.env.clientAddress);
    c.header(REQUEST_ID_HEADER, basics.env.requestId);
    await next();
    // A response the surface sent itself (on Node's response) already carries the id.
    const sent = c.get("sentStatus");
    if (sent === undefined) c.res.headers.set(REQUEST_ID_HEADER, basics.env.requestId);
    finishRequest(deps, basics, { method: c.req.method, route: c.req.routePath, path: c.req.path, status: sent ?? c.res.status });
  };
}

/** The body limit of a surface, its failures in the surface's error shape. */
function surfaceLimit(surface: Surface, limit: number): MiddlewareHandler<HttpEnv> {
  const { fail } = surface;
  const envOf = (c: Context<HttpEnv>): SurfaceEnv => ({
    requestId: c.get("requestId"),
    log: c.get("log"),
    clientAddress: c.get("clientAddress"),
  });
  return limitUnlessOwned(bodyLimitMiddleware(limit, fail && ((error, c) => fail(error, c.req.raw, envOf(c)))), surface.ownsBodyLimit);
}

/** GET /, /docs/:name, /healthz, /readyz, /metrics and the OpenAPI document. */
function serviceRoutes(app: Hono<HttpEnv>, deps: HttpAppDeps): void {
  const index = deps.index ?? { version: "", publicUrl: "" };
  const docs = deps.docs ?? loadDocs();
  app.get("/", (c) => {
    c.header("Vary", "Accept");
    return prefersHtml(requestHeader(c, "accept")) ? c.html(indexHtml(index, docs)) : c.json(indexJson(index, docs));
  });
  // An unknown name falls through to the 404 below.
  app.get("/docs/:name", (c, next) => docResponse(docs, c.req.param("name")) ?? next());
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    if (deps.draining?.()) return c.json({ status: "draining" }, 503);
    const pool = () => {
      const stats = deps.pool?.();
      return stats === undefined ? {} : { pool: stats };
    };
    try {
      await deps.ready();
      const reasons = deps.degraded?.() ?? [];
      return c.json(reasons.length > 0 ? { status: "degraded", reasons, ...pool() } : { status: "ready", ...pool() });
    } catch (error) {
      c.get("log").warn({ err: error }, "not ready");
      return c.json({ status: "unavailable", ...pool() }, 503);
    }
  });
  // METRICS_TOKEN guards it; with METRICS_PORT it is served there instead (src/server.ts).
  if (deps.metricsRoute?.onMainPort !== false) {
    app.get("/metrics", (c) => metricsResponse(deps.metrics, deps.metricsRoute?.token, requestHeader(c, "authorization")));
  }
  app.get("/api/v1/openapi.json", (c) => c.json(deps.openapi));
}

/** A surface's handler: the Node fast path where the surface has one and the body's length is declared, else fetch. */
function surfaceHandler(surface: Surface) {
  return async (c: Context<HttpEnv>) => {
    const env: SurfaceEnv = { requestId: c.get("requestId"), log: c.get("log"), clientAddress: c.get("clientAddress") };
    const node = surface.handleNode ? nodeBindings(c) : undefined;
    // Bodies of unknown length were read by the body limit into c.req.raw; they take the fetch path.
    const handleNode = surface.handleNode;
    if (node && handleNode && declaredBody(node.incoming) !== "unknown" && !surface.ownsBodyLimit?.(requestHead(node.incoming))) {
      const response = await handleNode(node.incoming, node.outgoing, env);
      // A native Response (under @hono/node-server, its light subclass) goes back to Hono, which
      // writes it best; another implementation's (yoga's whatwg-node Response) is written by
      // whatwg-node, which knows its body without a stream.
      if (isNativeResponse(response)) return response;
      stampRequestId(node.outgoing, env.requestId);
      c.set(
        "sentStatus",
        await sendNodeResult(response, node.incoming, node.outgoing).catch((error: unknown) =>
          sendNodeError(error, env.log, node.incoming, node.outgoing),
        ),
      );
      return RESPONSE_ALREADY_SENT;
    }
    return surface.fetch(c.req.raw, env);
  };
}

export function createHttpApp(deps: HttpAppDeps): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>();
  app.use(requestBasics(deps));
  if (deps.tracing) app.use(deps.tracing);
  // br/gzip for large text-like bodies; the Node fast path compresses its own (./compression.ts).
  app.use(compressionMiddleware());
  app.use(cors(deps.corsOrigins));
  serviceRoutes(app, deps);

  for (const route of deps.routes) {
    const limit = limitUnlessOwned(bodyLimitMiddleware(deps.bodyLimit), route.ownsBodyLimit);
    app.use(route.path, limit);
    app.use(`${route.path}/*`, limit);
    app.route(route.path, route.app);
  }
  for (const surface of deps.surfaces) {
    const limit = surfaceLimit(surface, surface.bodyLimit ?? deps.bodyLimit);
    const handle = surfaceHandler(surface);
    app.use(surface.path, limit);
    app.use(`${surface.path}/*`, limit);
    app.all(surface.path, handle);
    app.all(`${surface.path}/*`, handle);
  }

  app.notFound((c) =>
    errorResponse(new GatewayError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`), c.get("log") ?? deps.logger),
  );
  app.onError((error, c) => errorResponse(error, c.get("log") ?? deps.logger));
  return app;
}
