// The one upstream HTTP client: one undici Agent (a keep-alive pool per origin) built at
// start-up, timeouts, the caller's AbortSignal, retries for idempotent calls, a circuit
// breaker per origin, a response size cap, zod validation of every JSON body, and streaming
// upload and download modes. Adapters describe endpoints; this module does the HTTP.
import type { Readable } from "node:stream";
import { Agent, type Dispatcher } from "undici";
import type { z } from "zod";
import type { Config } from "../../src/core/config.ts";
import { GatewayError } from "../../src/core/errors.ts";
import type { Metrics } from "../../src/http/metrics.ts";
import { queryString, type QueryValue, type UpstreamBase } from "./base.ts";
import { CircuitBreaker, type CircuitState } from "./breaker.ts";
import { describeInvalid, statusFailure, transportFailure, type Failure, type Outcome } from "./errors.ts";
import { isValidContentType, multipartBody, type UploadFile } from "./multipart.ts";

/** Who is calling and on whose behalf: what every upstream request carries. */
export interface UpstreamCall {
  requestId: string;
  /** Forwarded unchanged as `Authorization: Bearer <accessToken>`. */
  accessToken: string;
  /** The caller's signal: hanging up cancels the upstream request. */
  signal?: AbortSignal | undefined;
}

/** Metrics label: which product an upstream call served. */
export type Product = "mail" | "drive" | "search" | "meetings" | "enterprise";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

interface Target {
  product: Product;
  base: UpstreamBase;
  /** Starts with "/"; ids already encoded (see `path` in base.ts). */
  path: string;
  query?: Record<string, QueryValue> | undefined;
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
  /** A JSON call: the validated body, or a GatewayError. */
  json<S extends z.ZodType>(call: UpstreamCall, request: JsonRequest<S>): Promise<z.output<S>>;
  /** A streaming multipart/form-data POST (never retried). */
  upload<S extends z.ZodType>(call: UpstreamCall, request: UploadRequest<S>): Promise<z.output<S>>;
  /** A streaming GET: status checked, headers and the body stream returned unread. */
  download(call: UpstreamCall, request: DownloadRequest): Promise<UpstreamDownload>;
  /** The circuit's state for an origin (for readiness and tests). */
  circuit(origin: string): CircuitState;
  close(): Promise<void>;
}

export interface UpstreamClientOptions {
  /** Connect, headers and body-idle timeout per attempt. Default 10,000 (UPSTREAM_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Sockets per origin. Default 64. */
  connections?: number;
  /** Idle keep-alive socket lifetime (shortened by the server's Keep-Alive hint). Default 4,000. */
  keepAliveTimeoutMs?: number;
  /** Retries of idempotent calls (GET) on connection errors, 429, 502, 503, 504. Default 2. */
  maxRetries?: number;
  /** First backoff step; doubles per retry, jittered. Default 100. */
  retryBaseDelayMs?: number;
  /** The longest wait before a retry, Retry-After included; asked to wait longer, we answer at once. Default 2,000. */
  maxRetryDelayMs?: number;
  /** Consecutive failures that open an origin's circuit. Default 5. */
  breakerThreshold?: number;
  /** How long an open circuit answers UPSTREAM_UNAVAILABLE before letting a probe through. Default 10,000. */
  breakerCooldownMs?: number;
  /** Largest JSON response accepted. Default 10 MiB. */
  maxResponseBytes?: number;
  /** Largest upload streamed upstream. Default 100 MiB (UPLOAD_LIMIT_BYTES). */
  uploadLimitBytes?: number;
  metrics?: Pick<Metrics, "upstreamDuration"> | undefined;
  userAgent?: string;
  /** Replaces the Agent (tests, proxies). Not closed by close(). */
  dispatcher?: Dispatcher;
  /** For tests: the jitter source. */
  random?: () => number;
}

/** Client options from configuration (§10). */
export function upstreamOptionsFromConfig(config: Pick<Config, "UPSTREAM_TIMEOUT_MS" | "UPLOAD_LIMIT_BYTES">): UpstreamClientOptions {
  return { timeoutMs: config.UPSTREAM_TIMEOUT_MS, uploadLimitBytes: config.UPLOAD_LIMIT_BYTES };
}

const MAX_ERROR_BODY = 64 * 1024;

/**
 * undici's headers timeout runs from the moment a request starts to be sent, so an upload's
 * budget includes sending it: the usual timeout plus the time the file takes at this slowest
 * accepted intake (a 100 MiB upload gets 100 s more).
 */
export const UPLOAD_MIN_BYTES_PER_SECOND = 1024 * 1024;

export function uploadHeadersTimeout(timeoutMs: number, bytes: number): number {
  return timeoutMs + Math.ceil((bytes / UPLOAD_MIN_BYTES_PER_SECOND) * 1000);
}

class TooLarge extends Error {}

