// GraphQL at /graphql: graphql-yoga over the shared schema, with armor limits, a cost limit, CSRF prevention,
// masked errors and yoga's parse/validation caches. One yoga instance for the process.
import { EnvelopArmorPlugin } from "@escape.tech/graphql-armor";
import { useCSRFPrevention } from "@graphql-yoga/plugin-csrf-prevention";
import { NoSchemaIntrospectionCustomRule } from "graphql";
import { createLRUCache, createYoga, type Plugin } from "graphql-yoga";
import type { ContextFactory } from "../core/request-context.ts";
import type { RequestContext } from "../core/context.ts";
import type { Logger } from "../core/logger.ts";
import type { Services } from "../services/index.ts";
import type { Surface, SurfaceEnv } from "../http/app.ts";
import { operationsOn } from "../services/operations/index.ts";
import { authenticateAnyUpload, graphqlFailure, isMultipartFormData, withUploads } from "../uploads/index.ts";
import type { GraphQLContext } from "../../resolvers/context.ts";
import { costModel, useCostLimit } from "./cost.ts";
import { createGraphQLErrors, requestParseErrors } from "./errors.ts";
import { cachedGraphiQL } from "./graphiql-cache.ts";
import { useJit } from "./jit.ts";
import { useSlicedResults } from "./sliced-results.ts";
import { checkUploadField } from "./upload-operations.ts";
import { buildSchema } from "./schema.ts";
import { useTrustedDocuments } from "./trusted-documents.ts";
import type { ApqCache } from "./apq-cache.ts";
import { useApq } from "./apq.ts";

export interface GraphQLSurfaceOptions {
  services: Services;
  createContext: ContextFactory;
  /** For errors of a request served without the gateway's env; others log with the request's logger. */
  logger: Logger;
  introspection: boolean;
  bodyLimit: number;
  /** File bytes one multipart request (uploadFile, importDocument, updateDocument) may carry: UPLOAD_LIMIT_BYTES. */
  uploadLimitBytes: number;
  /** Trusted documents by sha256 hash (GRAPHQL_TRUSTED_DOCUMENTS_FILE; empty: none), and whether only those run. */
  trustedDocuments?: { documents: ReadonlyMap<string, string>; only: boolean };
  /** Hashes APQ clients register with their text (GRAPHQL_APQ_CACHE_SIZE; undefined: none are). */
  apqCache?: ApqCache | undefined;
  /** Parsed operations kept, least recently used dropped first: GRAPHQL_DOCUMENT_CACHE_SIZE. */
  documentCacheSize?: number;
}

/** Yoga's server context: the surface env, plus the request context when it was built before the body was read (uploads). */
type ServerContext = SurfaceEnv & { authenticated?: Promise<RequestContext> };

export const graphqlLimits = { maxDepth: 12, maxAliases: 20, maxDirectives: 20, maxTokens: 4000, maxCost: costModel.MAX_COST };

