// The transport: one HTTP attempt over undici, the last step of the client's chain. One Agent (a
// keep-alive pool per origin) built at start-up, and another whose connector refuses private
// addresses for tenant-chosen hosts (address-guard.ts); redirects are not followed; a non-2xx
// answer becomes a classified failure; JSON bodies are read under a size cap and validated with
// zod. Timeouts are undici's own (connect, headers, body idle), set per attempt from the context.
import type { Readable } from "node:stream";
import { Agent, type Dispatcher } from "undici";
import type { z } from "zod";
import { AdapterError } from "../errors.ts";
import { guardedConnector } from "./address-guard.ts";
import { queryString, type UpstreamBase } from "./base.ts";
import { AttemptFailed, bodyFailure, describeInvalid, statusFailure } from "./errors.ts";
import type { CallContext } from "./policy.ts";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface TransportOptions {
  timeoutMs: number;
  connections: number;
  keepAliveTimeoutMs: number;
  maxResponseBytes: number;
  userAgent: string;
  /** Replaces the Agent (tests, proxies); not closed by close(). Restricted hosts always use the guarded agent. */
  dispatcher?: Dispatcher | undefined;
}

/** Who the request is for: forwarded as Authorization and X-Request-Id. */
export interface Caller {
  requestId: string;
  accessToken: string;
}

export interface Send {
  method: Method;
  body?: Dispatcher.DispatchOptions["body"] | undefined;
  headers?: Record<string, string> | undefined;
  /** Defaults to the attempt's timeout (an upload's is longer: it includes sending the file). */
  headersTimeoutMs?: number | undefined;
}

const MAX_ERROR_BODY = 64 * 1024;

class TooLarge extends Error {}

/** Drops a response body we will not read. (A bare destroy() makes undici emit an error nobody handles.) */
export function discard(body: Readable): void {
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

export const header = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

const tooLarge = (limit: number) =>
  new AttemptFailed({
    error: new AdapterError("UPSTREAM_ERROR", `upstream response: larger than ${limit} bytes`),
    outcome: "invalid_response",
    verdict: "success",
    retryable: false,
  });

export class Transport {
  private readonly ownAgent: Agent | undefined;
  private readonly dispatcher: Dispatcher;
  private guardedAgent: Agent | undefined;
  private readonly agentOptions: Agent.Options;

  constructor(private readonly options: TransportOptions) {
    const { timeoutMs } = options;
    this.agentOptions = {
      connections: options.connections,
      keepAliveTimeout: options.keepAliveTimeoutMs,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    };
    this.ownAgent = options.dispatcher ? undefined : new Agent({ ...this.agentOptions, connect: { timeout: timeoutMs } });
    this.dispatcher = options.dispatcher ?? (this.ownAgent as Agent);
  }

  /** Tenant-chosen hosts go through their own agent, whose connector refuses private addresses. */
  private dispatcherFor(base: UpstreamBase): Dispatcher {
    if (!base.restricted) return this.dispatcher;
    this.guardedAgent ??= new Agent({ ...this.agentOptions, connect: guardedConnector({ timeout: this.options.timeoutMs }) });
    return this.guardedAgent;
  }

  /** Sends one request; a non-2xx answer becomes an AttemptFailed (its body read or dropped). */
  async send(caller: Caller, ctx: CallContext, send: Send): Promise<Dispatcher.ResponseData> {
    const { base, path, query } = ctx.target;
    const response = await this.dispatcherFor(base).request({
      origin: base.origin,
      path: base.prefix + path + queryString(query),
      method: send.method,
      headers: {
        authorization: `Bearer ${caller.accessToken}`,
        "x-request-id": caller.requestId,
        accept: "application/json",
        "user-agent": this.options.userAgent,
        ...send.headers,
      },
      body: send.body ?? null,
      // Often a Cancellation (./cancellation.ts): undici reads its aborted, reason and abort listeners only.
      signal: ctx.sendSignal ?? null,
      headersTimeout: send.headersTimeoutMs ?? ctx.timeoutMs,
      bodyTimeout: ctx.timeoutMs,
      idempotent: send.method === "GET",
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
  async readJson<S extends z.ZodType>(response: Dispatcher.ResponseData, schema: S): Promise<z.output<S>> {
    const limit = this.options.maxResponseBytes;
    let raw: Buffer;
    if (Number(header(response.headers["content-length"])) > limit) {
      discard(response.body);
      throw tooLarge(limit);
    }
    try {
      raw = await readCapped(response.body, limit);
    } catch (error) {
      throw error instanceof TooLarge ? tooLarge(limit) : error;
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
      const details = result.error.issues.slice(0, 5).map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
      throw new AttemptFailed(bodyFailure(new AdapterError("UPSTREAM_ERROR", describeInvalid(result.error), { details }), false));
    }
    return result.data;
  }

  async close(): Promise<void> {
    await this.ownAgent?.close();
    await this.guardedAgent?.close();
  }
}
