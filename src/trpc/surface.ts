// tRPC at /trpc on the gateway's server, through the fetch adapter.
import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { resolveResponse } from "@trpc/server/http";
import * as lightFetch from "@whatwg-node/fetch";
import { normalizeNodeRequest } from "@whatwg-node/server";
import type { RequestContext } from "../core/context.ts";
import type { GatewayError } from "../core/errors.ts";
import type { ContextFactory } from "../core/request-context.ts";
import type { Services } from "../gateway.ts";
import type { FailureHandler, Surface, SurfaceEnv } from "../http/app.ts";
import type { RequestHead } from "../http/node.ts";
import { authenticateUpload, isMultipartFormData, withUploads } from "../uploads/index.ts";
import type { TrpcContext } from "./init.ts";
import { appRouter } from "./router.ts";

export interface TrpcSurfaceOptions {
  services: Services;
  createContext: ContextFactory;
  bodyLimit: number;
  /** File bytes one files.upload request may carry: UPLOAD_LIMIT_BYTES. */
  uploadLimitBytes: number;
}

const ENDPOINT = "/trpc";

export function createTrpcSurface(options: TrpcSurfaceOptions): Surface {
  // `authenticated`: the request context, when it was built before the body was read (uploads).
  const context = (request: Request, env: SurfaceEnv, authenticated?: Promise<RequestContext>): TrpcContext => {
    let pending = authenticated;
    return {
      services: options.services,
      requestId: env.requestId,
      log: env.log,
      request: () =>
        (pending ??= options.createContext({
          requestId: env.requestId,
          authorization: request.headers.get("authorization"),
          signal: request.signal,
        })),
    };
  };
  const handle = (request: Request, env: SurfaceEnv, authenticated?: Promise<RequestContext>) =>
    fetchRequestHandler({
      endpoint: ENDPOINT,
      req: request,
      router: appRouter,
      allowMethodOverride: false,
      createContext: () => context(request, env, authenticated),
    });
  /**
   * A request that failed before tRPC ran (body over the limit, upload authentication or spooling):
   * tRPC itself answers every call in it with the error, batched or not, in the shape a client
   * turns into a TRPCClientError (data.code, data.gatewayCode). The body is never read and no
   * procedure runs.
   */
  const fail: FailureHandler = (error: GatewayError, request, env) => {
    if (error.code === "INTERNAL") env.log.error({ err: error.cause ?? error }, "tRPC request failed");
    return resolveResponse({
      router: appRouter,
      req: request,
      path: new URL(request.url).pathname.slice(ENDPOINT.length).replace(/^\/+|\/+$/g, ""),
      allowMethodOverride: false,
      // No procedure runs, so nothing authenticates; were one to ask, it would get the error.
      createContext: async () => ({ ...context(request, env), request: () => Promise.reject(error) }),
      error: new TRPCError({ code: error.trpcCode, message: error.message, cause: error }),
    });
  };
  // files.upload's FormData is streamed to temp files first (see src/uploads); other multipart
  // requests keep tRPC's own parsing under the normal body limit.
  const accepts = (request: RequestHead) => isMultipartFormData(request) && request.path === "/trpc/files.upload";
  const fetch = withUploads(
    {
      limits: { fileBytes: options.uploadLimitBytes, fieldBytes: options.bodyLimit },
      accepts,
      authenticate: authenticateUpload(options.createContext),
      serve: (request, env, authenticated) => handle(request, env, Promise.resolve(authenticated)),
      fail,
    },
    (request, env) => handle(request, env),
  );
  return {
    path: "/trpc",
    bodyLimit: options.bodyLimit,
    ownsBodyLimit: accepts,
    fail,
    fetch,
    // whatwg-node's light Request over the Node request: the body is read straight off the socket,
    // and its AbortSignal fires when the client hangs up.
    handleNode: (incoming, outgoing, env) => handle(normalizeNodeRequest(incoming, lightFetch, outgoing, false), env),
  };
}
