// The one upstream HTTP client every product adapter uses. Adapters describe endpoints; this
// module composes, in one place, the policies a call goes through (docs/resilience.md), each a
// wrapper with one job around the rest of the chain, outermost first:
//   deadline        timeout.ts       one deadline per incoming request over its calls and retries
//   cancel          cancel.ts        the call's own signal: the caller hung up, or the deadline passed
//   retry budget    retry-budget.ts  retries per origin limited to a share of its recent requests
//   retry           retry.ts         transient failures of idempotent calls, backoff with jitter
//   metrics         metrics.ts       each attempt's duration by outcome
//   circuit breaker circuit.ts       a failure-rate breaker per origin (breaker.ts), refusing at once while open
//   attempt timeout timeout.ts       each attempt's timeout: min(UPSTREAM_TIMEOUT_MS, time left)
//   classify        errors.ts        whatever an attempt threw → a classified failure
// and at the end, one attempt over the transport (transport.ts: undici, the SSRF-guarded agent
// for tenant-chosen hosts, size caps, zod validation of every JSON body).
import type { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import type { z } from "zod";
import { AdapterError } from "../errors.ts";
import type { CircuitState } from "./breaker.ts";
import { cancelPolicy } from "./cancel.ts";
import { circuitBreakerPolicy } from "./circuit.ts";
import { AttemptFailed, classifyPolicy } from "./errors.ts";
import { attemptMetricsPolicy } from "./metrics.ts";
import { isValidContentType, multipartBody, type UploadFile } from "./multipart.ts";
import type { UpstreamClientOptions } from "./options.ts";
import { Origins } from "./origins.ts";
import { compose, type CallContext, type Chain, type DeadlineScope, type Target } from "./policy.ts";
import { retryPolicy } from "./retry.ts";
import { retryBudgetPolicy } from "./retry-budget.ts";
import { attemptTimeoutPolicy, deadlinePolicy, Deadlines } from "./timeout.ts";
import { discard, header, Transport, type Method } from "./transport.ts";

export type { Product, Target } from "./policy.ts";
export type { Method } from "./transport.ts";
export { upstreamOptionsFromConfig, type UpstreamClientOptions } from "./options.ts";

/** Who is calling and on whose behalf: what every upstream request carries. */
export interface UpstreamCall {
  requestId: string;
  /** Forwarded unchanged as `Authorization: Bearer <accessToken>`. */
  accessToken: string;
  /**
   * The caller's signal, one per incoming request: hanging up cancels the upstream request, and
   * the request's deadline (REQUEST_DEADLINE_MS) is keyed by it (timeout.ts).
   */
  signal?: AbortSignal | undefined;
}

export interface JsonRequest<S extends z.ZodType> extends Target {
  method: Method;
  /** Sent as JSON when defined. */
  body?: unknown;
  /** The response body's contract. */
  schema: S;
}

export interface UploadRequest<S extends z.ZodType> extends Target {
  /** Text form fields, sent before the file; undefined values are left out. */
  fields?: Record<string, string | undefined>;
  file: UploadFile & { fieldName?: string };
  schema: S;
}

export type DownloadRequest = Target;

export interface UpstreamDownload {
  status: number;
  contentType: string;
  contentLength: number | undefined;
  /** The upstream's Content-Disposition, if any. */
  contentDisposition: string | undefined;
  /** The bytes, as undici streams them; destroy it if you stop reading. */
  body: Readable;
}

export interface UpstreamClient {
  /** A JSON call: the validated body, or an AdapterError. */
  json<S extends z.ZodType>(call: UpstreamCall, request: JsonRequest<S>): Promise<z.output<S>>;
  /** A streaming multipart/form-data POST (never retried). */
  upload<S extends z.ZodType>(call: UpstreamCall, request: UploadRequest<S>): Promise<z.output<S>>;
  /** A streaming GET: status checked, headers and the body stream returned unread. */
  download(call: UpstreamCall, request: DownloadRequest): Promise<UpstreamDownload>;
  /** The circuit's state for an origin (for readiness and tests). */
  circuit(origin: string): CircuitState;
  close(): Promise<void>;
}

/**
 * undici's headers timeout runs from the moment a request starts to be sent, so an upload's
 * budget includes sending it: the usual timeout plus the time the file takes at this slowest
 * accepted intake (a 100 MiB upload gets 100 s more).
 */
export const UPLOAD_MIN_BYTES_PER_SECOND = 1024 * 1024;

export function uploadHeadersTimeout(timeoutMs: number, bytes: number): number {
  return timeoutMs + Math.ceil((bytes / UPLOAD_MIN_BYTES_PER_SECOND) * 1000);
}

/**
 * The policies every call goes through, outermost first: the one place they are composed (the
 * order matters: the deadline and cancellation cover the retries, the budget counts a call once,
 * the breaker judges each attempt, the timeout and classification are per attempt).
 */
function upstreamChain(options: UpstreamClientOptions, origins: Origins, timeoutMs: number, random: () => number): Chain {
  const deadlineMs = options.requestDeadlineMs ?? 30_000;
  const metrics = options.metrics;
  const retry = {
    maxRetries: Math.max(0, options.maxRetries ?? 2),
    baseDelayMs: options.retryBaseDelayMs ?? 100,
    maxDelayMs: options.maxRetryDelayMs ?? 2_000,
    random,
  };
  return compose([
    deadlinePolicy(deadlineMs > 0 ? new Deadlines(deadlineMs) : undefined),
    cancelPolicy(),
    retryBudgetPolicy({
      budgetFor: (origin) => origins.budget(origin),
      onDecision: (origin, allowed) => metrics?.upstreamRetries?.inc({ origin, budget: allowed ? "allowed" : "denied" }),
    }),
    retryPolicy(retry, timeoutMs),
    attemptMetricsPolicy(metrics?.upstreamDuration),
    circuitBreakerPolicy((origin) => origins.breaker(origin), timeoutMs),
    attemptTimeoutPolicy(timeoutMs),
    classifyPolicy(),
  ]);
}

export function createUpstreamClient(options: UpstreamClientOptions = {}): UpstreamClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const uploadLimit = options.uploadLimitBytes ?? 100 * 1024 * 1024;
  const random = options.random ?? Math.random;
  const transport = new Transport({
    timeoutMs,
    connections: options.connections ?? 64,
    keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? 4_000,
    maxResponseBytes: options.maxResponseBytes ?? 10 * 1024 * 1024,
    userAgent: options.userAgent ?? "workspace-gateway",
    dispatcher: options.dispatcher,
  });
  const origins = new Origins({
    breaker: options.breaker,
    retryBudget: options.retryBudget,
    gauge: options.metrics?.upstreamCircuitState,
    now: options.now ?? Date.now,
    random,
  });
  const chain = upstreamChain(options, origins, timeoutMs, random);

  /** One call through the chain; `attempt` is one HTTP attempt. Ends with the result or an AdapterError. */
  async function run<T>(
    call: UpstreamCall,
    target: Target,
    idempotent: boolean,
    scope: DeadlineScope,
    attempt: (ctx: CallContext) => Promise<T>,
  ): Promise<T> {
    const ctx: CallContext = { target, idempotent, scope, caller: call.signal, attempt: 0, timeoutMs };
    try {
      return await chain(ctx, attempt);
    } catch (error) {
      throw error instanceof AttemptFailed ? error.failure.error : error;
    }
  }

  return {
    async json(call, req) {
      const json = req.body === undefined ? undefined : JSON.stringify(req.body);
      const headers = json === undefined ? undefined : { "content-type": "application/json" };
      return run(call, req, req.method === "GET", "whole", async (ctx) =>
        transport.readJson(await transport.send(call, ctx, { method: req.method, body: json, headers }), req.schema),
      );
    },

    async upload(call, req) {
      if (!isValidContentType(req.file.contentType)) {
        throw new AdapterError("BAD_USER_INPUT", "contentType: not a valid media type");
      }
      let streamError: AdapterError | undefined;
      const fields: Array<readonly [string, string]> = [];
      for (const [name, value] of Object.entries(req.fields ?? {})) if (value !== undefined) fields.push([name, value]);
      const multipart = multipartBody(fields, req.file, uploadLimit, (error) => {
        streamError ??= error;
      });
      const headers = {
        "content-type": multipart.contentType,
        ...(multipart.length === undefined ? {} : { "content-length": String(multipart.length) }),
      };
      const headersTimeoutMs = uploadHeadersTimeout(timeoutMs, multipart.length ?? uploadLimit);
      // Never retried (POST); no request deadline: the upload's budget grows with its size.
      return run(call, req, false, "none", async (ctx) => {
        let response: Dispatcher.ResponseData;
        try {
          response = await transport.send(call, ctx, { method: "POST", body: multipart.body, headers, headersTimeoutMs });
        } catch (error) {
          discard(multipart.body);
          if (streamError)
            throw new AttemptFailed({ error: streamError, outcome: "invalid_response", verdict: "neutral", retryable: false });
          throw error;
        }
        return transport.readJson(response, req.schema);
      });
    },

    async download(call, req) {
      const response = await run(call, req, true, "headers", (ctx) =>
        transport.send(call, ctx, { method: "GET", headers: { accept: "*/*" } }),
      );
      const length = Number(header(response.headers["content-length"]));
      return {
        status: response.statusCode,
        contentType: header(response.headers["content-type"]) ?? "application/octet-stream",
        contentLength: Number.isFinite(length) ? length : undefined,
        contentDisposition: header(response.headers["content-disposition"]),
        body: response.body,
      };
    },

    circuit: (origin) => origins.circuit(origin),

    close: () => transport.close(),
  };
}
