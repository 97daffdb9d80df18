// The composition root: builds every long-lived object once (store, render pool, verifier,
// rate limiter, surfaces) and hands them to the HTTP app. Nothing here runs per request.
import type { Hono } from "hono";
import { createAuthenticator } from "./auth/authenticate.ts";
import { createAccessTokenVerifier } from "./auth/jwt.ts";
import type { Config } from "./core/config.ts";
import { createLogger, type Logger } from "./core/logger.ts";
import { createRateLimiters } from "./core/rate-limit.ts";
import { createClientAddressResolver } from "./auth/client-address.ts";
import { createContextFactory, type ContextFactory } from "./core/request-context.ts";
import { createRenderPool } from "./documents/pool/configure.ts";
import type { DocumentRenderer } from "./documents/renderer.ts";
import { openStore, quotaBytes } from "./store/index.ts";
import type { Store } from "./store/types.ts";
import { createHttpApp, type HttpAppDeps } from "./http/app.ts";
import { createNodeFastPath, type NodeFastPath } from "./http/fast-path.ts";
import type { HttpEnv } from "./http/env.ts";
import { createMetrics, type Metrics } from "./observability/metrics.ts";
import { scheduleRetention } from "./services/retention.ts";
import { operationRoutes, REST_BASE, uploadRequestMatcher } from "./rest/routes.ts";
import { buildOpenApiDocument } from "./rest/openapi.ts";
import { packageVersion } from "./version.ts";
import type { Services } from "./services/index.ts";
import { createServices } from "./services/create.ts";
import { createSheetsPool } from "./spreadsheets/pool/configure.ts";
import { createBodyModule } from "./services/spreadsheets/create-body.ts";
import { createUpstreamClient, upstreamOptionsFromConfig } from "../adapters/upstream/client.ts";
import { createGraphQLSurface } from "./graphql/surface.ts";
import { documentHash, loadTrustedDocuments } from "./graphql/trusted-documents.ts";
import { createApqCache, type ApqCache } from "./graphql/apq-cache.ts";
import { createTrpcSurface } from "./trpc/surface.ts";
import { createMcpSurface, mcpRequestGuard } from "./mcp/http.ts";
import { selectTools } from "./mcp/tools.ts";
import { readTracingSettings, startTracing } from "./observability/tracing.ts";
import { tracingMiddleware } from "./http/tracing.ts";
import { createSessionAuthority } from "./auth/sessions.ts";
import { createOidcSignIn } from "./auth/oidc.ts";
import { APP_BASE, appOwnsBodyLimit, createAppRoutes, createPaths, loadAppAssets, SHARED_BASE, sharedPageRoutes } from "./app/index.ts";
import type { AppAssets } from "./app/assets.ts";
import type { AppDeps } from "./app/env.ts";

export interface Gateway {
  app: Hono<HttpEnv>;
  /** Requests the Node server hands to a surface before Hono (src/http/fast-path.ts); undefined: all go to `app`. */
  fastPath: NodeFastPath | undefined;
  config: Config;
  logger: Logger;
  metrics: Metrics;
  store: Store;
  services: Services;
  createContext: ContextFactory;
  /** Closes what the gateway opened: render workers, rate-limit connections, the store. */
  close(): Promise<void>;
  /** Shutdown began: /readyz answers 503 "draining" from now on (src/server.ts). */
  drain(): void;
  readonly draining: boolean;
}

export interface GatewayOptions {
  logger?: Logger;
  renderer?: DocumentRenderer;
  /** Where the OTEL_* tracing variables come from (docs/observability.md); default process.env. */
  tracingEnv?: Record<string, string | undefined>;
}

/** The GraphQL surface's trusted documents (the manifest read now, once), its APQ registrations and its document cache's bound. */
function graphqlDocuments(config: Config, apqCache: ApqCache | undefined) {
  const file = config.GRAPHQL_TRUSTED_DOCUMENTS_FILE;
  return {
    trustedDocuments: {
      documents: file ? loadTrustedDocuments(file) : new Map<string, string>(),
      only: config.GRAPHQL_TRUSTED_DOCUMENTS_ONLY,
    },
    apqCache,
    documentCacheSize: config.GRAPHQL_DOCUMENT_CACHE_SIZE,
  };
}

