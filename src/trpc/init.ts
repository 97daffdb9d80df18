// tRPC building blocks. The one middleware here turns gateway errors into TRPCErrors with the
// matching code and data.gatewayCode; inputs are typed here and validated by the services.
import { initTRPC, TRPCError } from "@trpc/server";
import type { z } from "zod";
import type { RequestContext } from "../core/context.ts";
import { isGatewayError, type ErrorCode, markErrorCode } from "../core/errors.ts";
import type { Logger } from "../core/logger.ts";
import type { Services } from "../services/index.ts";

export interface TrpcContext {
  services: Services;
  requestId: string;
  log: Logger;
  /** Authenticates (once per HTTP request, so once per batch) and returns the request context. */
  request(): Promise<RequestContext>;
}

const gatewayCodeByTrpcCode: Partial<Record<TRPCError["code"], ErrorCode>> = {
  PARSE_ERROR: "BAD_USER_INPUT",
  BAD_REQUEST: "BAD_USER_INPUT",
  NOT_FOUND: "NOT_FOUND",
  // A query asked with POST, a mutation with GET: 405 with Allow, as REST answers a method a path lacks.
  METHOD_NOT_SUPPORTED: "METHOD_NOT_ALLOWED",
  UNAUTHORIZED: "UNAUTHENTICATED",
  FORBIDDEN: "FORBIDDEN",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  TOO_MANY_REQUESTS: "RATE_LIMITED",
};

/**
 * tRPC's own refusal of a body it has no parser for ends mid-quote (`Unsupported content-type
 * "text/plain`): said whole, with what the caller should send instead.
 */
function clearMessage(message: string): string {
  const unsupported = /^Unsupported content-type "([^"]*)"?$/.exec(message);
  if (!unsupported) return message;
  return `Unsupported content type "${unsupported[1]}": send application/json (multipart/form-data for uploads)`;
}

function toTrpcError(error: TRPCError): TRPCError {
  const cause = error.cause;
  if (!isGatewayError(cause)) return error;
  return new TRPCError({ code: cause.trpcCode, message: cause.message, cause });
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const gatewayCode: ErrorCode = isGatewayError(cause) ? cause.code : (gatewayCodeByTrpcCode[error.code] ?? "INTERNAL");
    const extra = isGatewayError(cause)
      ? {
          ...(cause.details === undefined ? {} : { details: cause.details }),
          ...(cause.retryAfter === undefined ? {} : { retryAfter: cause.retryAfter }),
        }
      : {};
    const { stack: _stack, ...data } = shape.data;
    // Unexpected errors keep their details in the log only.
    const message = gatewayCode === "INTERNAL" ? "Internal error" : clearMessage(shape.message);
    markErrorCode(gatewayCode);
    return { ...shape, message, data: { ...data, gatewayCode, ...extra } };
  },
});

/**
 * A procedure's failure as the caller gets it: a gateway error's code as the TRPCError's, and the
 * unexpected ones logged. The middleware below applies it; ./single-query.ts applies it to the
 * table's queries it calls without the procedure chain.
 */
export function procedureError(error: TRPCError, ctx: Pick<TrpcContext, "log">, path: string): TRPCError {
  const mapped = toTrpcError(error);
  if (!isGatewayError(mapped.cause) && mapped.code === "INTERNAL_SERVER_ERROR") {
    ctx.log.error({ err: mapped.cause ?? mapped, path }, "unexpected tRPC error");
  } else if (isGatewayError(mapped.cause) && mapped.cause.code === "INTERNAL") {
    ctx.log.error({ err: mapped.cause.cause ?? mapped.cause, path }, "unexpected tRPC error");
  }
  return mapped;
}

const gatewayErrors = t.middleware(async ({ next, ctx, path }) => {
  const result = await next();
  if (result.ok) return result;
  throw procedureError(result.error, ctx, path);
});

export const router = t.router;
export const procedure = t.procedure.use(gatewayErrors);

/**
 * A procedure's `.input()`: the input typed as the schema's input (z.input, so AppRouter's client
 * types are the schema's), validated by nothing here. The service validates it with the same schema
 * after it has authenticated the caller and checked the scope, as for REST and GraphQL; a zod
 * `.input()` would run first (BAD_USER_INPUT to a caller without a credential) and parse twice.
 */
export const unvalidated =
  <S extends z.ZodType>(_schema: S) =>
  (input: unknown): z.input<S> =>
    input as z.input<S>;
