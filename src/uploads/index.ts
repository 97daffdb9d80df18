// File uploads for the GraphQL and tRPC surfaces, streamed end to end. graphql-yoga and tRPC's
// fetch adapter both read a multipart body with `request.formData()`, which buffers every file
// in memory. For an upload request this module instead
//   1. authenticates first (so nobody anonymous gets to fill the disk),
//   2. streams the body to temp files, enforcing UPLOAD_LIMIT_BYTES on the way (spool.ts),
//   3. hands the surface a Request whose formData() is that form, with file-backed Files that the
//      upstream multipart encoder streams from disk, and
//   4. removes the temp files when the surface has answered (success, error or client abort).
// Failures are answered in the surface's own error shape (`fail`).
import type { RequestContext } from "../core/context.ts";
import { GatewayError, toGatewayError } from "../core/errors.ts";
import type { ContextFactory } from "../core/request-context.ts";
import type { FetchHandler, SurfaceEnv } from "../http/app.ts";
import { errorHeaders } from "../http/errors.ts";
import { fetchRequestHead, type RequestHead } from "../http/node.ts";
import type { AnyOperation } from "../services/operations/index.ts";
import { authorize } from "../services/runner.ts";
import { spoolForm, type UploadLimits } from "./spool.ts";

export { maxUploadBodyBytes, spoolForm, TEMP_PREFIX, type SpooledForm, type UploadLimits } from "./spool.ts";

/** Whether a Content-Type is multipart/form-data (an upload's body). */
export const isMultipartType = (contentType: string | null | undefined): boolean =>
  /^multipart\/form-data\s*(;|$)/i.test(contentType ?? "");

/** A multipart upload with one of `methods` (POST by default). */
export const isMultipartFormData = (request: RequestHead, methods: readonly string[] = ["POST"]): boolean =>
  methods.includes(request.method) && isMultipartType(request.headers.get("content-type"));

/** The request context from an upload request's credentials, before its body is read. */
const contextOf = (createContext: ContextFactory, request: Request, env: SurfaceEnv): Promise<RequestContext> =>
  createContext({
    requestId: env.requestId,
    authorization: request.headers.get("authorization"),
    accessToken: request.headers.get("x-access-token"),
    signal: request.signal,
    clientAddress: env.clientAddress,
  });

/**
 * An upload route's `authenticate` for one operation: the request context, with the operation's
 * credential checked (its scope, or an access token), before a byte of the body is read — nobody
 * who could not run it gets to fill the disk.
 */
export const authenticateFor =
  (createContext: ContextFactory, op: AnyOperation) =>
  async (request: Request, env: SurfaceEnv): Promise<RequestContext> => {
    const ctx = await contextOf(createContext, request, env);
    authorize(op, ctx);
    return ctx;
  };

/**
 * GraphQL's upload route: its operation is only known once the body is parsed, so it admits a
 * credential that can upload something — an access token, or an API key with a scope an upload
 * row needs — and each operation's own check runs when it does (./graphql checks a key's
 * `operations` field before files are spooled).
 */
export const authenticateAnyUpload =
  (createContext: ContextFactory, ops: readonly AnyOperation[]) =>
  async (request: Request, env: SurfaceEnv): Promise<RequestContext> => {
    const ctx = await contextOf(createContext, request, env);
    // An access token (alone, or beside the key in X-Access-Token) may upload to a product.
    if (ctx.principal.kind !== "api_key" || ctx.principal.accessToken) return ctx;
    const scopes = ops.map((op) => op.auth).filter((auth) => auth !== "access_token" && auth !== "share_token");
    if (!scopes.some((scope) => ctx.principal.scopes.has(scope))) {
      throw new GatewayError("FORBIDDEN", `Uploads need an access token (files) or an API key with the ${scopes.join(" or ")} scope`, {
        scope: scopes[0] ?? "docs:write",
      });
    }
    return ctx;
  };