export function createGraphQLSurface(options: GraphQLSurfaceOptions): Surface {
  const disableIntrospection: Plugin = {
    onValidate: ({ addValidationRule }) => addValidationRule(NoSchemaIntrospectionCustomRule),
  };
  const errors = createGraphQLErrors(options.logger);
  const trusted = options.trustedDocuments ?? { documents: new Map<string, string>(), only: false };
  const apq = useApq({ ...trusted, cache: options.apqCache });
  // GraphiQL's assets are served from the package itself: no CDN, works offline and behind firewalls.
  // They are loaded on the first GraphiQL page, not at start-up: the package inlines its assets
  // and costs ~50 MB of memory that an API-only gateway never needs.
  const graphiql = cachedGraphiQL(async (page) => (await import("@graphql-yoga/render-graphiql")).renderGraphiQL(page));
  const yoga = createYoga<ServerContext>({
    schema: buildSchema(),
    graphqlEndpoint: "/graphql",
    landingPage: false,
    // CORS is the app's, the same for every surface (src/http/cors.ts); yoga's would echo any origin.
    cors: false,
    renderGraphiQL: graphiql.renderGraphiQL,
    graphiql: { title: "workspace-gateway", headers: JSON.stringify({ Authorization: "Bearer <your key or token>" }) },
    logging: false,
    // The app's body limit (GRAPHQL_BODY_LIMIT_BYTES) has already applied, and upload bodies are
    // spooled (src/uploads): yoga's own 25 MB check would only pipe every body through one more
    // TransformStream.
    maxRequestBodySize: false,
    maskedErrors: { maskError: errors.maskError, errorMessage: "Internal error" },
    // Parsed documents by their text, bounded: each one's validation and graphql-jit compilation
    // are kept by its DocumentNode (weakly), so they go when it goes.
    parserAndValidationCache: {
      documentCache: createLRUCache({ max: options.documentCacheSize ?? 1024 }),
      errorCache: createLRUCache({ max: options.documentCacheSize ?? 1024 }),
    },
    plugins: [
      graphiql.plugin,
      // First: a text sent with a hash that is not its own is refused, and a trusted or registered
      // document's text is in place before the limits, the cost and validation see it (CSRF
      // prevention is checked on the request, before any of them).
      apq.check,
      useTrustedDocuments(trusted.documents, trusted.only, options.apqCache),
      // Bearer credentials are never ambient, so a request carrying one is not a CSRF vector.
      useCSRFPrevention({ requestHeaders: ["x-graphql-yoga-csrf", "apollo-require-preflight", "authorization"] }),
      EnvelopArmorPlugin({
        maxDepth: { n: graphqlLimits.maxDepth, ignoreIntrospection: true },
        maxAliases: { n: graphqlLimits.maxAliases },
        maxDirectives: { n: graphqlLimits.maxDirectives },
        maxTokens: { n: graphqlLimits.maxTokens },
        // Its cost limit saw neither variables nor `limit` nor what a text field reads: ./cost.ts instead.
        costLimit: { enabled: false },
        blockFieldSuggestion: { enabled: !options.introspection },
      }),
      errors.plugin,
      requestParseErrors,
      // Before graphql-jit: an operation over the cost limit is refused, compiled or not.
      useCostLimit(graphqlLimits.maxCost),
      // After every check: only an operation about to run registers its APQ hash.
      apq.register,
      ...useJit(options.logger),
      // Large answers written a few milliseconds at a time (issue 37 F5).
      useSlicedResults(),
      ...(options.introspection ? [] : [disableIntrospection]),
    ],
    context: ({ request, requestId, clientAddress, authenticated }): GraphQLContext => {
      let pending = authenticated;
      return {
        services: options.services,
        requestId,
        request: () =>
          (pending ??= options.createContext({
            requestId,
            authorization: request.headers.get("authorization"),
            accessToken: request.headers.get("x-access-token"),
            signal: request.signal,
            clientAddress: clientAddress ?? "unknown",
          })),
      };
    },
  });
  // Multipart requests (the GraphQL multipart request spec) are streamed to temp files first: see src/uploads.
  const accepts = isMultipartFormData;
  const fetch = withUploads(
    {
      limits: { fileBytes: options.uploadLimitBytes, fieldBytes: options.bodyLimit },
      accepts,
      // Any upload row may be the one (uploadFile, importDocument, updateDocument…): see authenticateAnyUpload.
      authenticate: authenticateAnyUpload(
        options.createContext,
        operationsOn("graphql")
          .filter(([, op]) => op.upload)
          .map(([, op]) => op),
      ),
      checkField: checkUploadField,
      serve: (request, env, authenticated) => yoga.fetch(request, { ...env, authenticated: Promise.resolve(authenticated) }),
      fail: graphqlFailure,
    },
    (request, env) => yoga.fetch(request, env),
  );
  return {
    path: "/graphql",
    bodyLimit: options.bodyLimit,
    ownsBodyLimit: accepts,
    fail: graphqlFailure,
    fetch,
    // yoga reads the body straight off the socket, into its own light Request.
    handleNode: (incoming, outgoing, env) => yoga.handleNodeRequestAndResponse(incoming, outgoing, env),
    // Every request yoga takes from Node's objects may be handed over before Hono (src/http/fast-path.ts).
    fastNode: () => true,
  };
}