/** Drops a response body we will not read. (A bare destroy() makes undici emit an error nobody handles.) */
function discard(body: Readable): void {
  body.on("error", () => undefined);
  body.destroy();
}

async function readCapped(body: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > limit) {
      discard(body);
      throw new TooLarge();
    }
    chunks.push(chunk);
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
}

/** Reads at most `limit` bytes of an error body and lets the rest go. */
async function readErrorBody(body: Readable, limit: number): Promise<string> {
  try {
    return (await readCapped(body, limit)).toString("utf8");
  } catch {
    discard(body);
    return "";
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const header = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

export function createUpstreamClient(options: UpstreamClientOptions = {}): UpstreamClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxRetries = Math.max(0, options.maxRetries ?? 2);
  const retryBase = options.retryBaseDelayMs ?? 100;
  const maxRetryDelay = options.maxRetryDelayMs ?? 2_000;
  const maxResponseBytes = options.maxResponseBytes ?? 10 * 1024 * 1024;
  const uploadLimit = options.uploadLimitBytes ?? 100 * 1024 * 1024;
  const threshold = options.breakerThreshold ?? 5;
  const cooldownMs = options.breakerCooldownMs ?? 10_000;
  const random = options.random ?? Math.random;
  const userAgent = options.userAgent ?? "workspace-gateway";
  const histogram = options.metrics?.upstreamDuration;

  const ownAgent = options.dispatcher
    ? undefined
    : new Agent({
        connections: options.connections ?? 64,
        keepAliveTimeout: options.keepAliveTimeoutMs ?? 4_000,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        connect: { timeout: timeoutMs },
      });
  const dispatcher: Dispatcher = options.dispatcher ?? (ownAgent as Agent);

  const breakers = new Map<string, CircuitBreaker>();
  const breakerFor = (origin: string): CircuitBreaker => {
    let breaker = breakers.get(origin);
    if (!breaker) {
      breaker = new CircuitBreaker({ threshold, cooldownMs });
      breakers.set(origin, breaker);
    }
    return breaker;
  };

  const observe = (product: Product, outcome: Outcome, started: number) => {
    histogram?.observe({ product, outcome }, (performance.now() - started) / 1000);
  };

  function headersFor(call: UpstreamCall, extra?: Record<string, string>): Record<string, string> {
    return {
      authorization: `Bearer ${call.accessToken}`,
      "x-request-id": call.requestId,
      accept: "application/json",
      "user-agent": userAgent,
      ...extra,
    };
  }

  /** Backoff before retry number `attempt` (0-based): equal jitter, at least Retry-After. */
  function retryDelay(attempt: number, retryAfter: number | undefined): number | undefined {
    const step = retryBase * 2 ** attempt;
    const backoff = step / 2 + random() * (step / 2);
    const delay = Math.max(backoff, (retryAfter ?? 0) * 1000);
    return delay > maxRetryDelay ? undefined : delay;
  }

  const circuitOpen = (breaker: CircuitBreaker) =>
    new GatewayError("UPSTREAM_UNAVAILABLE", "The upstream is unavailable (circuit open after repeated failures)", {
      retryAfter: Math.max(1, breaker.retryInSeconds),
    });

  /**
   * One request with retries (idempotent methods only) and the breaker; resolves with a 2xx
   * response whose body is still unread; the caller then settles the breaker and the metric.
   */
  async function send(
    call: UpstreamCall,
    target: Target,
    method: Method,
    makeBody: () => { body?: Dispatcher.DispatchOptions["body"]; headers?: Record<string, string> },
    bodyError?: () => GatewayError | undefined,
    headersTimeout = timeoutMs,
  ): Promise<{ response: Dispatcher.ResponseData; started: number; breaker: CircuitBreaker }> {
    const breaker = breakerFor(target.base.origin);
    const idempotent = method === "GET";
    const requestPath = target.base.prefix + target.path + queryString(target.query);
    let last: Failure | undefined;

    for (let attempt = 0; ; attempt++) {
      if (call.signal?.aborted) throw transportFailure(call.signal.reason, call.signal, timeoutMs).error;
      if (!breaker.tryAcquire()) {
        histogram?.observe({ product: target.product, outcome: "circuit_open" }, 0);
        throw last?.error ?? circuitOpen(breaker);
      }
      const started = performance.now();
      let failure: Failure;
      try {
        const { body, headers } = makeBody();
        const response = await dispatcher.request({
          origin: target.base.origin,
          path: requestPath,
          method,
          headers: headersFor(call, headers),
          body: body ?? null,
          signal: call.signal ?? null,
          headersTimeout,
          bodyTimeout: timeoutMs,
          idempotent,
        });
        if (response.statusCode < 400) {
          if (response.statusCode < 200 || response.statusCode >= 300) {
            // Redirects are not followed: the configured origin is the only one we talk to.
            discard(response.body);
            breaker.success();
            observe(target.product, "invalid_response", started);
            throw new GatewayError("UPSTREAM_ERROR", `Unexpected upstream answer (HTTP ${response.statusCode})`);
          }
          return { response, started, breaker };
        }
        const text = await readErrorBody(response.body, MAX_ERROR_BODY);
        failure = statusFailure(response.statusCode, text, response.headers["retry-after"]);
      } catch (error) {
        if (error instanceof GatewayError && !bodyError?.()) throw error;
        failure = transportFailure(bodyError?.() ?? error, call.signal, timeoutMs);
      }

      observe(target.product, failure.outcome, started);
      if (failure.breakerFailure) breaker.failure();
      else if (failure.outcome === "aborted" || failure.outcome === "invalid_response") breaker.release();
      else breaker.success();

      last = failure;
      if (!idempotent || !failure.retryable || attempt >= maxRetries) throw failure.error;
      const delay = retryDelay(attempt, failure.retryAfter);
      if (delay === undefined) throw failure.error;
      try {
        await sleep(delay, call.signal);
      } catch (reason) {
        throw transportFailure(reason, call.signal, timeoutMs).error;
      }
    }
  }

  /** Reads, parses and validates a 2xx JSON body, settling the breaker and the metric. */
  async function finishJson<S extends z.ZodType>(
    call: UpstreamCall,
    product: Product,
    sent: { response: Dispatcher.ResponseData; started: number; breaker: CircuitBreaker },
    schema: S,
  ): Promise<z.output<S>> {
    const { response, started, breaker } = sent;
    const declared = Number(header(response.headers["content-length"]));
    let raw: Buffer;
    try {
      if (declared > maxResponseBytes) {
        discard(response.body);
        throw new TooLarge();
      }
      raw = await readCapped(response.body, maxResponseBytes);
    } catch (error) {
      if (error instanceof TooLarge) {
        breaker.success();
        observe(product, "invalid_response", started);
        throw new GatewayError("UPSTREAM_ERROR", `upstream response: larger than ${maxResponseBytes} bytes`);
      }
      const failure = transportFailure(error, call.signal, timeoutMs);
      if (failure.breakerFailure) breaker.failure();
      else breaker.release();
      observe(product, failure.outcome, started);
      throw failure.error;
    }
    breaker.success();
    let parsed: unknown;
    try {
      parsed = raw.byteLength === 0 ? undefined : JSON.parse(raw.toString("utf8"));
    } catch {
      observe(product, "invalid_response", started);
      throw new GatewayError("UPSTREAM_ERROR", "upstream response: not valid JSON");
    }
    const result = schema.safeParse(parsed);
    if (!result.success) {
      observe(product, "invalid_response", started);
      throw new GatewayError("UPSTREAM_ERROR", describeInvalid(result.error), {
        details: result.error.issues.slice(0, 5).map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
      });
    }
    observe(product, "ok", started);
    return result.data;
  }

  return {
    async json(call, request) {
      const json = request.body === undefined ? undefined : JSON.stringify(request.body);
      const sent = await send(call, request, request.method, () =>
        json === undefined ? {} : { body: json, headers: { "content-type": "application/json" } },
      );
      return finishJson(call, request.product, sent, request.schema);
    },

    async upload(call, request) {
      if (!isValidContentType(request.file.contentType)) {
        throw new GatewayError("BAD_USER_INPUT", "contentType: not a valid media type");
      }
      let streamError: GatewayError | undefined;
      const fields: Array<readonly [string, string]> = [];
      for (const [name, value] of Object.entries(request.fields ?? {})) if (value !== undefined) fields.push([name, value]);
      const multipart = multipartBody(fields, request.file, uploadLimit, (error) => {
        streamError ??= error;
      });
      const sent = await send(
        call,
        request,
        "POST",
        () => ({
          body: multipart.body,
          headers: {
            "content-type": multipart.contentType,
            ...(multipart.length === undefined ? {} : { "content-length": String(multipart.length) }),
          },
        }),
        () => streamError,
        uploadHeadersTimeout(timeoutMs, multipart.length ?? uploadLimit),
      ).catch((error: unknown) => {
        discard(multipart.body);
        throw streamError ?? error;
      });
      return finishJson(call, request.product, sent, request.schema);
    },

    async download(call, request) {
      const { response, started, breaker } = await send(call, request, "GET", () => ({ headers: { accept: "*/*" } }));
      breaker.success();
      observe(request.product, "ok", started);
      const length = Number(header(response.headers["content-length"]));
      return {
        status: response.statusCode,
        contentType: header(response.headers["content-type"]) ?? "application/octet-stream",
        contentLength: Number.isFinite(length) ? length : undefined,
        contentDisposition: header(response.headers["content-disposition"]),
        body: response.body,
      };
    },

    circuit(origin) {
      return breakers.get(origin)?.current ?? "closed";
    },

    async close() {
      await ownAgent?.close();
    },
  };
}
