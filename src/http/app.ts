// The one HTTP application: cross-cutting middleware, health, metrics, and the surfaces mounted
// side by side. Surfaces are handed in already built; this file only wires them.
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { GatewayError } from "../core/errors.ts";
import type { Logger } from "../core/logger.ts";
import type { HttpEnv } from "./env.ts";
import { errorResponse } from "./errors.ts";
import type { Metrics } from "./metrics.ts";
import { requestIdFrom } from "./request-id.ts";

/** What a surface gets besides the request: the id and logger the gateway assigned. */
export interface SurfaceEnv {
  requestId: string;
  log: Logger;
}

export type FetchHandler = (request: Request, env: SurfaceEnv) => Response | Promise<Response>;

export interface Surface {
  /** Path prefix, e.g. "/graphql" or "/trpc". */
  path: string;
  fetch: FetchHandler;
  /** Body limit for this surface; defaults to the gateway's. */
  bodyLimit?: number;
  /** Requests whose body the surface limits itself while streaming it (file uploads); `bodyLimit` is not applied to them. */
  ownsBodyLimit?: (request: Request) => boolean;
}

export interface HttpAppDeps {
  logger: Logger;
  metrics: Metrics;
  bodyLimit: number;
  ready: () => Promise<void>;
  routes: { path: string; app: Hono<HttpEnv> }[];
  surfaces: Surface[];
  openapi: unknown;
}

export function createHttpApp(deps: HttpAppDeps): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>();
  const { logger, metrics } = deps;

  app.use(async (c, next) => {
    const started = performance.now();
    const requestId = requestIdFrom(c.req.header("x-request-id"));
    c.set("requestId", requestId);
    c.set("log", logger.child({ requestId }));
    c.header("X-Request-Id", requestId);
    await next();
    c.res.headers.set("X-Request-Id", requestId);
    const route = c.req.routePath;
    const seconds = (performance.now() - started) / 1000;
    metrics.httpDuration.observe({ method: c.req.method, route, status: String(c.res.status) }, seconds);
    if (route !== "/healthz" && route !== "/readyz" && route !== "/metrics") {
      c.get("log").info(
        { method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(seconds * 1000) },
        "request",
      );
    }
  });

  const tooLarge = (limit: number) =>
    bodyLimit({
      maxSize: limit,
      onError: (c) => {
        const response = errorResponse(
          new GatewayError("PAYLOAD_TOO_LARGE", `The request body is over the ${limit}-byte limit`, { details: { limit } }),
          c.get("log"),
        );
        // The rest of the body is never read, so the connection cannot be reused.
        response.headers.set("Connection", "close");
        return response;
      },
    });

  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    try {
      await deps.ready();
      return c.json({ status: "ready" });
    } catch (error) {
      c.get("log").warn({ err: error }, "not ready");
      return c.json({ status: "unavailable" }, 503);
    }
  });
  app.get("/metrics", async (c) =>
    c.body(await metrics.registry.metrics(), 200, { "Content-Type": metrics.registry.contentType }),
  );
  app.get("/api/v1/openapi.json", (c) => c.json(deps.openapi));

  for (const route of deps.routes) {
    app.use(`${route.path}/*`, tooLarge(deps.bodyLimit));
    app.route(route.path, route.app);
  }
  for (const surface of deps.surfaces) {
    const fixedLimit = tooLarge(surface.bodyLimit ?? deps.bodyLimit);
    const ownsLimit = surface.ownsBodyLimit;
    const limit: MiddlewareHandler<HttpEnv> = ownsLimit ? (c, next) => (ownsLimit(c.req.raw) ? next() : fixedLimit(c, next)) : fixedLimit;
    const handle = (c: Context<HttpEnv>) => surface.fetch(c.req.raw, { requestId: c.get("requestId"), log: c.get("log") });
    app.use(surface.path, limit);
    app.use(`${surface.path}/*`, limit);
    app.all(surface.path, handle);
    app.all(`${surface.path}/*`, handle);
  }

  app.notFound((c) =>
    errorResponse(new GatewayError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`), c.get("log") ?? logger),
  );
  app.onError((error, c) => errorResponse(error, c.get("log") ?? logger));
  return app;
}
