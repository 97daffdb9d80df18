// tRPC at /trpc on the gateway's server, through the fetch adapter.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import * as lightFetch from "@whatwg-node/fetch";
import { normalizeNodeRequest } from "@whatwg-node/server";
import type { RequestContext } from "../core/context.ts";
import type { ContextFactory } from "../core/request-context.ts";
import type { Services } from "../gateway.ts";
import type { Surface, SurfaceEnv } from "../http/app.ts";
import type { RequestHead } from "../http/node.ts";
import { failThroughFormData, isMultipartFormData, withUploads } from "../uploads/index.ts";
import type { TrpcContext } from "./init.ts";
import { appRouter } from "./router.ts";

export interface TrpcSurfaceOptions {
  services: Services;
  createContext: ContextFactory;
  bodyLimit: number;
  /** File bytes one files.upload request may carry: UPLOAD_LIMIT_BYTES. */
  uploadLimitBytes: number;
}

export function createTrpcSurface(options: TrpcSurfaceOptions): Surface {
  // `authenticated`: the request context, when it was built before the body was read (uploads).
  const handle = (request: Request, env: SurfaceEnv, authenticated?: Promise<RequestContext>) =>
    fetchRequestHandler({
      endpoint: "/trpc",
      req: request,
      router: appRouter,
      allowMethodOverride: false,
      createContext: (): TrpcContext => {
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
      },
    });
  // files.upload's FormData is streamed to temp files first (see src/uploads); other multipart
  // requests keep tRPC's own parsing under the normal body limit.
  const accepts = (request: RequestHead) => isMultipartFormData(request) && request.path === "/trpc/files.upload";
  const fetch = withUploads(
    {
      limits: { fileBytes: options.uploadLimitBytes, fieldBytes: options.bodyLimit },
      accepts,
      authenticate: (request, env) =>
        options.createContext({ requestId: env.requestId, authorization: request.headers.get("authorization"), signal: request.signal }),
      serve: (request, env, authenticated) => handle(request, env, Promise.resolve(authenticated)),
      fail: failThroughFormData((request, env) => handle(request, env)),
    },
    (request, env) => handle(request, env),
  );
  return {
    path: "/trpc",
    bodyLimit: options.bodyLimit,
    ownsBodyLimit: accepts,
    fetch,
    // whatwg-node's light Request over the Node request: the body is read straight off the socket,
    // and its AbortSignal fires when the client hangs up.
    handleNode: (incoming, outgoing, env) => handle(normalizeNodeRequest(incoming, lightFetch, outgoing, false), env),
  };
}
