// Every GraphQL error carries a code from docs/api.md "Errors" in extensions.code: gateway errors keep theirs, request
// errors (syntax, validation, limits, variables) are BAD_USER_INPUT, anything else is masked as
// INTERNAL and logged with the request id.
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { isGatewayError, markErrorCode } from "../core/errors.ts";
import type { Logger } from "../core/logger.ts";
import type { SurfaceEnv } from "../http/app.ts";

/** An error made in place of `from`, at the same place in the query (compiled operations' errors have positions, not nodes). */
function replacing(from: GraphQLError | undefined, message: string, options: { extensions: Record<string, unknown> }): GraphQLError {
  return new GraphQLError(message, {
    nodes: from?.nodes ?? null,
    source: from?.source ?? null,
    positions: from?.positions ?? null,
    path: from?.path ?? null,
    extensions: options.extensions,
  });
}

function withCode(error: GraphQLError, code: string, extra: Record<string, unknown> = {}): GraphQLError {
  return replacing(error, error.message, { extensions: { ...error.extensions, ...extra, code } });
}

const codeOf = (error: GraphQLError) => error.extensions?.["code"];

// By name, not instanceof: graphql can be loaded both as CJS and ESM (a dual-package hazard
// that test runners and bundlers trigger), and then yoga's GraphQLError is not ours.
const isGraphQLError = (error: unknown): error is GraphQLError => error instanceof Error && error.name === "GraphQLError";

/** A request the caller got wrong: syntax, validation, limits (armor), variable coercion. */
const isClientError = (error: unknown): error is GraphQLError =>
  isGraphQLError(error) && (!error.originalError || isGraphQLError(error.originalError));

const codeByHttpStatus: Record<number, string> = {
  401: "UNAUTHENTICATED",
  403: "FORBIDDEN",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
};

// Yoga's and graphql-js's own codes for a bad request, folded into the gateway's vocabulary.
const foreignRequestCodes = new Set(["GRAPHQL_PARSE_FAILED", "GRAPHQL_VALIDATION_FAILED", "BAD_REQUEST", "OPERATION_RESOLUTION_FAILURE"]);

function tagClientError(error: GraphQLError, requestError: boolean): GraphQLError {
  const http = error.extensions?.["http"] as { status?: number } | undefined;
  const own = codeOf(error) as string | undefined;
  const code =
    (own && !foreignRequestCodes.has(own) ? own : undefined) ?? (http?.status && codeByHttpStatus[http.status]) ?? "BAD_USER_INPUT";
  const status = http?.status ?? (requestError ? 400 : undefined);
  const leaks = error.extensions !== undefined && "originalError" in error.extensions;
  if (own === code && http?.status === status && !leaks) return error;
  // yoga puts the JSON parser's own error (its name and message) in a bad body's extensions: the
  // message says what is wrong already, and no other error carries a second one. (yoga also read
  // that entry as "not only GraphQL errors", its reason to answer 400 even to application/json: a
  // body that is no request at all keeps its 400 without it, no longer marked `spec`.)
  const { originalError: _original, ...extensions } = error.extensions ?? {};
  if (leaks) return replacing(error, error.message, { extensions: { ...extensions, code, http: { status: status ?? 400 } } });
  // A request error we give a status to (armor's limits carry none) is marked `spec` like yoga's
  // own parse and validation errors, so that all of them follow one rule (GraphQL over HTTP):
  // 400 for application/graphql-response+json, 200 for a client that accepts only application/json.
  return withCode(error, code as string, status === undefined ? {} : { http: http ? { ...http, status } : { spec: true, status } });
}

/**
 * The media type yoga answers with, chosen as it chooses (src: graphql-yoga's result processors):
 * the first listed type either answer matches; application/json wherever both match (a wildcard).
 */
function answersGraphQLResponse(request: Request): boolean {
  const types = (request.headers.get("accept") ?? "*/*")
    .replace(/\s/g, "")
    .toLowerCase()
    .split(",")
    .filter((entry) => !entry.includes("charset=") || entry.includes("charset=utf-8"))
    .map((entry) => entry.split(";")[0] as string);
  const matches = (type: string, wanted: string) => {
    const [pre, suf] = type.split("/");
    const [wpre, wsuf] = wanted.split("/");
    return (pre === "*" || pre === wpre) && (suf === "*" || suf === wsuf);
  };
  const first = types.find((type) => matches(type, "application/json") || matches(type, "application/graphql-response+json"));
  return first !== undefined && !matches(first, "application/json");
}

/**
 * A request refused for its credential as a whole (every error UNAUTHENTICATED: none was sent, or
 * it is unknown, expired or revoked) answers 401 with `WWW-Authenticate: Bearer`, as REST does,
 * when the client accepts application/graphql-response+json (GraphQL over HTTP lets such a
 * response use 4xx); an application/json client keeps the 200 that media type asks for.
 */
