// The composition root: builds every long-lived object once (store, render pool, verifier,
// rate limiter, surfaces) and hands them to the HTTP app. Nothing here runs per request.
import type { Hono } from "hono";
import { createAuthenticator } from "./auth/authenticate.ts";
import { createAccessTokenVerifier } from "./auth/jwt.ts";
import type { Config } from "./core/config.ts";
import { createLogger, type Logger } from "./core/logger.ts";
import { createRateLimiter } from "./core/rate-limit.ts";
import { createContextFactory, type ContextFactory } from "./core/request-context.ts";
import { RenderPool } from "./documents/pool/index.ts";
import type { DocumentRenderer } from "./documents/renderer.ts";
import { openStore } from "./documents/store/index.ts";
import type { DocumentStore } from "./documents/store/types.ts";
import { createHttpApp } from "./http/app.ts";
import type { HttpEnv } from "./http/env.ts";
import { createMetrics, type Metrics } from "./http/metrics.ts";
import { documentsRoutes } from "./rest/documents.ts";
import { filesRoutes } from "./rest/files.ts";
import { buildOpenApiDocument } from "./rest/openapi.ts";
import { packageVersion } from "./version.ts";
import { createDocumentsService, type DocumentsService } from "./services/documents.ts";
import { createProductServices, type ProductServices } from "./services/products.ts";
import { createUpstreamClient } from "../adapters/upstream/client.ts";
import { createGraphQLSurface } from "./graphql/surface.ts";
import { createTrpcSurface } from "./trpc/surface.ts";
import { createMcpSurface } from "./mcp/http.ts";


export interface Services {
  documents: DocumentsService;
  products: ProductServices;
}

export interface Gateway {
  app: Hono<HttpEnv>;
  config: Config;
  logger: Logger;
  metrics: Metrics;
  store: DocumentStore;
  services: Services;
  createContext: ContextFactory;
  /** Closes what the gateway opened: render workers, rate-limit connections, the store. */
  close(): Promise<void>;
}

export interface GatewayOptions {
  logger?: Logger;
  renderer?: DocumentRenderer;
}

export async function createGateway(config: Config, options: GatewayOptions = {}): Promise<Gateway> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const metrics = createMetrics();
  const store = await openStore(config);
  const renderer =
    options.renderer ??
    new RenderPool({
      ...(config.RENDER_WORKERS > 0 ? { size: config.RENDER_WORKERS } : {}),
      maxQueue: config.RENDER_QUEUE,
      warmup: config.RENDER_WARMUP,
      onReject: () => metrics.renderQueueRejected.inc(),
    });
  const authenticator = createAuthenticator({ store, verifyAccessToken: createAccessTokenVerifier(config) });
  const rateLimiter = createRateLimiter({ perMinute: config.RATE_LIMIT_PER_MINUTE, redisUrl: config.REDIS_URL, log: logger });
  const createContext = createContextFactory({ authenticator, rateLimiter, logger });
  const upstream = createUpstreamClient({
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    uploadLimitBytes: config.UPLOAD_LIMIT_BYTES,
    metrics,
    userAgent: `workspace-gateway/${packageVersion}`,
  });
  const services: Services = {
    documents: createDocumentsService({ store, renderer }),
    products: createProductServices({ config, upstream }),
  };

  const app = createHttpApp({
    logger,
    metrics,
    bodyLimit: config.BODY_LIMIT_BYTES,
    ready: () => store.ping(),
    openapi: buildOpenApiDocument(packageVersion),
    routes: [
      { path: "/api/v1/documents", app: documentsRoutes({ documents: services.documents, createContext }) },
      { path: "/api/v1/files", app: filesRoutes({ products: services.products, createContext }) },
    ],
    surfaces: [
      createGraphQLSurface({
        services,
        createContext,
        logger,
        introspection: config.GRAPHQL_INTROSPECTION,
        bodyLimit: config.GRAPHQL_BODY_LIMIT_BYTES,
        uploadLimitBytes: config.UPLOAD_LIMIT_BYTES,
      }),
      createTrpcSurface({ services, createContext, bodyLimit: config.BODY_LIMIT_BYTES, uploadLimitBytes: config.UPLOAD_LIMIT_BYTES }),
      createMcpSurface({ services, createContext, bodyLimit: config.BODY_LIMIT_BYTES }),
    ],
  });

  let closed: Promise<void> | undefined;
  return {
    app,
    config,
    logger,
    metrics,
    store,
    services,
    createContext,
    close: () =>
      (closed ??= (async () => {
        await renderer.close();
        await upstream.close();
        await rateLimiter.close();
        await store.close();
      })()),
  };
}
