// tRPC at /trpc on the gateway's server, through the fetch adapter.
import { TRPCError } from "@trpc/server";
import { resolveResponse } from "@trpc/server/http";
import * as lightFetch from "@whatwg-node/fetch";
import { normalizeNodeRequest } from "@whatwg-node/server";
import type { RequestContext } from "../core/context.ts";
import type { GatewayError } from "../core/errors.ts";
import type { Logger } from "../core/logger.ts";
import type { ContextFactory } from "../core/request-context.ts";
import type { Services } from "../gateway.ts";
import type { FailureHandler, Surface, SurfaceEnv } from "../http/app.ts";
import { requestHead, type RequestHead } from "../http/node.ts";
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

/** The procedure path of a /trpc URL path ("/trpc/messages.list" → "messages.list"). */
const procedurePath = (pathname: string) => pathname.slice(ENDPOINT.length).replace(/^\/+|\/+$/g, "");

// A class rather than an object literal with closures: one is made for every tRPC request.
class SurfaceContext implements TrpcContext {
  readonly services: Services;
  readonly requestId: string;
  readonly log: Logger;
  readonly #createContext: ContextFactory;
  readonly #http: Request;
  #pending: Promise<RequestContext> | undefined;
  /** `pending`: the request context when it was built before the body was read (uploads), or a failure. */
  constructor(options: TrpcSurfaceOptions, http: Request, env: SurfaceEnv, pending?: Promise<RequestContext>) {
    this.services = options.services;
    this.requestId = env.requestId;
    this.log = env.log;
    this.#createContext = options.createContext;
    this.#http = http;
    this.#pending = pending;
  }
  /** Authenticates on first use (once per HTTP request, so once per batch). */
  request(): Promise<RequestContext> {
    return (this.#pending ??= this.#createContext({
      requestId: this.requestId,
      authorization: this.#http.headers.get("authorization"),
      signal: this.#http.signal,
    }));
  }
}

export function createTrpcSurface(options: TrpcSurfaceOptions): Surface {
  // tRPC's resolveResponse, called as its fetch adapter would, without the adapter's own copies
  // of the options, URL and response headers on every request.
  const handle = (request: Request, path: string, env: SurfaceEnv, authenticated?: Promise<RequestContext>) =>
    resolveResponse({
      router: appRouter,
      req: request,
      path,
      allowMethodOverride: false,
      createContext: async () => new SurfaceContext(options, request, env, authenticated),
      error: null,
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
      path: procedurePath(new URL(request.url).pathname),
      allowMethodOverride: false,
      // No procedure runs, so nothing authenticates; were one to ask, it would get the error.
      createContext: async () => {
        const failed = Promise.reject(error);
        failed.catch(() => {}); // handled by whoever asks, if anyone does
        return new SurfaceContext(options, request, env, failed);
      },
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
      serve: (request, env, authenticated) =>
        handle(request, procedurePath(new URL(request.url).pathname), env, Promise.resolve(authenticated)),
      fail,
    },
    (request, env) => handle(request, procedurePath(new URL(request.url).pathname), env),
  );
  return {
    path: "/trpc",
    bodyLimit: options.bodyLimit,
    ownsBodyLimit: accepts,
    fail,
    fetch,
    // whatwg-node's light Request over the Node request: the body is read straight off the socket,
    // and its AbortSignal fires when the client hangs up.
    handleNode: (incoming, outgoing, env) =>
      handle(normalizeNodeRequest(incoming, lightFetch, outgoing, false), procedurePath(requestHead(incoming).path), env),
  };
}
