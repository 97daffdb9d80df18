// Every GraphQL error carries a §3 code in extensions.code: gateway errors keep theirs, request
// errors (syntax, validation, limits, variables) are BAD_USER_INPUT, anything else is masked as INTERNAL.
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { isGatewayError } from "../core/errors.ts";
import type { Logger } from "../core/logger.ts";

function withCode(error: GraphQLError, code: string, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes ?? null,
    source: error.source ?? null,
    positions: error.positions ?? null,
    path: error.path ?? null,
    extensions: { ...error.extensions, ...extra, code },
  });
}

const codeOf = (error: GraphQLError) => error.extensions?.["code"];

// By name, not instanceof: graphql can be loaded both as CJS and ESM (a dual-package hazard
// that test runners and bundlers trigger), and then yoga's GraphQLError is not ours.
const isGraphQLError = (error: unknown): error is GraphQLError => error instanceof Error && error.name === "GraphQLError";

/** A request the caller got wrong: syntax, validation, limits (armor), variable coercion. */
const isClientError = (error: unknown): error is GraphQLError =>
  isGraphQLError(error) && (!error.originalError || isGraphQLError(error.originalError));

const codeByHttpStatus: Record<number, string> = { 401: "UNAUTHENTICATED", 403: "FORBIDDEN", 413: "PAYLOAD_TOO_LARGE", 415: "UNSUPPORTED_MEDIA_TYPE" };

// Yoga's and graphql-js's own codes for a bad request, folded into the gateway's vocabulary.
const foreignRequestCodes = new Set(["GRAPHQL_PARSE_FAILED", "GRAPHQL_VALIDATION_FAILED", "BAD_REQUEST"]);

function tagClientError(error: GraphQLError, requestError: boolean): GraphQLError {
  const http = error.extensions?.["http"] as { status?: number } | undefined;
  const own = codeOf(error) as string | undefined;
  const code = (own && !foreignRequestCodes.has(own) ? own : undefined) ?? (http?.status && codeByHttpStatus[http.status]) ?? "BAD_USER_INPUT";
  const status = http?.status ?? (requestError ? 400 : undefined);
  if (own === code && http?.status === status) return error;
  return withCode(error, code as string, status === undefined ? {} : { http: { ...http, status } });
}

/**
 * Every error the caller caused gets a code (BAD_USER_INPUT unless its HTTP status says
 * otherwise); a result with no data at all (the request never executed) answers HTTP 400, as
 * GraphQL over HTTP asks.
 */
export function useRequestErrorCodes(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result || !result.errors?.length) return;
      const requestError = result.data == null;
      setResult({
        ...result,
        errors: result.errors.map((error) => (isClientError(error) ? tagClientError(error, requestError) : error)),
      });
    },
  };
}

/** Yoga's maskError: gateway errors shown with their code, the rest hidden behind INTERNAL. */
export function createMaskError(logger: Logger) {
  return (error: unknown, message: string): Error => {
    const graphQLError = isGraphQLError(error) ? error : undefined;
    const original = graphQLError?.originalError ?? error;
    if (isGatewayError(original)) {
      const extensions: Record<string, unknown> = { code: original.code };
      if (original.details !== undefined) extensions["details"] = original.details;
      if (original.retryAfter !== undefined) extensions["retryAfter"] = original.retryAfter;
      return new GraphQLError(original.message, {
        nodes: graphQLError?.nodes ?? null,
        path: graphQLError?.path ?? null,
        extensions,
      });
    }
    if (isClientError(error)) return error;
    logger.error({ err: original, path: graphQLError?.path }, "unexpected GraphQL error");
    return new GraphQLError(message, {
      nodes: graphQLError?.nodes ?? null,
      path: graphQLError?.path ?? null,
      extensions: { code: "INTERNAL", unexpected: true },
    });
  };
}
