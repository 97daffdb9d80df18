// Every request the sandbox serves (except /__sandbox control calls), in arrival order.
import type { IncomingHttpHeaders } from "node:http";

export interface RecordedRequest {
  /** 1, 2, 3, … in arrival order (not reset by clearRequests). */
  seq: number;
  method: string;
  /** The path as received, e.g. `/tenants/acme/api/v1/invoices` or `/email/v1/messages`. */
  path: string;
  /** The path under the tenant's base (`/api/v1/invoices`); equals `path` for API requests. */
  scopedPath: string;
  /** Query parameters; a repeated parameter becomes an array. */
  query: Record<string, string | string[]>;
  /** Lower-cased header names; repeated headers joined with ", ". Includes authorization and x-request-id. */
  headers: Record<string, string>;
  /** Parsed JSON; the raw text when not JSON; for multipart `{fields, file:{size, sha256, filename, contentType}|null}`; undefined when empty. */
  body: unknown;
  /** Set for tenant endpoints (path-based or per-tenant port). */
  tenant?: string;
  /** Date.now() when the request arrived. */
  at: number;
  /** The status answered; undefined while in flight, for a hang and for a reset. */
  status?: number;
  /** Types of the faults applied to this request, e.g. ["latency", "status"]. */
  faults?: string[];
  /**
   * Set when the connection closed before the answer was complete: the client went away (e.g. the
   * gateway cancelled the call), a `reset`/`hang` fault, or close(). `closedAt` is Date.now() then.
   */
  closedEarly?: boolean;
  closedAt?: number;
}

export function headersObject(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length === 1 ? (all[0] as string) : all;
  }
  return out;
}

export class Recorder {
  /** The live list: cleared in place, so a reference taken earlier stays current. */
  readonly requests: RecordedRequest[] = [];
  private seq = 0;

  /**
   * At most `limit` requests are kept (the oldest half goes when it is reached): a sandbox under
   * a bench's hundred thousand requests must not grow its heap, and pay for it in GC pauses,
   * without end. Tests look at the last few requests only.
   */
  constructor(private readonly limit = 10_000) {}

  add(entry: Omit<RecordedRequest, "seq">): RecordedRequest {
    const record: RecordedRequest = { seq: ++this.seq, ...entry };
    if (this.requests.length >= this.limit) this.requests.splice(0, Math.ceil(this.limit / 2));
    this.requests.push(record);
    return record;
  }

  clear(): void {
    this.requests.length = 0;
  }

  /** Requests whose path or scoped path starts with `pathPrefix`, optionally of one method. */
  filter(pathPrefix?: string, method?: string): RecordedRequest[] {
    const m = method?.toUpperCase();
    return this.requests.filter(
      (r) =>
        (pathPrefix === undefined || r.path.startsWith(pathPrefix) || r.scopedPath.startsWith(pathPrefix)) &&
        (m === undefined || r.method === m),
    );
  }

  count(pathPrefix?: string, method?: string): number {
    return this.filter(pathPrefix, method).length;
  }

  /** Counters keyed by "METHOD /path" (the path as received). */
  counts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const r of this.requests) {
      const key = `${r.method} ${r.path}`;
      out[key] = (out[key] ?? 0) + 1;
    }
    return out;
  }
}