/** The bytes one upload row's file may have. */
export const uploadLimitOf = (op: AnyOperation, uploadLimitBytes: number): number =>
  op.upload?.maxBytes === "UPLOAD_LIMIT_BYTES" ? uploadLimitBytes : (op.upload?.maxBytes ?? uploadLimitBytes);

/** The caller's request with its body replaced by an already-parsed form. */
export class FormRequest extends Request {
  readonly #form: () => Promise<FormData>;

  constructor(original: Request, form: () => Promise<FormData>) {
    const headers = new Headers(original.headers);
    // The bytes are gone (spooled): a Content-Length would only trip size checks meant for bodies
    // still to be read (yoga's maxRequestBodySize).
    headers.delete("content-length");
    headers.delete("transfer-encoding");
    super(original.url, { method: original.method, headers, signal: original.signal });
    this.#form = form;
  }

  override formData(): Promise<FormData> {
    return this.#form();
  }
}

export interface UploadRoute<A> {
  limits: UploadLimits;
  /** Where temp files go; default the OS temp dir (TMPDIR). */
  tmpDir?: string;
  /** Is this request an upload? Only these are spooled (and exempt from the surface's small body limit). */
  accepts(request: RequestHead): boolean;
  /** Runs before a byte of the body is read: authentication and rate limit. */
  authenticate(request: Request, env: SurfaceEnv): Promise<A>;
  /**
   * Sees each text field before the file parts after it (GraphQL's `operations` comes first):
   * throwing refuses the upload before its files are spooled.
   */
  checkField?(name: string, value: string, authenticated: A): void;
  /** Serves the upload: `request.formData()` resolves with the spooled form. */
  serve(request: Request, env: SurfaceEnv, authenticated: A): Response | Promise<Response>;
  /** Answers a failure (authentication, limits, malformed body) in the surface's error shape. */
  fail(error: GatewayError, request: Request, env: SurfaceEnv): Response | Promise<Response>;
}

/** Wraps a surface's handler: upload requests are spooled, everything else goes to `next` as is. */
export function withUploads<A>(route: UploadRoute<A>, next: FetchHandler): FetchHandler {
  return async (request, env) => {
    if (!route.accepts(fetchRequestHead(request))) return next(request, env);
    let authenticated: A;
    try {
      authenticated = await route.authenticate(request, env);
    } catch (error) {
      return route.fail(toGatewayError(error), request, env);
    }
    let spooled;
    try {
      const checkField = route.checkField && ((name: string, value: string) => route.checkField?.(name, value, authenticated));
      spooled = await spoolForm(request, route.limits, { tmpRoot: route.tmpDir, checkField });
    } catch (error) {
      const failure = toGatewayError(error);
      if (failure.code === "INTERNAL") env.log.error({ err: failure.cause ?? failure }, "upload spooling failed");
      return route.fail(failure, request, env);
    }
    const { form, cleanup } = spooled;
    try {
      return await route.serve(new FormRequest(request, () => Promise.resolve(form)), env, authenticated);
    } finally {
      await cleanup();
    }
  };
}

/**
 * A `fail` for GraphQL: a GraphQL-over-HTTP error response whose `errors[0].extensions.code` is the
 * gateway's code, with the code's HTTP status (yoga itself would turn an error from formData()
 * into a generic 400 "invalid multipart data").
 */
export function graphqlFailure(error: GatewayError, request: Request, env: SurfaceEnv): Response {
  const internal = error.code === "INTERNAL";
  if (internal) env.log.error({ err: error.cause ?? error }, "upload failed");
  const extensions: Record<string, unknown> = { code: error.code };
  if (error.details !== undefined && !internal) extensions["details"] = error.details;
  if (error.retryAfter !== undefined) extensions["retryAfter"] = error.retryAfter;
  const accept = request.headers.get("accept") ?? "";
  const contentType = accept.includes("application/graphql-response+json") ? "application/graphql-response+json" : "application/json";
  return new Response(JSON.stringify({ errors: [{ message: internal ? "Internal error" : error.message, extensions }] }), {
    status: error.status,
    headers: { "content-type": `${contentType}; charset=utf-8`, ...errorHeaders(error) },
  });
}
