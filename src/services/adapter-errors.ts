// The one place an adapter's error becomes the contract's (docs/api.md "Errors"): adapters/ is a
// leaf library with its own error type (adapters/errors.ts), and every product operation runs
// through the runner in products.ts, which passes what it catches through `toContractError`.
// Anything that escaped this mapping would reach a surface as a plain Error, that is INTERNAL.
import { AdapterError, type AdapterErrorCode } from "../../adapters/errors.ts";
import { GatewayError, type ErrorCode } from "../core/errors.ts";

/** Each adapter code's contract code; a new adapter code fails to compile until it is placed here. */
const contractCodes: { [C in AdapterErrorCode]: ErrorCode } = {
  BAD_USER_INPUT: "BAD_USER_INPUT",
  UNAUTHENTICATED: "UNAUTHENTICATED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  RATE_LIMITED: "RATE_LIMITED",
  TENANT_REQUIRED: "TENANT_REQUIRED",
  UPSTREAM_NOT_CONFIGURED: "UPSTREAM_NOT_CONFIGURED",
  UPSTREAM_TIMEOUT: "UPSTREAM_TIMEOUT",
  UPSTREAM_UNAVAILABLE: "UPSTREAM_UNAVAILABLE",
  UPSTREAM_ERROR: "UPSTREAM_ERROR",
};

/** An AdapterError as the GatewayError of the same meaning (message, details, Retry-After kept); anything else as it is. */
export function toContractError(error: unknown): unknown {
  if (!(error instanceof AdapterError)) return error;
  return new GatewayError(contractCodes[error.code], error.message, {
    ...(error.details === undefined ? {} : { details: error.details }),
    ...(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter }),
    cause: error,
  });
}

/** Runs `work`; an AdapterError it rejects with comes out as the contract's GatewayError. */
export async function withContractErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toContractError(error);
  }
}
