// The one upstream HTTP client: one undici Agent (a keep-alive pool per origin) built at
// start-up, a response size cap, zod validation of every JSON body, and streaming upload and
// download modes. Adapters describe endpoints; this module does the HTTP, and composes the
// resilience pieces, each in its own module (docs/resilience.md):
//   timeout.ts       one deadline per incoming request; per-attempt timeout min(timeout, time left)
//   retry.ts         which failures of which calls are retried, backoff, Retry-After
//   retry-budget.ts  retries per origin limited to a share of its recent requests
//   breaker.ts       a failure-rate circuit breaker per origin
//   hold.ts          a call near an open circuit's probe waits for it rather than being refused
//   address-guard.ts refuses private addresses, at connect time, for tenant-chosen hosts
import type { Readable } from "node:stream";
import { Agent, type Dispatcher } from "undici";
import type { z } from "zod";
import { AdapterError } from "../errors.ts";
import { guardedConnector } from "./address-guard.ts";
import { queryString, type QueryValue, type UpstreamBase } from "./base.ts";
import { CircuitBreaker, circuitStateValue, type BreakerSettings, type CircuitState, type Ticket } from "./breaker.ts";
import { admit } from "./hold.ts";
import {
  AttemptFailed,
  bodyFailure,
  describeInvalid,
  statusFailure,
  transportFailure,
  type Failure,
  type Outcome,
  type Verdict,
} from "./errors.ts";
import type { UpstreamMetrics } from "./metrics.ts";
import { isValidContentType, multipartBody, type UploadFile } from "./multipart.ts";
import { retryDelay, sleep, type RetrySettings } from "./retry.ts";
import { RetryBudget, type RetryBudgetSettings } from "./retry-budget.ts";
import { attemptTimeoutMs, Deadlines, remainingMs, type Deadline } from "./timeout.ts";

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

export interface UpstreamClientOptions {
  /** Connect, headers and body-idle timeout per attempt. Default 10,000 (UPSTREAM_TIMEOUT_MS). */
  timeoutMs?: number;
  /**
   * One deadline per incoming request over all its upstream calls and their retries (JSON calls
   * whole, downloads until their headers; uploads have their own budget). 0: none. Default 30,000.
   */
  requestDeadlineMs?: number;
  /** Sockets per origin. Default 64. */
  connections?: number;
  /** Idle keep-alive socket lifetime (shortened by the server's Keep-Alive hint). Default 4,000. */
  keepAliveTimeoutMs?: number;
  /** Retries of idempotent calls (GET) on connection errors, timeouts, bad JSON, 429 and 5xx. Default 2. */
  maxRetries?: number;
  /** First backoff step; doubles per retry, jittered. Default 100. */
  retryBaseDelayMs?: number;
  /** The longest wait before a retry, Retry-After included; asked to wait longer, we answer at once. Default 2,000. */
  maxRetryDelayMs?: number;
  /** Retries per origin as a share of its recent requests, plus a floor. */
  retryBudget?: Partial<RetryBudgetSettings>;
  /** The circuit breaker per origin (breaker.ts has the defaults). */
  breaker?: Partial<BreakerSettings>;
  /** Largest JSON response accepted. Default 10 MiB. */
  maxResponseBytes?: number;
  /** Largest upload streamed upstream. Default 100 MiB (UPLOAD_LIMIT_BYTES). */
  uploadLimitBytes?: number;
  metrics?: UpstreamMetrics | undefined;
  userAgent?: string;
  /** Replaces the Agent (tests, proxies). Not closed by close(). Restricted (tenant-chosen) hosts always use the guarded agent. */
  dispatcher?: Dispatcher;
  /** For tests: the jitter source. */
  random?: () => number;
  /** For tests: the breakers' and budgets' clock. */
  now?: () => number;
}

