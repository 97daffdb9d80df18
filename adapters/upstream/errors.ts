// Upstream outcomes → the gateway's error vocabulary (CONTRACT §3 and §9).
import type { z } from "zod";
import { GatewayError, type ErrorCode } from "../../src/core/errors.ts";

/** Metrics label for how an upstream call ended. */
export type Outcome =
  | "ok"
  | "client_error"
  | "rate_limited"
  | "server_error"
  | "timeout"
  | "unavailable"
  | "circuit_open"
  | "invalid_response"
  | "aborted";

/** A classified failure: the error to throw and what it says about the upstream. */
export interface Failure {
  error: GatewayError;
  outcome: Outcome;
  /** Counts toward opening the circuit. */
  breakerFailure: boolean;
  /** A retry of an idempotent call may help. */
  retryable: boolean;
  /** Seconds the upstream asked us to wait (Retry-After). */
  retryAfter?: number | undefined;
}

const statusCodes: Record<number, ErrorCode> = {
  400: "BAD_USER_INPUT",
  401: "UNAUTHENTICATED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "BAD_USER_INPUT",
  429: "RATE_LIMITED",
};

const defaultMessages: Partial<Record<ErrorCode, string>> = {
  BAD_USER_INPUT: "The upstream rejected the request",
  UNAUTHENTICATED: "The upstream did not accept the access token",
  FORBIDDEN: "The upstream refused access",
  NOT_FOUND: "Not found",
  CONFLICT: "The upstream reported a conflict",
  PAYLOAD_TOO_LARGE: "The upstream refused the request as too large",
  UNSUPPORTED_MEDIA_TYPE: "The upstream refused the content type",
  RATE_LIMITED: "The upstream is rate limiting this caller",
};

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

/** Retry-After as whole seconds (delta-seconds or HTTP-date), or undefined. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const trimmed = raw.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed), 86_400);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.min(Math.ceil((date - now) / 1000), 86_400));
}

/** The upstream's `error.message` (CONTRACT §9 error body), if the body has one. */
export function upstreamMessage(body: string): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message =
      typeof parsed.error === "object" && parsed.error !== null
        ? parsed.error.message
        : typeof parsed.error === "string"
          ? parsed.error
          : parsed.message;
    if (typeof message === "string" && message.trim()) return message.trim().slice(0, 500);
  } catch {
    // not JSON: no message to keep
  }
  return undefined;
}

export function statusFailure(status: number, body: string, retryAfterHeader: string | string[] | undefined): Failure {
  const message = upstreamMessage(body);
  const retryAfter = parseRetryAfter(retryAfterHeader);
  if (status >= 500) {
    return {
      // An upstream that says when to come back (503 + Retry-After) is worth passing on.
      error: new GatewayError("UPSTREAM_ERROR", `Upstream error (HTTP ${status})${message ? `: ${message}` : ""}`, retryAfter === undefined ? {} : { retryAfter }),
      outcome: "server_error",
      breakerFailure: true,
      retryable: RETRYABLE_STATUS.has(status),
      retryAfter,
    };
  }
  const code = statusCodes[status];
  if (!code) {
    return {
      error: new GatewayError("UPSTREAM_ERROR", `Unexpected upstream answer (HTTP ${status})${message ? `: ${message}` : ""}`),
      outcome: "invalid_response",
      breakerFailure: false,
      retryable: false,
    };
  }
  if (code === "RATE_LIMITED") {
    // The caller always gets a Retry-After (CONTRACT §3); the upstream's when it sent one.
    const seconds = retryAfter ?? 1;
    return {
      error: new GatewayError(code, message ?? defaultMessages[code] ?? "Rate limited", { retryAfter: seconds }),
      outcome: "rate_limited",
      breakerFailure: false,
      retryable: true,
      retryAfter: seconds,
    };
  }
  return {
    error: new GatewayError(code, message ?? defaultMessages[code] ?? `Upstream answered HTTP ${status}`),
    outcome: "client_error",
    breakerFailure: false,
    retryable: false,
  };
}

const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT", "ETIMEDOUT"]);
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "ECONNABORTED",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_DESTROYED",
]);

function errorCodeOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (TIMEOUT_CODES.has(code) || CONNECTION_CODES.has(code))) return code;
    // AggregateError from happy-eyeballs connects
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) return errorCodeOf(errors[0]);
  }
  return (error as { code?: unknown } | null)?.code as string | undefined;
}

/** A thrown error from undici (or from reading a body) → Failure. */
export function transportFailure(error: unknown, signal: AbortSignal | undefined, timeoutMs: number): Failure {
  if (error instanceof GatewayError) {
    return { error, outcome: "invalid_response", breakerFailure: false, retryable: false };
  }
  if (signal?.aborted) {
    // The caller hung up; nobody will read this answer. Not the upstream's fault.
    return {
      error: new GatewayError("UPSTREAM_UNAVAILABLE", "The upstream call was cancelled: the caller went away", { cause: error }),
      outcome: "aborted",
      breakerFailure: false,
      retryable: false,
    };
  }
  const code = errorCodeOf(error);
  if (code && TIMEOUT_CODES.has(code)) {
    return {
      error: new GatewayError("UPSTREAM_TIMEOUT", `The upstream did not answer within ${timeoutMs} ms`, { cause: error }),
      outcome: "timeout",
      breakerFailure: true,
      retryable: false,
    };
  }
  if (code && CONNECTION_CODES.has(code)) {
    return {
      error: new GatewayError("UPSTREAM_UNAVAILABLE", `The upstream is unavailable (${code})`, { cause: error }),
      outcome: "unavailable",
      breakerFailure: true,
      retryable: true,
    };
  }
  return {
    error: new GatewayError("UPSTREAM_ERROR", "The upstream call failed", { cause: error }),
    outcome: "server_error",
    breakerFailure: true,
    retryable: false,
  };
}

/** `upstream response: data.3.id: expected string, received undefined` */
export function describeInvalid(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "upstream response: does not match the contract";
  const where = issue.path.length ? issue.path.map(String).join(".") : "(body)";
  return `upstream response: ${where}: ${issue.message.replace(/^Invalid input: /, "")}`;
}
