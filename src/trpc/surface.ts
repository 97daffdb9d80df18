// tRPC at /trpc on the gateway's server: tRPC's resolveResponse, called directly (see handle).
import type { IncomingMessage } from "node:http";
import { TRPCError } from "@trpc/server";
import { resolveResponse } from "@trpc/server/http";
import * as lightFetch from "@whatwg-node/fetch";
import { normalizeNodeRequest } from "@whatwg-node/server";
import type { RequestContext } from "../core/context.ts";
import type { GatewayError } from "../core/errors.ts";
import type { Logger } from "../core/logger.ts";
import type { ContextFactory } from "../core/request-context.ts";
import type { Services } from "../services/index.ts";
import type { FailureHandler, FetchHandler, Surface, SurfaceEnv } from "../http/app.ts";
import { hangUpSignal } from "../http/answer.ts";
import { requestHead, type RequestHead } from "../http/node.ts";
import { operationsOn } from "../services/operations/index.ts";
import { authenticateFor, isMultipartFormData, uploadLimitOf, withUploads } from "../uploads/index.ts";
import type { TrpcContext } from "./init.ts";
import { appRouter } from "./router.ts";
import { answerSingleQuery, singleQuery, type SingleQuery } from "./single-query.ts";

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
const pathOf = (request: Request) => procedurePath(new URL(request.url).pathname);

/** Procedure calls in a request: a batch's path lists them comma-separated ("documents.list,viewer"). */
const callsIn = (path: string) => path.split(",").length;

/** What a context needs of the HTTP request: its credentials and the signal that says the caller went away. */
interface Caller {
  authorization(): string | null;
  /** X-Access-Token: the product access token beside a personal API key. */
  accessToken(): string | null;
  signal: AbortSignal;
}

const callerOf = (request: Request): Caller => ({
  authorization: () => request.headers.get("authorization"),
  accessToken: () => request.headers.get("x-access-token"),
  signal: request.signal,
});

/** One tRPC request's context. */
class SurfaceContext implements TrpcContext {
  readonly services: Services;
  readonly requestId: string;
  readonly log: Logger;
  readonly #start: () => Promise<RequestContext>;
  #pending: Promise<RequestContext> | undefined;
  /**
   * `start` overrides where the request context comes from: one built before the body was read
   * (uploads), or the failure that stopped the request before tRPC ran.
   */
  constructor(options: TrpcSurfaceOptions, http: Caller, env: SurfaceEnv, calls: number, start?: () => Promise<RequestContext>) {
    this.services = options.services;
    this.requestId = env.requestId;
    this.log = env.log;
    this.#start =
      start ??
      (() =>
        options.createContext({
          requestId: env.requestId,
          authorization: http.authorization(),
          accessToken: http.accessToken(),
          signal: http.signal,
          clientAddress: env.clientAddress,
          calls,
        }));
  }
  /** Authenticates on first use (once per HTTP request, so once per batch; the limits count every call of the batch). */
  request(): Promise<RequestContext> {
    return (this.#pending ??= this.#start());
  }
}

/**
 * tRPC answers a request it could not even read (a content type it has no parser for) with its JSON
 * error body but no content type, which the platform then calls text/plain: said as JSON, like
 * every other error body.
 */
function asJson(response: Response): Response {
  const type = response.headers.get("content-type");
  if (response.status < 400 || (type !== null && !type.startsWith("text/plain"))) return response;
  response.headers.set("content-type", "application/json");
  return response;
}

/** The single query a Node request is (./single-query.ts), read once per request: fastNode and handleNode both ask. */
const singleQueries = new WeakMap<IncomingMessage, SingleQuery | null>();
function singleQueryOf(incoming: IncomingMessage): SingleQuery | undefined {
  let single = singleQueries.get(incoming);
  if (single === undefined) {
    const url = incoming.url ?? "/";
    const query = url.indexOf("?");
    const accept = incoming.headers["trpc-accept"];
    single =
      singleQuery(
        incoming.method ?? "GET",
        procedurePath(requestHead(incoming).path),
        query < 0 ? "" : url.slice(query + 1),
        accept === undefined ? undefined : String(accept),
      ) ?? null;
    singleQueries.set(incoming, single);
  }
  return single ?? undefined;
}

export function createTrpcSurface(options: TrpcSurfaceOptions): Surface {
  // tRPC's resolveResponse, called as its fetch adapter would, without the adapter's own copies
  // of the options, URL and response headers on every request.
  const handle = async (request: Request, path: string, env: SurfaceEnv, start?: () => Promise<RequestContext>) =>
    asJson(
      await resolveResponse({
        router: appRouter,
        req: request,
        path,
        allowMethodOverride: false,
        createContext: async () => new SurfaceContext(options, callerOf(request), env, callsIn(path), start),
        error: null,
      }),
    );
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
      path: pathOf(request),
      allowMethodOverride: false,
      // No procedure runs, so nothing authenticates; were one to ask, it would get the error.
      createContext: async () => new SurfaceContext(options, callerOf(request), env, 1, () => Promise.reject(error)),
      error: new TRPCError({ code: error.trpcCode, message: error.message, cause: error }),
    }).then(asJson);
  };
  // An upload row's FormData (files.upload, documents.import, documents.update…) is streamed to
  // temp files first, under the row's own limit and after its credential check (see src/uploads);
  // other multipart requests keep tRPC's own parsing under the normal body limit.
  const uploads = operationsOn("trpc").filter(([, op]) => op.upload);
  const accepts = (request: RequestHead) =>
    isMultipartFormData(request) && uploads.some(([name]) => request.path === `${ENDPOINT}/${name}`);
  const serve = (request: Request, env: SurfaceEnv, authenticated: RequestContext) =>
    handle(request, pathOf(request), env, async () => authenticated);
  const fetch = uploads.reduce<FetchHandler>(
    (next, [name, op]) =>
      withUploads(
        {
          limits: { fileBytes: uploadLimitOf(op, options.uploadLimitBytes), fieldBytes: options.bodyLimit, files: 1 },
          accepts: (request) => isMultipartFormData(request) && request.path === `${ENDPOINT}/${name}`,
          authenticate: authenticateFor(options.createContext, op),
          serve,
          fail,
        },
        next,
      ),
    (request, env) => handle(request, pathOf(request), env),
  );
  return {
    path: "/trpc",
    bodyLimit: options.bodyLimit,
    ownsBodyLimit: accepts,
    fail,
    fetch,
    // A single query by GET is answered by ./single-query.ts from Node's request as it is;
    // everything else by resolveResponse, over whatwg-node's light Request (the body read straight
    // off the socket, its AbortSignal firing when the client hangs up).
    handleNode: async (incoming, outgoing, env) => {
      const single = singleQueryOf(incoming);
      if (!single)
        return handle(normalizeNodeRequest(incoming, lightFetch, outgoing, false), procedurePath(requestHead(incoming).path), env);
      // Read off Node's request as it is: no platform Request for a call that has no body.
      const signal = hangUpSignal(incoming, outgoing);
      // Node's parsed headers, as the platform Request of the other path reads them (a repeated Authorization: the first).
      const caller: Caller = {
        authorization: () => incoming.headers.authorization ?? null,
        accessToken: () => requestHead(incoming).headers.get("x-access-token"),
        signal,
      };
      return answerSingleQuery(single, new SurfaceContext(options, caller, env, 1), signal);
    },
    // Single queries are answered in memory: the server may hand them over before Hono (src/http/fast-path.ts).
    fastNode: (incoming) => singleQueryOf(incoming) !== undefined,
  };
}
