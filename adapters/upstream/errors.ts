// Upstream outcomes → the adapters' error vocabulary (adapters/errors.ts; the service layer maps it to docs/api.md "Errors").
import type { z } from "zod";
import { AdapterError, type AdapterErrorCode } from "../errors.ts";
import { ADDRESS_BLOCKED } from "./address-guard.ts";
import type { CallContext, Policy } from "./policy.ts";
import { isDeadlineExceeded } from "./timeout.ts";
import type { CancelSignal } from "./cancellation.ts";

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
  | "aborted"
  | "blocked";

/**
 * What an attempt's end says about the upstream, for its circuit: `failure` (5xx, reset,
 * timeout, malformed body), `success` (it answered, 4xx included) or `neutral` (it was not the
 * upstream's doing: the caller hung up, the request's deadline passed, the address was refused).
 */
export type Verdict = "success" | "failure" | "neutral";

/** A classified failure: the error to throw and what it says about the upstream. */
export interface Failure {
  error: AdapterError;
  outcome: Outcome;
  /** What it tells the circuit breaker. */
  verdict: Verdict;
  /** A retry of an idempotent call may help. */
  retryable: boolean;
  /** Seconds the upstream asked us to wait (Retry-After). */
  retryAfter?: number | undefined;
}

const statusCodes: Record<number, AdapterErrorCode> = {
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

const defaultMessages: Partial<Record<AdapterErrorCode, string>> = {
  BAD_USER_INPUT: "The upstream rejected the request",
  UNAUTHENTICATED: "The upstream did not accept the access token",
  FORBIDDEN: "The upstream refused access",
  NOT_FOUND: "Not found",
  CONFLICT: "The upstream reported a conflict",
  PAYLOAD_TOO_LARGE: "The upstream refused the request as too large",
  UNSUPPORTED_MEDIA_TYPE: "The upstream refused the content type",
  RATE_LIMITED: "The upstream is rate limiting this caller",
};

// 500 too: under a retry budget a retry of an idempotent call costs little, and an upstream's
// transient 500 is common (Envoy's `retry_on: 5xx` does the same).
const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);

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

/** The upstream's `error.message` (docs/api.md "Upstreams" error body), if the body has one. */
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
      error: new AdapterError(
        "UPSTREAM_ERROR",
        `Upstream error (HTTP ${status})${message ? `: ${message}` : ""}`,
        retryAfter === undefined ? {} : { retryAfter },
      ),
      outcome: "server_error",
      verdict: "failure",
      retryable: RETRYABLE_STATUS.has(status),
      retryAfter,
    };
  }
  const code = statusCodes[status];
  if (!code) {
    return {
      error: new AdapterError("UPSTREAM_ERROR", `Unexpected upstream answer (HTTP ${status})${message ? `: ${message}` : ""}`),
      outcome: "invalid_response",
      verdict: "neutral",
      retryable: false,
    };
  }
  if (code === "RATE_LIMITED") {
    // The caller always gets a Retry-After (docs/api.md "Errors"); the upstream's when it sent one.
    const seconds = retryAfter ?? 1;
    return {
      error: new AdapterError(code, message ?? defaultMessages[code] ?? "Rate limited", { retryAfter: seconds }),
      outcome: "rate_limited",
      verdict: "success",
      retryable: true,
      retryAfter: seconds,
    };
  }
  return {
    error: new AdapterError(code, message ?? defaultMessages[code] ?? `Upstream answered HTTP ${status}`),
    outcome: "client_error",
    verdict: "success",
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
    if (typeof code === "string" && (TIMEOUT_CODES.has(code) || CONNECTION_CODES.has(code) || code === ADDRESS_BLOCKED)) return code;
    // AggregateError from happy-eyeballs connects
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) return errorCodeOf(errors[0]);
  }
  return (error as { code?: unknown } | null)?.code as string | undefined;
}

/** An attempt that ended in a classified failure (thrown inside an attempt, caught by the retry loop). */
export class AttemptFailed extends Error {
  constructor(readonly failure: Failure) {
    super(failure.error.message);
  }
}

