// The adapters' own error: what went wrong with an upstream call (or before it: a missing
// configuration, a tenant we cannot act for, an id that is not one path segment), in the adapters'
// own vocabulary. adapters/ is a leaf library and knows nothing of the gateway's surfaces: the
// service layer (src/services/adapter-errors.ts) maps each code to the contract's (docs/api.md "Errors").

export const adapterErrorCodes = [
  "BAD_USER_INPUT",
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "NOT_FOUND",
  "CONFLICT",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "RATE_LIMITED",
  "TENANT_REQUIRED",
  "UPSTREAM_NOT_CONFIGURED",
  "UPSTREAM_TIMEOUT",
  "UPSTREAM_UNAVAILABLE",
  "UPSTREAM_ERROR",
] as const;

export type AdapterErrorCode = (typeof adapterErrorCodes)[number];

export interface AdapterErrorOptions {
  details?: unknown;
  /** Seconds the caller should wait (the upstream's Retry-After, or an open circuit's). */
  retryAfter?: number | undefined;
  cause?: unknown;
}

export class AdapterError extends Error {
  readonly code: AdapterErrorCode;
  readonly details: unknown;
  readonly retryAfter: number | undefined;

  constructor(code: AdapterErrorCode, message: string, options: AdapterErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AdapterError";
    this.code = code;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }
}

export function isAdapterError(value: unknown): value is AdapterError {
  return value instanceof AdapterError;
}
