// tRPC building blocks. The one middleware here turns gateway errors (and tRPC's own input
// validation failures) into TRPCErrors with the matching code and data.gatewayCode.
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import type { RequestContext } from "../core/context.ts";
import { isGatewayError, type ErrorCode, type GatewayError } from "../core/errors.ts";
import type { Logger } from "../core/logger.ts";
import { inputError } from "../core/validate.ts";
import type { Services } from "../gateway.ts";

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
  METHOD_NOT_SUPPORTED: "NOT_FOUND",
  UNAUTHORIZED: "UNAUTHENTICATED",
  FORBIDDEN: "FORBIDDEN",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  TOO_MANY_REQUESTS: "RATE_LIMITED",
};

function toTrpcError(error: TRPCError, rawInput: unknown): TRPCError {
  const cause = error.cause;
  let gatewayError: GatewayError | undefined;
  if (isGatewayError(cause)) gatewayError = cause;
  else if (cause instanceof ZodError) gatewayError = inputError(cause.issues, rawInput);
  if (!gatewayError) return error;
  return new TRPCError({ code: gatewayError.trpcCode, message: gatewayError.message, cause: gatewayError });
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const gatewayCode: ErrorCode = isGatewayError(cause)
      ? cause.code
      : (gatewayCodeByTrpcCode[error.code] ?? "INTERNAL");
    const extra = isGatewayError(cause)
      ? { ...(cause.details === undefined ? {} : { details: cause.details }), ...(cause.retryAfter === undefined ? {} : { retryAfter: cause.retryAfter }) }
      : {};
    const { stack: _stack, ...data } = shape.data;
    // Unexpected errors keep their details in the log only.
    const message = gatewayCode === "INTERNAL" ? "Internal error" : shape.message;
    return { ...shape, message, data: { ...data, gatewayCode, ...extra } };
  },
});

const gatewayErrors = t.middleware(async ({ next, getRawInput, ctx, path }) => {
  const result = await next();
  if (result.ok) return result;
  let raw: unknown;
  try {
    raw = await getRawInput();
  } catch {
    raw = undefined;
  }
  const mapped = toTrpcError(result.error, raw);
  if (!isGatewayError(mapped.cause) && mapped.code === "INTERNAL_SERVER_ERROR") {
    ctx.log.error({ err: mapped.cause ?? mapped, path }, "unexpected tRPC error");
  } else if (isGatewayError(mapped.cause) && mapped.cause.code === "INTERNAL") {
    ctx.log.error({ err: mapped.cause.cause ?? mapped.cause, path }, "unexpected tRPC error");
  }
  throw mapped;
});

export const router = t.router;
export const procedure = t.procedure.use(gatewayErrors);