/** A 2xx body that is not what the contract says: truncated JSON (worth a retry), or the wrong shape. */
export function bodyFailure(error: AdapterError, retryable: boolean): Failure {
  return { error, outcome: "invalid_response", verdict: "failure", retryable };
}

/** The request's own time is up: a timeout for the caller, not a verdict on the upstream. */
const deadlineFailure = (deadlineMs: number, cause: unknown): Failure => ({
  error: new AdapterError("UPSTREAM_TIMEOUT", `The upstream did not answer within the request's deadline of ${deadlineMs} ms`, { cause }),
  outcome: "timeout",
  verdict: "neutral",
  retryable: false,
});

/**
 * A thrown error from undici (or from reading a body) → Failure. `timeoutMs`: the attempt's;
 * `deadlineBoundMs`: the request deadline's length when the attempt's timeout was what was left of it.
 */
export function transportFailure(error: unknown, signal: CancelSignal | undefined, timeoutMs: number, deadlineBoundMs?: number): Failure {
  if (error instanceof AttemptFailed) return error.failure;
  if (error instanceof AdapterError) {
    return { error, outcome: "invalid_response", verdict: "neutral", retryable: false };
  }
  if (signal?.aborted) {
    if (isDeadlineExceeded(signal.reason)) return deadlineFailure(signal.reason.deadlineMs, error);
    // The caller hung up; nobody will read this answer. Not the upstream's fault.
    return {
      error: new AdapterError("UPSTREAM_UNAVAILABLE", "The upstream call was cancelled: the caller went away", { cause: error }),
      outcome: "aborted",
      verdict: "neutral",
      retryable: false,
    };
  }
  const code = errorCodeOf(error);
  if (code === ADDRESS_BLOCKED) {
    // A tenant host that resolves to a loopback/private address (docs/resilience.md): refused
    // as the tenant id pattern is, and said without naming the address.
    return {
      error: new AdapterError("FORBIDDEN", "The tenant's upstream address is not allowed (loopback, private or link-local network)", {
        cause: error,
      }),
      outcome: "blocked",
      verdict: "neutral",
      retryable: false,
    };
  }
  if (code && TIMEOUT_CODES.has(code)) {
    if (deadlineBoundMs !== undefined) return deadlineFailure(deadlineBoundMs, error);
    return {
      error: new AdapterError("UPSTREAM_TIMEOUT", `The upstream did not answer within ${timeoutMs} ms`, { cause: error }),
      outcome: "timeout",
      verdict: "failure",
      retryable: true,
    };
  }
  if (code && CONNECTION_CODES.has(code)) {
    return {
      error: new AdapterError("UPSTREAM_UNAVAILABLE", `The upstream is unavailable (${code})`, { cause: error }),
      outcome: "unavailable",
      verdict: "failure",
      retryable: true,
    };
  }
  return {
    error: new AdapterError("UPSTREAM_ERROR", "The upstream call failed", { cause: error }),
    outcome: "server_error",
    verdict: "failure",
    retryable: false,
  };
}

/**
 * The classify policy, innermost: whatever an attempt threw (undici's errors, a body's) becomes
 * an AttemptFailed with its classification, which the policies outside it act on.
 */
export function classifyPolicy(): Policy {
  return {
    async execute<T>(ctx: CallContext, next: () => Promise<T>): Promise<T> {
      try {
        return await next();
      } catch (error) {
        throw error instanceof AttemptFailed
          ? error
          : new AttemptFailed(transportFailure(error, ctx.signal, ctx.timeoutMs, ctx.deadlineBoundMs));
      }
    },
  };
}

/** `upstream response: data.3.id: expected string, received undefined` */
export function describeInvalid(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "upstream response: does not match the contract";
  const where = issue.path.length ? issue.path.map(String).join(".") : "(body)";
  return `upstream response: ${where}: ${issue.message.replace(/^Invalid input: /, "")}`;
}
