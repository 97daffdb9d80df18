// A typed tRPC client for agents: `createGatewayClient({ url, token })`, and how to tell the
// gateway's errors apart without `instanceof` (docs/consumers.md).
import { createTRPCClient, httpBatchLink, httpLink, isNonJsonSerializable, splitLink, type TRPCClient } from "@trpc/client";
import type { ErrorCode } from "../core/errors.ts";
import type { AppRouter } from "../trpc/router.ts";

export type { AppRouter } from "../trpc/router.ts";
/** The gateway's error codes (docs/api.md), as `data.gatewayCode` carries them. */
export type GatewayErrorCode = ErrorCode;

export interface GatewayClientOptions {
  /** The gateway's base URL, e.g. http://127.0.0.1:4000 (the /trpc path is added). */
  url: string;
  /** A personal API key (wgk_…) or an access token. */
  token: string;
  /**
   * A product access token beside a personal API key as `token` (sent as X-Access-Token): documents
   * and spreadsheet procedures authorise with the key, product procedures forward this token.
   */
  accessToken?: string;
  /** Extra headers on every request (e.g. X-Request-Id). */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /**
   * Calls sent in one batched request, at most; more made in the same tick go in further requests.
   * The gateway refuses a batch over its BATCH_MAX_CALLS (default 20), so keep this at or under it.
   */
  maxBatchCalls?: number;
}

// Annotated so that declarations name AppRouter instead of repeating the whole router type.
export function createGatewayClient(options: GatewayClientOptions): TRPCClient<AppRouter> {
  const base = options.url.replace(/\/+$/, "");
  const link = {
    url: `${base}/trpc`,
    headers: () => ({
      ...options.headers,
      authorization: `Bearer ${options.token}`,
      ...(options.accessToken ? { "x-access-token": options.accessToken } : {}),
    }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  const batchLink = httpBatchLink({ ...link, maxItems: options.maxBatchCalls ?? 20 });
  return createTRPCClient<AppRouter>({
    links: [
      // FormData (files.upload) cannot be batched as JSON: it goes on its own request.
      splitLink({ condition: (op) => isNonJsonSerializable(op.input), true: httpLink(link), false: batchLink }),
    ],
  });
}

export type GatewayClient = ReturnType<typeof createGatewayClient>;

/** What the gateway puts in a tRPC error's `data` (besides tRPC's own `code`, `httpStatus`, `path`). */
export interface GatewayErrorData {
  code: string;
  httpStatus?: number;
  path?: string;
  gatewayCode: GatewayErrorCode;
  details?: unknown;
  /** Seconds, on RATE_LIMITED and SERVICE_UNAVAILABLE. */
  retryAfter?: number;
}

/** An error the gateway answered (a TRPCClientError from this client, whichever copy of @trpc/client made it). */
export type GatewayClientError = Error & { data: GatewayErrorData };

const dataOf = (error: unknown): unknown => {
  if (!error || typeof error !== "object") return undefined;
  const { data, shape } = error as { data?: unknown; shape?: { data?: unknown } };
  return data ?? shape?.data;
};

/**
 * Whether `error` is an answer from the gateway: it carries `data.gatewayCode`. Checks the shape,
 * not the class: `instanceof TRPCClientError` is false when two copies of @trpc/client are loaded
 * (a package installed from a path keeps its own), and this is not.
 */
export function isGatewayError(error: unknown): error is GatewayClientError {
  const data = dataOf(error);
  return (
    error instanceof Error && !!data && typeof data === "object" && typeof (data as { gatewayCode?: unknown }).gatewayCode === "string"
  );
}

/**
 * The gateway's code for an error (`NOT_FOUND`, `BAD_USER_INPUT`, `RATE_LIMITED`, …), or undefined
 * when `error` did not come from the gateway (a network failure, a bug in the caller).
 */
export function gatewayCode(error: unknown): GatewayErrorCode | undefined {
  return isGatewayError(error) ? error.data.gatewayCode : undefined;
}