function unauthenticatedStatus(errors: readonly GraphQLError[], request: Request): readonly GraphQLError[] {
  if (errors.length === 0 || !errors.every((error) => codeOf(error) === "UNAUTHENTICATED")) return errors;
  if (!answersGraphQLResponse(request)) return errors;
  return errors.map((error) =>
    replacing(error, error.message, {
      extensions: { ...error.extensions, http: { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="workspace-gateway"' } } },
    }),
  );
}

/** What yoga's maskError must return: the error the caller sees. */
export type MaskError = (error: unknown, message: string) => Error;

/**
 * Error masking and codes, in two halves. yoga calls `maskError` with no request context: it
 * decides what the caller sees (gateway errors keep their code and message; INTERNAL ones and
 * anything unexpected become `message`, "Internal error", with code INTERNAL) and remembers what it
 * hid. The plugin's onResultProcess has the request's logger (its lines carry the requestId): it
 * logs what was hidden, then gives every error the caller caused a code (BAD_USER_INPUT unless its
 * HTTP status says otherwise); a result with no data entry at all (the request never executed)
 * answers HTTP 400 with application/graphql-response+json and 200 with application/json, as GraphQL
 * over HTTP asks, whether it was a syntax, validation or limit error. Masked errors are not the caller's and keep yoga's status
 * (500 when nothing executed, else 200). A result without errors costs one check.
 */
export function createGraphQLErrors(fallbackLog: Logger): {
  maskError: MaskError;
  plugin: Plugin<Record<string, unknown>, Partial<SurfaceEnv>>;
} {
  // Masked error → what it hid. Weak: an error that never reaches a result leaves nothing behind.
  const hidden = new WeakMap<GraphQLError, { err: unknown; path: GraphQLError["path"] }>();

  const maskError: MaskError = (error, message) => {
    const graphQLError = isGraphQLError(error) ? error : undefined;
    const original = graphQLError?.originalError ?? error;
    if (isGatewayError(original) && original.code !== "INTERNAL") {
      const extensions: Record<string, unknown> = { code: original.code };
      if (original.details !== undefined) extensions["details"] = original.details;
      if (original.retryAfter !== undefined) extensions["retryAfter"] = original.retryAfter;
      return replacing(graphQLError, original.message, { extensions });
    }
    if (!isGatewayError(original) && isClientError(error)) return error;
    const masked = replacing(graphQLError, message, { extensions: { code: "INTERNAL", unexpected: true } });
    hidden.set(masked, { err: original, path: graphQLError?.path });
    return masked;
  };

  const plugin: Plugin<Record<string, unknown>, Partial<SurfaceEnv>> = {
    onResultProcess({ request, result, setResult, serverContext }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result || !result.errors?.length) return;
      // No data entry: the request never executed. `data: null` is an executed request whose
      // error reached a non-null root field; GraphQL over HTTP answers that 200 like any partial result.
      const requestError = result.data === undefined;
      const errors = result.errors.map((error) => {
        const cause = hidden.get(error);
        if (cause) {
          // A GatewayError is logged whole: pino prints its message with its cause's. The process
          // logger only serves a yoga called without the gateway's env (no request id to give).
          (serverContext.log ?? fallbackLog).error(cause, "unexpected GraphQL error");
          return error;
        }
        return isClientError(error) ? tagClientError(error, requestError) : error;
      });
      markErrorCode(String(errors[0]?.extensions["code"]));
      setResult({ ...result, errors: unauthenticatedStatus(errors, request) });
    },
  };
  return { maskError, plugin };
}

/**
 * Request-parsing failures yoga does not shape itself: a body of a media type it has no parser
 * for (yoga answers 415 with an empty body), a GET whose `variables` or `extensions` are not
 * JSON (yoga lets JSON.parse's SyntaxError through, which masking turns into INTERNAL), and a
 * multipart request whose `map` points into an `operations` that is not an object, or is not a
 * map of lists of paths (yoga's TypeError, INTERNAL too). They become GraphQL errors with their
 * code. Listed among the user plugins, after yoga's parsers.
 */
export const requestParseErrors: Plugin = {
  onRequestParse({ request, requestParser, setRequestParser }) {
    if (!requestParser) {
      setRequestParser(() => {
        const type = request.headers.get("content-type");
        throw new GraphQLError(`Send the request as application/json (or multipart/form-data with files)${type ? `, not ${type}` : ""}`, {
          extensions: { code: "UNSUPPORTED_MEDIA_TYPE", http: { status: 415 } },
        });
      });
      return;
    }
    const parse = requestParser;
    setRequestParser(async (req) => {
      try {
        return await parse(req);
      } catch (error) {
        if (!(error instanceof SyntaxError || error instanceof TypeError)) throw error;
        const what =
          req.method === "GET" ? "variables, extensions: not valid JSON" : "operations, map: not a valid GraphQL multipart request";
        throw new GraphQLError(`${what} (${error.message})`, { extensions: { code: "BAD_USER_INPUT", http: { status: 400 } } });
      }
    });
  },
};