/** The owner's application (src/app/): its sessions in the store, OpenID Connect when OIDC_ISSUER is set. */
function applicationOf(config: Config, store: Store, services: Services, createContext: ContextFactory, assets: AppAssets) {
  const publicUrl = config.PUBLIC_URL ?? "";
  const deps: AppDeps = {
    services,
    createContext,
    sessions: createSessionAuthority({ store, ttlMs: config.APP_SESSION_TTL }),
    oidc:
      config.OIDC_ISSUER && config.OIDC_CLIENT_ID
        ? createOidcSignIn({
            issuer: config.OIDC_ISSUER,
            clientId: config.OIDC_CLIENT_ID,
            clientSecret: config.OIDC_CLIENT_SECRET,
            scopes: config.OIDC_SCOPES,
            providerName: config.OIDC_PROVIDER_NAME,
            tenantClaim: config.JWT_TENANT_CLAIM,
          })
        : undefined,
    paths: createPaths(publicUrl),
    secureCookies: publicUrl.startsWith("https:"),
    sessionTtlMs: config.APP_SESSION_TTL,
    assets,
    bodyLimit: config.BODY_LIMIT_BYTES,
  };
  return { routes: createAppRoutes(deps), sharedPage: sharedPageRoutes(deps) };
}

/** Where APQ clients' hashes are registered: none with GRAPHQL_APQ_CACHE_SIZE=0 or when only trusted documents run. */
function apqCacheOf(config: Config, logger: Logger): ApqCache | undefined {
  if (config.GRAPHQL_APQ_CACHE_SIZE === 0 || config.GRAPHQL_TRUSTED_DOCUMENTS_ONLY) return undefined;
  return createApqCache({ size: config.GRAPHQL_APQ_CACHE_SIZE, redisUrl: config.REDIS_URL, log: logger, hashOf: documentHash });
}

/** The application, the REST routes and the GraphQL, tRPC and MCP surfaces, over the services. */
function surfacesOf(
  config: Config,
  services: Services,
  createContext: ContextFactory,
  logger: Logger,
  mcpTools: ReturnType<typeof selectTools>,
  application: ReturnType<typeof applicationOf>,
  apqCache: ApqCache | undefined,
): Pick<HttpAppDeps, "routes" | "surfaces"> {
  const { BODY_LIMIT_BYTES: bodyLimit, UPLOAD_LIMIT_BYTES: uploadLimitBytes } = config;
  return {
    routes: [
      { path: APP_BASE, app: application.routes, ownsBodyLimit: appOwnsBodyLimit },
      // A share link opened in a browser: the recipient's page; other requests go on to REST's JSON.
      { path: SHARED_BASE, app: application.sharedPage },
      {
        path: REST_BASE,
        app: operationRoutes({ services, createContext, bodyLimit, uploadLimitBytes }),
        // An upload (a .docx import, new content) is streamed to disk under its row's own limit.
        ownsBodyLimit: uploadRequestMatcher(),
      },
    ],
    surfaces: [
      createGraphQLSurface({
        services,
        createContext,
        logger,
        introspection: config.GRAPHQL_INTROSPECTION,
        bodyLimit: config.GRAPHQL_BODY_LIMIT_BYTES,
        uploadLimitBytes,
        ...graphqlDocuments(config, apqCache),
      }),
      createTrpcSurface({ services, createContext, bodyLimit, uploadLimitBytes }),
      createMcpSurface({ services, createContext, bodyLimit, ...mcpRequestGuard(config), tools: mcpTools }),
    ],
  };
}