/** The configuration's upstream settings by variable name (docs/resilience.md); adapters/ does not import src/'s Config. */
type UpstreamSetting =
  | "UPSTREAM_TIMEOUT_MS"
  | "UPLOAD_LIMIT_BYTES"
  | "REQUEST_DEADLINE_MS"
  | "UPSTREAM_RETRIES"
  | "UPSTREAM_RETRY_BUDGET_RATIO"
  | "UPSTREAM_RETRY_BUDGET_MIN_PER_SEC"
  | "UPSTREAM_BREAKER_FAILURE_RATE"
  | "UPSTREAM_BREAKER_MIN_CALLS"
  | "UPSTREAM_BREAKER_WINDOW_MS"
  | "UPSTREAM_BREAKER_OPEN_MS"
  | "UPSTREAM_BREAKER_OPEN_MAX_MS"
  | "UPSTREAM_BREAKER_PROBES"
  | "UPSTREAM_BREAKER_HOLD_MS"
  | "UPSTREAM_BREAKER_CONSECUTIVE_FAILURES";
type UpstreamConfig = Record<UpstreamSetting, number>;

/** Client options from configuration (docs/resilience.md lists each variable). */
export function upstreamOptionsFromConfig(config: UpstreamConfig): UpstreamClientOptions {
  return {
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    uploadLimitBytes: config.UPLOAD_LIMIT_BYTES,
    requestDeadlineMs: config.REQUEST_DEADLINE_MS,
    maxRetries: config.UPSTREAM_RETRIES,
    retryBudget: { ratio: config.UPSTREAM_RETRY_BUDGET_RATIO, minPerSecond: config.UPSTREAM_RETRY_BUDGET_MIN_PER_SEC },
    breaker: {
      failureRate: config.UPSTREAM_BREAKER_FAILURE_RATE,
      minCalls: config.UPSTREAM_BREAKER_MIN_CALLS,
      windowMs: config.UPSTREAM_BREAKER_WINDOW_MS,
      openMs: config.UPSTREAM_BREAKER_OPEN_MS,
      openMaxMs: config.UPSTREAM_BREAKER_OPEN_MAX_MS,
      probes: config.UPSTREAM_BREAKER_PROBES,
      holdMs: config.UPSTREAM_BREAKER_HOLD_MS,
      consecutiveFailures: config.UPSTREAM_BREAKER_CONSECUTIVE_FAILURES,
    },
  };
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

const header = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** How much of the call the request's deadline covers. */
type DeadlineScope = "whole" | "headers" | "none";

/** What one attempt gets: the signal to pass undici, and its timeout. */
interface Attempt {
  signal: AbortSignal | undefined;
  timeoutMs: number;
}

interface Origin {
  breaker: CircuitBreaker;
  budget: RetryBudget;
}

export function createUpstreamClient(options: UpstreamClientOptions = {}): UpstreamClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retry: RetrySettings = {
    maxRetries: Math.max(0, options.maxRetries ?? 2),
    baseDelayMs: options.retryBaseDelayMs ?? 100,
    maxDelayMs: options.maxRetryDelayMs ?? 2_000,
    random: options.random ?? Math.random,
  };
  const maxResponseBytes = options.maxResponseBytes ?? 10 * 1024 * 1024;
  const uploadLimit = options.uploadLimitBytes ?? 100 * 1024 * 1024;
  const deadlineMs = options.requestDeadlineMs ?? 30_000;
  const deadlines = deadlineMs > 0 ? new Deadlines(deadlineMs) : undefined;
  const now = options.now ?? Date.now;
  const userAgent = options.userAgent ?? "workspace-gateway";
  const histogram = options.metrics?.upstreamDuration;
  const circuitGauge = options.metrics?.upstreamCircuitState;
  const retryCounter = options.metrics?.upstreamRetries;

  const agentOptions = {
    connections: options.connections ?? 64,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 4_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  };
  const ownAgent = options.dispatcher ? undefined : new Agent({ ...agentOptions, connect: { timeout: timeoutMs } });
  const dispatcher: Dispatcher = options.dispatcher ?? (ownAgent as Agent);
  // Tenant-chosen hosts go through their own agent, whose connector refuses private addresses.
  let guardedAgent: Agent | undefined;
  const dispatcherFor = (base: UpstreamBase): Dispatcher =>
    base.restricted ? (guardedAgent ??= new Agent({ ...agentOptions, connect: guardedConnector({ timeout: timeoutMs }) })) : dispatcher;

  const origins = new Map<string, Origin>();
  const originFor = (origin: string): Origin => {
    let state = origins.get(origin);
    if (!state) {
      state = {
        breaker: new CircuitBreaker({
          ...options.breaker,
          now,
          onStateChange: (s) => circuitGauge?.set({ origin }, circuitStateValue[s]),
        }),
        budget: new RetryBudget(options.retryBudget, now),
      };
      circuitGauge?.set({ origin }, 0);
      origins.set(origin, state);
    }
    return state;
  };

  const observe = (product: Product, outcome: Outcome, started: number) => {
    histogram?.observe({ product, outcome }, (performance.now() - started) / 1000);
  };

  const settle = (breaker: CircuitBreaker, ticket: Ticket, verdict: Verdict, outcome: Outcome) => {
    if (verdict === "failure") breaker.failure(ticket, outcome === "timeout");
    else if (verdict === "success") breaker.success(ticket);
    else breaker.release(ticket);
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

  const circuitOpen = (breaker: CircuitBreaker) =>
    new AdapterError("UPSTREAM_UNAVAILABLE", "The upstream is unavailable (circuit open after too many recent failures)", {
      retryAfter: Math.max(1, breaker.retryInSeconds),
    });

  /**
   * One call: attempts under the origin's breaker, retried (idempotent calls only, within the
   * retry budget and the deadline). `attempt` resolves with the result or throws; a thrown
   * AttemptFailed carries its own classification, anything else is classified as transport.
   */
  async function run<T>(
    call: UpstreamCall,
    target: Target,
    idempotent: boolean,
    scope: DeadlineScope,
    attempt: (a: Attempt) => Promise<T>,
  ): Promise<T> {
    const { breaker, budget } = originFor(target.base.origin);
    const deadline: Deadline | undefined = scope === "none" ? undefined : deadlines?.for(call.signal);
    // The deadline's signal carries the caller's hang-up too; downloads stream past it, so they
    // keep the caller's signal and meet the deadline through their headers timeout.
    const signal = scope === "whole" && deadline ? deadline.signal : call.signal;
    const stop = deadline?.signal ?? call.signal;
    budget.request();
    deadline?.enter();
    try {
      return await attempts(target, idempotent, deadline, signal, stop, breaker, budget, attempt);
    } finally {
      deadline?.leave();
    }
  }

  async function attempts<T>(
    target: Target,
    idempotent: boolean,
    deadline: Deadline | undefined,
    signal: AbortSignal | undefined,
    stop: AbortSignal | undefined,
    breaker: CircuitBreaker,
    budget: RetryBudget,
    attempt: (a: Attempt) => Promise<T>,
  ): Promise<T> {
    let last: Failure | undefined;
    for (let n = 0; ; n++) {
      if (stop?.aborted) throw transportFailure(stop.reason, stop, timeoutMs).error;
      // A retry never waits for (nor goes through) an open circuit: it ends with its failure.
      let ticket: Ticket | null;
      try {
        ticket = n === 0 ? await admit(breaker, breaker.settings.holdMs, stop) : breaker.tryAcquire();
      } catch (reason) {
        throw transportFailure(reason, stop, timeoutMs).error;
      }
      if (!ticket) {
        histogram?.observe({ product: target.product, outcome: "circuit_open" }, 0);
        throw last?.error ?? circuitOpen(breaker);
      }
      const started = performance.now();
      const attemptTimeout = attemptTimeoutMs(timeoutMs, deadline, started);
      let failure: Failure;
      try {
        const value = await attempt({ signal, timeoutMs: attemptTimeout });
        breaker.success(ticket);
        observe(target.product, "ok", started);
        return value;
      } catch (error) {
        failure = transportFailure(error, stop, attemptTimeout);
      }
      settle(breaker, ticket, failure.verdict, failure.outcome);
      observe(target.product, failure.outcome, started);
      last = failure;

      const delay = retryDelay(retry, idempotent, failure, n, deadline ? remainingMs(deadline) : undefined);
      if (delay === undefined) throw failure.error;
      if (!budget.tryRetry()) {
        retryCounter?.inc({ origin: target.base.origin, budget: "denied" });
        throw failure.error;
      }
      retryCounter?.inc({ origin: target.base.origin, budget: "allowed" });
      try {
        await sleep(delay, stop);
      } catch (reason) {
        throw transportFailure(reason, stop, timeoutMs).error;
      }
    }
  }

  /** Sends one request; a non-2xx answer becomes an AttemptFailed (its body read or dropped). */
  async function request(
    call: UpstreamCall,
    target: Target,
    method: Method,
    a: Attempt,
    body: Dispatcher.DispatchOptions["body"] | undefined,
    extraHeaders: Record<string, string> | undefined,
    headersTimeout = a.timeoutMs,
  ): Promise<Dispatcher.ResponseData> {
    const response = await dispatcherFor(target.base).request({
      origin: target.base.origin,
      path: target.base.prefix + target.path + queryString(target.query),
      method,
      headers: headersFor(call, extraHeaders),
      body: body ?? null,
      signal: a.signal ?? null,
      headersTimeout,
      bodyTimeout: a.timeoutMs,
      idempotent: method === "GET",
    });
    if (response.statusCode >= 200 && response.statusCode < 300) return response;
    if (response.statusCode < 400) {
      // Redirects are not followed: the configured origin is the only one we talk to.
      discard(response.body);
      throw new AttemptFailed({
        error: new AdapterError("UPSTREAM_ERROR", `Unexpected upstream answer (HTTP ${response.statusCode})`),
        outcome: "invalid_response",
        verdict: "success",
        retryable: false,
      });
    }
    const text = await readErrorBody(response.body, MAX_ERROR_BODY);
    throw new AttemptFailed(statusFailure(response.statusCode, text, response.headers["retry-after"]));
  }

  /** Reads, parses and validates a 2xx JSON body. */
  async function readJson<S extends z.ZodType>(response: Dispatcher.ResponseData, schema: S): Promise<z.output<S>> {
    const declared = Number(header(response.headers["content-length"]));
    let raw: Buffer;
    try {
      if (declared > maxResponseBytes) {
        discard(response.body);
        throw new TooLarge();
      }
      raw = await readCapped(response.body, maxResponseBytes);
    } catch (error) {
      if (!(error instanceof TooLarge)) throw error;
      throw new AttemptFailed({
        error: new AdapterError("UPSTREAM_ERROR", `upstream response: larger than ${maxResponseBytes} bytes`),
        outcome: "invalid_response",
        verdict: "success",
        retryable: false,
      });
    }
    let parsed: unknown;
    try {
      parsed = raw.byteLength === 0 ? undefined : JSON.parse(raw.toString("utf8"));
    } catch {
      // A body cut short is as transient as a reset: worth a retry of an idempotent call.
      throw new AttemptFailed(bodyFailure(new AdapterError("UPSTREAM_ERROR", "upstream response: not valid JSON"), true));
    }
    const result = schema.safeParse(parsed);
    if (!result.success) {
      throw new AttemptFailed(
        bodyFailure(
          new AdapterError("UPSTREAM_ERROR", describeInvalid(result.error), {
            details: result.error.issues.slice(0, 5).map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
          }),
          false,
        ),
      );
    }
    return result.data;
  }

  return {
    async json(call, req) {
      const json = req.body === undefined ? undefined : JSON.stringify(req.body);
      const headers = json === undefined ? undefined : { "content-type": "application/json" };
      return run(call, req, req.method === "GET", "whole", async (a) =>
        readJson(await request(call, req, req.method, a, json, headers), req.schema),
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
      const headersTimeout = uploadHeadersTimeout(timeoutMs, multipart.length ?? uploadLimit);
      // Never retried (POST); no request deadline: the upload's budget grows with its size.
      return run(call, req, false, "none", async (a) => {
        let response: Dispatcher.ResponseData;
        try {
          response = await request(call, req, "POST", a, multipart.body, headers, headersTimeout);
        } catch (error) {
          discard(multipart.body);
          if (streamError)
            throw new AttemptFailed({ error: streamError, outcome: "invalid_response", verdict: "neutral", retryable: false });
          throw error;
        }
        return readJson(response, req.schema);
      });
    },

    async download(call, req) {
      const response = await run(call, req, true, "headers", (a) => request(call, req, "GET", a, undefined, { accept: "*/*" }));
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
      return origins.get(origin)?.breaker.current ?? "closed";
    },

    async close() {
      await ownAgent?.close();
      await guardedAgent?.close();
    },
  };
}
