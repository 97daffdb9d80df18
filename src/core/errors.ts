// One error vocabulary for every surface (docs/api.md "Errors"). Surfaces translate a GatewayError
// into their own shape; nothing below them knows about HTTP, GraphQL or tRPC.
import { trace } from "@opentelemetry/api";

export const errorCodes = {
  UNAUTHENTICATED: { status: 401, trpc: "UNAUTHORIZED" },
  FORBIDDEN: { status: 403, trpc: "FORBIDDEN" },
  BAD_USER_INPUT: { status: 400, trpc: "BAD_REQUEST" },
  NOT_FOUND: { status: 404, trpc: "NOT_FOUND" },
  // A REST route that exists, asked with a method it does not have (with `Allow`); see docs/api.md.
  METHOD_NOT_ALLOWED: { status: 405, trpc: "METHOD_NOT_SUPPORTED" },
  // If-Match / expectedVersion is not the document's current version; nothing was written.
  PRECONDITION_FAILED: { status: 412, trpc: "PRECONDITION_FAILED" },
  PAYLOAD_TOO_LARGE: { status: 413, trpc: "PAYLOAD_TOO_LARGE" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, trpc: "UNSUPPORTED_MEDIA_TYPE" },
  RATE_LIMITED: { status: 429, trpc: "TOO_MANY_REQUESTS" },
  TENANT_REQUIRED: { status: 400, trpc: "BAD_REQUEST" },
  CONFLICT: { status: 409, trpc: "CONFLICT" },
  UPSTREAM_NOT_CONFIGURED: { status: 503, trpc: "SERVICE_UNAVAILABLE" },
  // The gateway itself is saturated (render queue full); not in the contract's original error table; listed in docs/api.md "Errors".
  SERVICE_UNAVAILABLE: { status: 503, trpc: "SERVICE_UNAVAILABLE" },
  UPSTREAM_TIMEOUT: { status: 504, trpc: "GATEWAY_TIMEOUT" },
  UPSTREAM_UNAVAILABLE: { status: 502, trpc: "BAD_GATEWAY" },
  UPSTREAM_ERROR: { status: 502, trpc: "BAD_GATEWAY" },
  INTERNAL: { status: 500, trpc: "INTERNAL_SERVER_ERROR" },
} as const;

export type ErrorCode = keyof typeof errorCodes;
export type TrpcErrorCode = (typeof errorCodes)[ErrorCode]["trpc"];

export interface GatewayErrorOptions {
  details?: unknown;
  /** Seconds, for RATE_LIMITED / SERVICE_UNAVAILABLE answers. */
  retryAfter?: number;
  /** The scope whose absence caused a FORBIDDEN, for `WWW-Authenticate`. */
  scope?: string;
  cause?: unknown;
}

export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;
  readonly retryAfter: number | undefined;
  readonly scope: string | undefined;

  constructor(code: ErrorCode, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "GatewayError";
    this.code = code;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
    this.scope = options.scope;
  }

  get status(): number {
    return errorCodes[this.code].status;
  }

  get trpcCode(): TrpcErrorCode {
    return errorCodes[this.code].trpc;
  }

  /**
   * The body every surface shows a caller: code, message, optional details — never a stack, and
   * for INTERNAL nothing of what went wrong (that goes to the log).
   */
  toBody(): { error: { code: ErrorCode; message: string; details?: unknown } } {
    if (this.code === "INTERNAL") return { error: { code: "INTERNAL", message: "Internal error" } };
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError;
}

/** Anything that is not a GatewayError becomes INTERNAL; the original goes to the log only. */
export function toGatewayError(value: unknown): GatewayError {
  if (isGatewayError(value)) return value;
  return new GatewayError("INTERNAL", "Internal error", { cause: value });
}

export const unauthenticated = (message = "A valid bearer credential is required") => new GatewayError("UNAUTHENTICATED", message);

export const notFound = (what: string) => new GatewayError("NOT_FOUND", `${what} not found`);

/**
 * Puts the error code a surface answers with on the request's span (`gateway.error.code`).
 * Without the tracing SDK there is no active span and this is one no-op lookup.
 */
export function markErrorCode(code: string): void {
  const span = trace.getActiveSpan();
  if (span === undefined) return;
  span.setAttribute("gateway.error.code", code);
}