export async function createGateway(config: Config, options: GatewayOptions = {}): Promise<Gateway> {
  // Checked before anything is opened: an unknown MCP_TOOLS name stops start-up (ConfigError).
  const mcpTools = selectTools(config.MCP_TOOLS);
  // The application's client bundles, before anything is opened (bundled once from the sources when run from them).
  const assets = await loadAppAssets();
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const metrics = createMetrics();
  const tracingSettings = readTracingSettings(options.tracingEnv ?? process.env);
  const tracing = tracingSettings ? await startTracing(tracingSettings, logger) : undefined;
  const store = await openStore(config, {
    onSharedDataDir: (holder, dataDir) =>
      logger.warn(
        { dataDir, otherPid: holder.pid, otherHost: holder.hostname, otherSince: holder.startedAt },
        "DATA_DIR: another gateway is using this store; both stay consistent (SQLite WAL), but each counts rate limits on its own unless REDIS_URL is set",
      ),
    onQuotaExceeded: () => metrics.storageQuotaExceeded.inc(),
  });
  metrics.storageQuotaBytes.set(quotaBytes(config.STORAGE_QUOTA_MB));
  const renderer = options.renderer ?? createRenderPool(config, metrics);
  const authenticator = createAuthenticator({ store, verifyAccessToken: createAccessTokenVerifier(config) });
  const rateLimiter = createRateLimiters({
    perMinute: config.RATE_LIMIT_PER_MINUTE,
    authFailuresPerMinute: config.AUTH_FAILURES_PER_MINUTE,
    redisUrl: config.REDIS_URL,
    log: logger,
    onFailOpen: (limiter) => metrics.rateLimitFailOpen.inc({ limiter }),
  });
  const createContext = createContextFactory({
    authenticator,
    limits: rateLimiter,
    logger,
    readBudgetChars: config.REQUEST_READ_BUDGET_CHARS,
    readBudgetCells: config.REQUEST_READ_BUDGET_CELLS,
    batchMaxCalls: config.BATCH_MAX_CALLS,
  });
  const upstream = createUpstreamClient({
    ...upstreamOptionsFromConfig(config),
    metrics,
    userAgent: `workspace-gateway/${packageVersion}`,
  });
  const stopRetention = scheduleRetention(
    store,
    {
      trashDays: config.TRASH_RETENTION_DAYS,
      versionDays: config.VERSION_RETENTION_DAYS,
      versionKeepMin: config.VERSION_KEEP_MIN,
      intervalMs: config.RETENTION_INTERVAL_MS,
    },
    logger,
  );
  const sheetsPool = createSheetsPool(config, createBodyModule);
  const services: Services = createServices({ config, store, renderer, sheetsPool, upstream });
  const application = applicationOf(config, store, services, createContext, assets);
  const apqCache = apqCacheOf(config, logger);

  let draining = false;
  const httpDeps: HttpAppDeps = {
    logger,
    metrics,
    bodyLimit: config.BODY_LIMIT_BYTES,
    clientAddress: createClientAddressResolver(config.TRUSTED_PROXIES),
    corsOrigins: config.CORS_ORIGINS,
    metricsRoute: { token: config.METRICS_TOKEN, onMainPort: config.METRICS_PORT === undefined },
    ready: () => store.ping(),
    ...(store.poolStats ? { pool: store.poolStats.bind(store) } : {}),
    draining: () => draining,
    degraded: () => {
      const redis = rateLimiter.degraded();
      return redis === undefined ? [] : [redis];
    },
    openapi: buildOpenApiDocument(packageVersion),
    index: { version: packageVersion, publicUrl: services.publicUrl },
    tracing: tracing ? tracingMiddleware(tracing.tracer) : undefined,
    ...surfacesOf(config, services, createContext, logger, mcpTools, application, apqCache),
  };
  const app = createHttpApp(httpDeps);
  const fastPath = createNodeFastPath(httpDeps);

  let closed: Promise<void> | undefined;
  return {
    app,
    fastPath,
    config,
    logger,
    metrics,
    store,
    services,
    createContext,
    drain: () => {
      draining = true;
    },
    get draining() {
      return draining;
    },
    close: () =>
      (closed ??= (async () => {
        await stopRetention();
        await renderer.close();
        await sheetsPool.close();
        await upstream.close();
        await rateLimiter.close();
        await apqCache?.close();
        await store.close();
        await tracing?.shutdown();
      })()),
  };
}
